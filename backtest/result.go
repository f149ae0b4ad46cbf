package backtest

import (
	"math/bits"
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
	StrategyName  string    `json:"strategy_name"`
	Symbol        string    `json:"symbol"`
	StartDate     time.Time `json:"start_date"`
	EndDate       time.Time `json:"end_date"`
	TotalTrades   int       `json:"total_trades"`
	WinningTrades int       `json:"winning_trades"` // net P&L above zero
	LosingTrades  int       `json:"losing_trades"`  // net P&L below zero
	// BreakevenTrades closed at exactly zero net P&L: neither a win nor a loss.
	BreakevenTrades int     `json:"breakeven_trades"`
	TotalReturn     float64 `json:"total_return"` // fraction
	WinRate         float64 `json:"win_rate"`     // fraction of closed trades with net P&L > 0
	MaxDrawdown     float64 `json:"max_drawdown"` // fraction of the equity peak
	SharpeRatio     float64 `json:"sharpe_ratio"`
	SortinoRatio    float64 `json:"sortino_ratio"`
	// CalmarRatio and CAGR are null for a run shorter than MinAnnualised
	// (NotAnnualised says why): a week's return raised to a year's power
	// is not a rate anyone earned.
	CalmarRatio   *float64        `json:"calmar_ratio"`
	CAGR          *float64        `json:"cagr"`
	NotAnnualised string          `json:"not_annualised,omitempty"`
	ProfitFactor  *float64        `json:"profit_factor"`  // gross profit / gross loss (null without a loss)
	WinLossRatio  *float64        `json:"win_loss_ratio"` // winning trades / losing trades (null without a loss)
	Expectancy    decimal.Decimal `json:"expectancy"`     // mean net P&L per trade
	AverageWin    decimal.Decimal `json:"average_win"`
	AverageLoss   decimal.Decimal `json:"average_loss"`
	ExposureTime  float64         `json:"exposure_time"` // fraction of candles closed holding a position
	FeesPaid      decimal.Decimal `json:"fees_paid"`
	// BuyAndHold buys at the first open and sells at the last close paying
	// the run's half-spread, slippage and taker fee on both, as a trade
	// would (each price within its candle, as every fill).
	BuyAndHold    float64         `json:"buy_and_hold_return"`
	InitialEquity decimal.Decimal `json:"initial_equity"`
	FinalEquity   decimal.Decimal `json:"final_equity"`
	Signals       Signals         `json:"signals"`
	Candles       int             `json:"candles"`
	Status        string          `json:"status"`
	EquityCurve   []Point         `json:"equity_curve"`
	Trades        []Trade         `json:"trades"`
	Fills         []Fill          `json:"fills"`

	// Halted is set when the maximum drawdown limit stopped trading for
	// good (see Halted).
	Halted *Halted `json:"halted,omitempty"`
}

