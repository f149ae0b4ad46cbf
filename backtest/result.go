package backtest

import (
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/analytics"
	"kestrel/domain"
)

// Trade is one closed round trip: from flat to flat.
type Trade struct {
	EntryTime  time.Time       `json:"entry_time"`
	ExitTime   time.Time       `json:"exit_time"`
	EntryPrice decimal.Decimal `json:"entry_price"` // average over the entry fills
	ExitPrice  decimal.Decimal `json:"exit_price"`  // average over the exit fills
	Quantity   decimal.Decimal `json:"quantity"`
	Fees       decimal.Decimal `json:"fees"`
	PnL        decimal.Decimal `json:"pnl"` // net of both fees
	ExitReason string          `json:"exit_reason"`
}

// Result is the report of one run (the spec's fields and more; see
// docs/ANALYTICS.md for the definitions).
type Result struct {
	StrategyName  string          `json:"strategy_name"`
	Symbol        string          `json:"symbol"`
	StartDate     time.Time       `json:"start_date"`
	EndDate       time.Time       `json:"end_date"`
	TotalTrades   int             `json:"total_trades"`
	WinningTrades int             `json:"winning_trades"`
	LosingTrades  int             `json:"losing_trades"`
	TotalReturn   float64         `json:"total_return"` // fraction
	WinRate       float64         `json:"win_rate"`     // fraction of closed trades with net P&L > 0
	MaxDrawdown   float64         `json:"max_drawdown"` // fraction of the equity peak
	SharpeRatio   float64         `json:"sharpe_ratio"`
	SortinoRatio  float64         `json:"sortino_ratio"`
	CalmarRatio   float64         `json:"calmar_ratio"`
	CAGR          float64         `json:"cagr"`
	ProfitFactor  float64         `json:"profit_factor"`  // gross profit / gross loss (0 without a loss)
	WinLossRatio  float64         `json:"win_loss_ratio"` // winning trades / losing trades
	Expectancy    decimal.Decimal `json:"expectancy"`     // mean net P&L per trade
	AverageWin    decimal.Decimal `json:"average_win"`
	AverageLoss   decimal.Decimal `json:"average_loss"`
	ExposureTime  float64         `json:"exposure_time"` // fraction of candles closed holding a position
	FeesPaid      decimal.Decimal `json:"fees_paid"`
	BuyAndHold    float64         `json:"buy_and_hold_return"` // close of the last candle / open of the first - 1
	InitialEquity decimal.Decimal `json:"initial_equity"`
	FinalEquity   decimal.Decimal `json:"final_equity"`
	Signals       int             `json:"signals"`
	NotExecuted   map[string]int  `json:"not_executed"` // why signals did not trade, with counts
	Candles       int             `json:"candles"`
	Status        string          `json:"status"`
	EquityCurve   []Point         `json:"equity_curve"`
	Trades        []Trade         `json:"trades"`
	Fills         []Fill          `json:"fills"`
}

