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
		is("totalTrades", tr["totalTrades"], "1")
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
		if pnl.IsPositive() {
			is("winRate", tr["winRate"], "100")
		} else if pnl.IsNegative() {
			is("winRate", tr["winRate"], "0")
			is("averageLoss", tr["averageLoss"], `"`+pnl.String()+`"`)
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
	})

	t.Run("risk", func(t *testing.T) {
		rk := get("/api/analytics/risk")
		var st []struct {
			Scenario        string
			PortfolioImpact decimal.Decimal
			Probability     *float64
		}
		_ = json.Unmarshal(rk["stressTests"], &st)
		var p struct {
			Holdings []struct{ MarketValue decimal.Decimal }
		}
		s.into(s.do("GET", "/api/analytics/portfolio", tok, ""), &p)
		// The spec's four shocks, then the worst day and week of the shipped history for these holdings.
		if len(st) != 6 || st[0].Probability != nil || !strings.HasPrefix(st[4].Scenario, "Worst day in the data (") ||
			!strings.HasPrefix(st[5].Scenario, "Worst week in the data (") || !st[4].PortfolioImpact.IsNegative() {
			t.Fatalf("stress tests %s", rk["stressTests"])
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
