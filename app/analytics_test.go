package app_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// The trading, portfolio and risk analytics over HTTP, before and after trading.
func TestAnalyticsOverHTTP(t *testing.T) {
	s := start(t, t.TempDir())
	_, tok := s.accounts()

	get := func(path string) map[string]json.RawMessage {
		t.Helper()
		r := s.do("GET", path, tok, "")
		if r.Status != 200 || !r.Success {
			t.Fatalf("%s: %+v", path, r)
		}
		var out map[string]json.RawMessage
		s.into(r, &out)
		return out
	}
	is := func(what string, raw json.RawMessage, want string) {
		t.Helper()
		if string(raw) != want {
			t.Errorf("%s = %s, want %s", what, raw, want)
		}
	}

	if r := s.do("GET", "/api/analytics/trading", "", ""); r.Status != 401 {
		t.Fatalf("signed out: %d", r.Status)
	}
	if r := s.do("GET", "/api/analytics/risk?period=2w", tok, ""); r.Status != 400 || r.Error.Fields["period"] == "" {
		t.Fatalf("bad period: %+v", r)
	}

	t.Run("no data", func(t *testing.T) {
		tr := get("/api/analytics/trading")
		is("period", tr["period"], `"30d"`)
		is("totalTrades", tr["totalTrades"], "0")
		for _, k := range []string{"winRate", "totalPnL", "averageWin", "averageLoss", "profitFactor", "winLossRatio", "sharpeRatio", "maxDrawdown", "averageTradeSize"} {
			is(k, tr[k], "null")
		}
		for _, k := range []string{"dailyPnL", "tradeDistribution", "monthlyPerformance"} {
			is(k, tr[k], "[]")
		}
		p := get("/api/analytics/portfolio")
		is("holdings", p["holdings"], "[]")
		is("allocationHistory", p["allocationHistory"], "[]")
		for _, k := range []string{"beta", "volatility", "sharpeRatio", "diversificationRatio", "totalUnrealizedPnLPercent"} {
			is(k, p[k], "null")
		}
		rk := get("/api/analytics/risk?period=7d")
		var m map[string]json.RawMessage
		_ = json.Unmarshal(rk["metrics"], &m)
		for _, k := range []string{"var95", "var99", "expectedShortfall", "parametricVar95", "volatility", "beta", "sharpeRatio", "sortinoRatio", "calmarRatio"} {
			is("risk "+k, m[k], "null")
		}
		is("varHistory", rk["varHistory"], "[]")
		is("riskDecomposition", rk["riskDecomposition"], "[]")
		// Nothing held: the market events keep their frequency and cost nothing.
		var sa []struct {
			Impact      decimal.Decimal
			Probability *float64
		}
		_ = json.Unmarshal(rk["scenarioAnalysis"], &sa)
		if len(sa) != 3 || !sa[0].Impact.IsZero() || sa[0].Probability == nil {
			t.Errorf("scenarioAnalysis %s", rk["scenarioAnalysis"])
		}
	})

	buy := s.do("POST", "/api/trading/execute", tok, `{"symbol":"BTC-USD","action":"BUY","quantity":0.01}`)
	sell := s.do("POST", "/api/trading/execute", tok, `{"symbol":"BTC-USD","action":"SELL","quantity":0.004}`)
	if buy.Status != 201 || sell.Status != 201 {
		t.Fatalf("trades: %+v %+v", buy, sell)
	}
	var fills struct {
		Trades []struct {
			Side     string
			Quantity decimal.Decimal
			Price    decimal.Decimal
			Fee      decimal.Decimal
			Status   string
		}
	}
	s.into(s.do("GET", "/api/trading/history", tok, ""), &fills)
	volume, executed := decimal.Zero, 0
	var bought, sold struct{ qty, px, fee decimal.Decimal }
	for _, f := range fills.Trades {
		if f.Status != "executed" {
			continue // the protective stop the buy attached rests
		}
		executed++
		volume = volume.Add(f.Quantity.Mul(f.Price))
		if f.Side == "BUY" {
			bought.qty, bought.px, bought.fee = f.Quantity, f.Price, f.Fee
		} else {
			sold.qty, sold.px, sold.fee = f.Quantity, f.Price, f.Fee
		}
	}
	if executed != 2 {
		t.Fatalf("history %+v", fills)
	}
	// Average cost: the sell takes 0.4 of the buy's cost (notional plus fee).
	cost := bought.qty.Mul(bought.px).Add(bought.fee)
	costSold := cost.Mul(sold.qty).Div(bought.qty).Round(8)
	pnl := sold.qty.Mul(sold.px).Sub(sold.fee).Sub(costSold).Round(2)

	t.Run("trading", func(t *testing.T) {
		tr := get("/api/analytics/trading?period=1d&symbol=BTC-USD")
		// The sell closed part of the position: P&L was realized, but no
		// round trip has closed, so there is no trade to win or lose yet.
		is("totalTrades", tr["totalTrades"], "0")
		is("winRate", tr["winRate"], "null")
		is("totalPnL", tr["totalPnL"], `"`+pnl.String()+`"`)
		is("totalVolume", tr["totalVolume"], `"`+volume.Round(2).String()+`"`)
		is("averageTradeSize", tr["averageTradeSize"], `"`+volume.Round(2).Div(decimal.NewFromInt(2)).Round(2).String()+`"`)
		var daily []struct {
			PnL, Cumulative decimal.Decimal
		}
		_ = json.Unmarshal(tr["dailyPnL"], &daily)
		if len(daily) != 1 || !daily[0].PnL.Equal(pnl) || !daily[0].Cumulative.Equal(pnl) {
			t.Errorf("dailyPnL %s", tr["dailyPnL"])
		}
		other := get("/api/analytics/trading?symbol=ETH-USD")
		is("ETH trades", other["totalTrades"], "0")
	})

	t.Run("portfolio", func(t *testing.T) {
		p := get("/api/analytics/portfolio")
		var hs []struct {
			Symbol                              string
			Quantity, CurrentPrice, MarketValue decimal.Decimal
			CostBasis, UnrealizedPnL            decimal.Decimal
			Allocation                          *decimal.Decimal
		}
		_ = json.Unmarshal(p["holdings"], &hs)
		if len(hs) != 1 || hs[0].Symbol != "BTC-USD" || !hs[0].Quantity.Equal(decimal.RequireFromString("0.006")) {
			t.Fatalf("holdings %s", p["holdings"])
		}
		h := hs[0]
		if !h.CostBasis.Equal(cost.Sub(costSold).Round(2)) || !h.MarketValue.Equal(h.Quantity.Mul(h.CurrentPrice).Round(2)) ||
			h.UnrealizedPnL.Sub(h.MarketValue.Sub(h.CostBasis)).Abs().GreaterThan(decimal.RequireFromString("0.01")) || h.Allocation == nil {
			t.Errorf("holding %+v, cost %s", h, cost.Sub(costSold))
		}
		is("totalCost", p["totalCost"], `"`+h.CostBasis.String()+`"`)

		// Today's allocation: the 0.006 BTC left at today's close (the price now) and the cash, shares of their sum.
		var alloc []struct {
			Date       string
			TotalValue decimal.Decimal
			Assets     []struct {
				Asset                  string
				Quantity, Close, Value decimal.Decimal
				Allocation             *decimal.Decimal
			}
		}
		_ = json.Unmarshal(p["allocationHistory"], &alloc)
		if len(alloc) != 1 || len(alloc[0].Assets) != 2 {
			t.Fatalf("allocationHistory %s", p["allocationHistory"])
		}
		btc, cash := alloc[0].Assets[0], alloc[0].Assets[1]
		exact := btc.Quantity.Mul(btc.Close).Add(cash.Quantity)
		if btc.Asset != "BTC-USD" || !btc.Quantity.Equal(h.Quantity) || cash.Asset != "USD" || !alloc[0].TotalValue.Equal(exact.Round(2)) ||
			!btc.Allocation.Equal(btc.Quantity.Mul(btc.Close).Mul(decimal.NewFromInt(100)).Div(exact).Round(2)) ||
			!btc.Allocation.Add(*cash.Allocation).Sub(decimal.NewFromInt(100)).Abs().LessThanOrEqual(decimal.RequireFromString("0.01")) {
			t.Errorf("allocation %+v", alloc[0])
		}
		// Cash before the first fill, less both fills' effects (the buy pays notional and fee, the sell receives notional less fee).
		start := cash.Quantity.Add(bought.qty.Mul(bought.px).Add(bought.fee)).Sub(sold.qty.Mul(sold.px).Sub(sold.fee))
		if !start.Equal(decimal.NewFromInt(100000)) {
			t.Errorf("cash %s rewinds to %s, want the sandbox's 100000", cash.Quantity, start)
		}
	})

	t.Run("risk", func(t *testing.T) {
		rk := get("/api/analytics/risk")
		var st []struct {
			Scenario             string
			PortfolioImpact      decimal.Decimal
			Probability          *float64
			ProbabilityBasis     string
			Occurrences, Windows int
			HorizonDays          int
		}
		_ = json.Unmarshal(rk["stressTests"], &st)
		var p struct {
			Holdings []struct{ MarketValue decimal.Decimal }
		}
		s.into(s.do("GET", "/api/analytics/portfolio", tok, ""), &p)
		// The spec's four shocks, then the worst day and week of the shipped history for these holdings.
		if len(st) != 6 || !strings.HasPrefix(st[4].Scenario, "Worst day in the data (") ||
			!strings.HasPrefix(st[5].Scenario, "Worst week in the data (") || !st[4].PortfolioImpact.IsNegative() {
			t.Fatalf("stress tests %s", rk["stressTests"])
		}
		// Probabilities are frequencies in the shipped daily history (749 daily returns); the worst day counts itself.
		for i, x := range st {
			switch {
			case x.Windows == 0 || x.Occurrences == 0:
				if x.Probability != nil || x.ProbabilityBasis == "" {
					t.Errorf("stress %d: %+v", i, x)
				}
			case x.Probability == nil || *x.Probability != float64(x.Occurrences)/float64(x.Windows):
				t.Errorf("stress %d probability %+v", i, x)
			}
		}
		if st[4].Occurrences != 1 || st[4].Windows != 749 || st[4].HorizonDays != 1 || st[0].HorizonDays != 30 {
			t.Errorf("stress windows %s", rk["stressTests"])
		}
		var sa []struct {
			Scenario             string
			Impact               decimal.Decimal
			Probability          *float64
			Occurrences, Windows int
		}
		_ = json.Unmarshal(rk["scenarioAnalysis"], &sa)
		// BTC -10% in a day: the BTC holding's value x -10%, one day of the 749 in the shipped history.
		if len(sa) != 4 || sa[0].Occurrences != 1 || sa[0].Windows != 749 || sa[0].Impact.Sub(p.Holdings[0].MarketValue.Mul(decimal.RequireFromString("-0.1"))).Abs().GreaterThan(decimal.NewFromInt(2)) {
			t.Errorf("scenarioAnalysis %s", rk["scenarioAnalysis"])
		}
		// The price may tick between the two reads: the impact is -30% of a value a few cents apart at most.
		want := p.Holdings[0].MarketValue.Mul(decimal.RequireFromString("-0.3"))
		if st[0].PortfolioImpact.Sub(want).Abs().GreaterThan(decimal.NewFromInt(5)) {
			t.Errorf("crash impact %s, want about %s", st[0].PortfolioImpact, want)
		}
		var dec []struct{ Component string }
		_ = json.Unmarshal(rk["riskDecomposition"], &dec)
		if len(dec) > 1 {
			t.Errorf("decomposition %s", rk["riskDecomposition"])
		}
	})
}