func (r *run) result() Result {
	first := *r.candle(r.req.Warmup) // a copy: with bars the run holds one candle at a time
	last := *r.candle(r.n - 1)
	n := r.n - r.req.Warmup
	w := r.spacing()
	res := Result{StrategyName: r.req.Config.Name, Symbol: r.req.Symbol, StartDate: first.Time, EndDate: last.Time.Add(w),
		InitialEquity: r.req.Capital, FinalEquity: r.equity(last.Close).Round(8), Signals: r.signalCount(),
		Candles: n, Status: "completed", EquityCurve: r.curve, Fills: r.fills}
	if res.Fills == nil {
		res.Fills = []Fill{}
	}
	var feesPaid decimal.Decimal
	var fixed bool
	if res.Trades, feesPaid, fixed = roundTripsFixed(r.fills, r.ints); !fixed {
		res.Trades = roundTrips(r.fills)
		for _, f := range r.fills {
			feesPaid = feesPaid.Add(f.Fee)
		}
	}
	res.FeesPaid = feesPaid
	res.TotalReturn = res.FinalEquity.Div(res.InitialEquity).Sub(decimal.NewFromInt(1)).InexactFloat64()
	var rets []float64
	res.MaxDrawdown, rets = r.curveStats()
	perYear := float64(365*24*time.Hour) / float64(w) // 24/7 markets: every candle of the year
	res.SharpeRatio, res.SortinoRatio = analytics.Sharpe(rets, perYear), analytics.Sortino(rets, perYear)
	res.CAGR, res.CalmarRatio, res.NotAnnualised = annualised(res.InitialEquity, res.FinalEquity, res.EndDate.Sub(res.StartDate), res.MaxDrawdown)
	res.ExposureTime = float64(r.inPos) / float64(n)
	res.BuyAndHold = buyAndHold(first, last, r.req.HalfSpread, r.req.TakerFee, r.req.SlippageBps)
	var gross, loss, sumWin, sumLoss decimal.Decimal
	for _, t := range res.Trades {
		switch {
		case t.PnL.IsPositive():
			res.WinningTrades++
			gross, sumWin = domain.Plus(gross, t.PnL), domain.Plus(sumWin, t.PnL)
		case t.PnL.IsNegative():
			res.LosingTrades++
			loss, sumLoss = domain.Plus(loss, domain.Neg(t.PnL)), domain.Plus(sumLoss, t.PnL)
		default:
			res.BreakevenTrades++ // neither a win nor a loss
		}
		res.Expectancy = domain.Plus(res.Expectancy, t.PnL)
	}
	res.TotalTrades = len(res.Trades)
	res.Halted = halted(&res, r.req.Policy.Limits.MaxDrawdown)
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
		wl := float64(res.WinningTrades) / float64(res.LosingTrades)
		pf := gross.Div(loss).InexactFloat64()
		res.WinLossRatio, res.ProfitFactor = &wl, &pf
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
	sorted := fills // a run books its fills in time order; sort a copy otherwise
	if !sort.SliceIsSorted(fills, func(i, j int) bool { return fills[i].Time.Before(fills[j].Time) }) {
		sorted = append([]Fill(nil), fills...)
		sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Time.Before(sorted[j].Time) })
	}
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