func (r *run) result() Result {
	cs := r.req.Candles[r.req.Warmup:]
	first, last := cs[0], cs[len(cs)-1]
	w := width(r.req.Candles)
	res := Result{StrategyName: r.req.Config.Name, Symbol: r.req.Symbol, StartDate: first.Time, EndDate: last.Time.Add(w),
		InitialEquity: r.req.Capital, FinalEquity: r.equity(last.Close).Round(8), Signals: r.signals, NotExecuted: r.refusals(),
		Candles: len(cs), Status: "completed", EquityCurve: r.curve, Fills: r.fills}
	if res.Fills == nil {
		res.Fills = []Fill{}
	}
	res.Trades = roundTrips(r.fills)
	res.TotalReturn = res.FinalEquity.Div(res.InitialEquity).Sub(decimal.NewFromInt(1)).InexactFloat64()
	var rets []float64
	res.MaxDrawdown, rets = r.curveStats()
	perYear := float64(365*24*time.Hour) / float64(w) // 24/7 markets: every candle of the year
	res.SharpeRatio, res.SortinoRatio = analytics.Sharpe(rets, perYear), analytics.Sortino(rets, perYear)
	years := float64(res.EndDate.Sub(res.StartDate)) / float64(365*24*time.Hour)
	res.CAGR = analytics.CAGR(res.InitialEquity, res.FinalEquity, years)
	res.CalmarRatio = analytics.Calmar(res.CAGR, res.MaxDrawdown)
	res.ExposureTime = float64(r.inPos) / float64(len(cs))
	if first.Open.IsPositive() {
		res.BuyAndHold = last.Close.Div(first.Open).Sub(decimal.NewFromInt(1)).InexactFloat64()
	}
	var gross, loss, sumWin, sumLoss decimal.Decimal
	for _, f := range r.fills {
		res.FeesPaid = res.FeesPaid.Add(f.Fee)
	}
	for _, t := range res.Trades {
		switch {
		case t.PnL.IsPositive():
			res.WinningTrades++
			gross, sumWin = gross.Add(t.PnL), sumWin.Add(t.PnL)
		default:
			res.LosingTrades++
			loss, sumLoss = loss.Add(t.PnL.Neg()), sumLoss.Add(t.PnL)
		}
		res.Expectancy = res.Expectancy.Add(t.PnL)
	}
	res.TotalTrades = len(res.Trades)
	if res.TotalTrades > 0 {
		n := decimal.NewFromInt(int64(res.TotalTrades))
		res.Expectancy = res.Expectancy.Div(n).Round(8)
		res.WinRate = float64(res.WinningTrades) / float64(res.TotalTrades)
	}
	if res.WinningTrades > 0 {
		res.AverageWin = sumWin.Div(decimal.NewFromInt(int64(res.WinningTrades))).Round(8)
	}
	if res.LosingTrades > 0 {
		res.AverageLoss = sumLoss.Div(decimal.NewFromInt(int64(res.LosingTrades))).Round(8)
		res.WinLossRatio = float64(res.WinningTrades) / float64(res.LosingTrades)
	}
	if loss.IsPositive() {
		res.ProfitFactor = gross.Div(loss).InexactFloat64()
	}
	return res
}

// curveStats are the maximum drawdown and the period returns of the equity
// series (the capital, then the curve), as analytics computes them; in
// integer cents when the fast path kept them.
func (r *run) curveStats() (float64, []float64) {
	if capital, ok := centsOf(r.req.Capital); ok && r.fastCurve {
		return centStats(capital, r.curve)
	}
	equities := make([]decimal.Decimal, 0, len(r.curve)+1)
	equities = append(equities, r.req.Capital)
	for _, p := range r.curve {
		equities = append(equities, p.Equity.Decimal())
	}
	return analytics.MaxDrawdown(equities).InexactFloat64(), analytics.Returns(equities)
}

// roundTrips groups fills into trades from flat to flat.
func roundTrips(fills []Fill) []Trade {
	out := []Trade{}
	var cur *Trade
	var held, inQty, inCost, outQty, outValue decimal.Decimal
	sorted := append([]Fill(nil), fills...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Time.Before(sorted[j].Time) })
	for _, f := range sorted {
		if cur == nil {
			if f.Side != domain.Buy {
				continue
			}
			cur = &Trade{EntryTime: f.Time}
			inQty, inCost, outQty, outValue = decimal.Zero, decimal.Zero, decimal.Zero, decimal.Zero
		}
		n := f.Quantity.Mul(f.Price)
		cur.Fees = cur.Fees.Add(f.Fee)
		if f.Side == domain.Buy {
			held, inQty, inCost = held.Add(f.Quantity), inQty.Add(f.Quantity), inCost.Add(n)
			cur.PnL = cur.PnL.Sub(n).Sub(f.Fee)
			continue
		}
		held, outQty, outValue = held.Sub(f.Quantity), outQty.Add(f.Quantity), outValue.Add(n)
		cur.PnL = cur.PnL.Add(n).Sub(f.Fee)
		if !held.IsPositive() {
			cur.ExitTime, cur.ExitReason, cur.Quantity = f.Time, f.Reason, inQty
			cur.EntryPrice, cur.ExitPrice = inCost.Div(inQty).Round(8), outValue.Div(outQty).Round(8)
			out = append(out, *cur)
			cur, held = nil, decimal.Zero
		}
	}
	return out
}