// roundTripsFixed is roundTrips in 64-bit integers, with the fees paid
// over all the fills: the same values (quantities and fees at 8 decimals,
// notionals at 8 + the prices' decimals, each average price the decimal
// quotient rounded half away from zero to 16 places and then to 8). ok is
// false when a figure does not fit, and roundTrips decides.
func roundTripsFixed(fills []Fill, ints []fillInts) (trades []Trade, fees decimal.Decimal, ok bool) {
	if len(ints) != len(fills) {
		ints = make([]fillInts, len(fills))
		for i := range fills {
			ints[i] = intsOf(&fills[i])
		}
	}
	for i := 1; i < len(fills); i++ {
		if fills[i].Time.Before(fills[i-1].Time) {
			return nil, fees, false // roundTrips sorts them
		}
	}
	// The prices' decimals: 8 less the trailing zeros all of them share.
	g := 8
	for i := range ints {
		p := ints[i].p
		if p < 0 || ints[i].q < 0 || ints[i].fee < 0 {
			return nil, fees, false
		}
		for g > 0 && p%pow10i[g] != 0 {
			g--
		}
	}
	scale := int32(16 - g) // a notional's decimals
	feeMul := pow10i[8-g]  // a fee (8 decimals) at the notionals' scale
	trades = []Trade{}
	var cur *Trade
	var held, inQty, inCost, outQty, outValue, pnl, fee, paid int64
	for i := range fills {
		f := &fills[i]
		q, p, fe := ints[i].q, ints[i].p, ints[i].fee
		if paid, ok = add64(paid, fe); !ok {
			return nil, fees, false
		}
		if cur == nil {
			if f.Side != domain.Buy {
				continue
			}
			cur = &Trade{EntryTime: f.Time}
			inQty, inCost, outQty, outValue, pnl, fee = 0, 0, 0, 0, 0, 0
		}
		n, ok3 := mul64(q, p/pow10i[g])
		feeN, ok4 := mul64(fe, feeMul)
		if fee, ok = add64(fee, fe); !ok || !ok3 || !ok4 {
			return nil, fees, false
		}
		if f.Side == domain.Buy {
			var ok5, ok6, ok7, ok8 bool
			held, ok5 = add64(held, q)
			inQty, ok6 = add64(inQty, q)
			inCost, ok7 = add64(inCost, n)
			pnl, ok8 = add64(pnl, -n)
			if pnl, ok = add64(pnl, -feeN); !ok || !ok5 || !ok6 || !ok7 || !ok8 {
				return nil, fees, false
			}
			continue
		}
		var ok5, ok6, ok7, ok8 bool
		held, ok5 = add64(held, -q)
		outQty, ok6 = add64(outQty, q)
		outValue, ok7 = add64(outValue, n)
		pnl, ok8 = add64(pnl, n)
		if pnl, ok = add64(pnl, -feeN); !ok || !ok5 || !ok6 || !ok7 || !ok8 {
			return nil, fees, false
		}
		if held <= 0 {
			in, ok1 := avgPrice(inCost, inQty, g)
			out, ok2 := avgPrice(outValue, outQty, g)
			if !ok1 || !ok2 {
				return nil, fees, false
			}
			cur.ExitTime, cur.ExitReason, cur.Quantity = f.Time, f.Reason, decimal.New(inQty, -8)
			cur.EntryPrice, cur.ExitPrice = decimal.New(in, -8), decimal.New(out, -8)
			cur.Fees, cur.PnL = decimal.New(fee, -8), decimal.New(pnl, -scale)
			trades = append(trades, *cur)
			cur, held = nil, 0
		}
	}
	return trades, decimal.New(paid, -8), true
}

// fillInts are a fill's quantity, price and fee x 10^8 (-1: not of that
// shape), read as it is booked, while its decimals are at hand.
type fillInts struct{ q, p, fee int64 }

func intsOf(f *Fill) fillInts {
	at := func(d decimal.Decimal) int64 {
		if x, ok := fixedAt(d, 8); ok {
			return x
		}
		return -1
	}
	return fillInts{q: at(f.Quantity), p: at(f.Price), fee: at(f.Fee)}
}

var pow10i = [...]int64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8}

// avgPrice is cost / qty (cost at 16 - g decimals, qty at 8) as
// cost.Div(qty).Round(8) computes it, x 10^8: rounded half away from zero
// to 16 places, then to 8.
func avgPrice(cost, qty int64, g int) (int64, bool) {
	if cost < 0 || qty <= 0 {
		return 0, false
	}
	// q16 = round(cost x 10^(8+g) / qty), in 128 bits
	hi, lo := bits.Mul64(uint64(cost), pow10u[8+g])
	d := uint64(qty)
	qhi, r := hi/d, hi%d
	qlo, rem := bits.Div64(r, lo, d)
	if rem >= d-rem {
		var c uint64
		qlo, c = bits.Add64(qlo, 1, 0)
		qhi += c
	}
	// then to 8 places: q16 / 10^8, half up
	const e8 = 1e8
	if qhi >= e8 {
		return 0, false
	}
	q8, r8 := bits.Div64(qhi, qlo, e8)
	if r8 >= e8-r8 {
		q8++
	}
	if q8 > 1<<62 {
		return 0, false
	}
	return int64(q8), true
}

// add64 is a + b, ok false on overflow.
func add64(a, b int64) (int64, bool) {
	s := a + b
	return s, (s > a) == (b > 0)
}

// mul64 is a x b for a, b >= 0, ok false beyond 2^62.
func mul64(a, b int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	return int64(lo), hi == 0 && lo <= 1<<62
}
