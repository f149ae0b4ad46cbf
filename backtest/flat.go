package backtest

import (
	"math"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/risk"
	"kestrel/strategy"
)

// refusedFlat settles, without the engine, a signal that certainly trades
// nothing while the account is flat (nothing held, nothing resting): a SELL
// (nothing to sell), or a BUY that passes every order check by a wide
// margin (computed in float) and is refused by the loss limits, which then
// depend only on the account. It books what act would book and reports
// true; false leaves the signal to act.
func (r *run) refusedFlat(sig strategy.Signal, t int, c domain.Candle) bool {
	f := r.fx
	if f.held != 0 && sig.Decision == strategy.Buy && r.atTarget(t) {
		r.rollDay(c)
		r.refuse(msgAtTarget)
		return true
	}
	if f.held != 0 || f.orders {
		return false
	}
	r.rollDay(c) // as act does first (once a day, so act repeats nothing)
	if sig.Decision == strategy.Sell {
		r.refuse(msgNoPosition)
		return true
	}
	if !r.orderChecksPass(t) {
		return false
	}
	msg := r.lossCheck()
	if msg == "" {
		// It trades: every check risk.Check makes of this order passes (the
		// order checks and the loss limits above; exposure below), so act
		// need not make them again.
		r.checksPass = f.consts.exposureOK
		return false
	}
	r.refuse(msg)
	return true
}

// orderChecksPass reports whether a flat account's BUY at candle t's open (its ask)
// certainly passes sizing and risk.Check's order checks (trade amount and
// count): the float figures are within 1e-15 of the exact ones, and every
// bound is kept by far more.
func (r *run) orderChecksPass(t int) bool {
	l, cfg, k := r.req.Policy.Limits, r.req.Config, &r.fx.consts
	if l.MaxDailyTrades > 0 && r.trades.N(r.now) >= l.MaxDailyTrades {
		return false
	}
	value, _ := float(r.fx.cash, r.fx.scale)
	eps := 1e-9 * (math.Abs(value) + 1)
	target := math.Min(value*cfg.MaxPositionSize*cfg.RiskMultiplier, value*k.maxPosition*0.995)
	notional := math.Min(target, k.maxTrade*0.995)
	if notional < k.minTrade+eps {
		return false
	}
	px := r.fx.open(t)
	if px < 0 {
		return false
	}
	ask := float64(px) / pow10f[r.fx.p]
	if r.req.HalfSpread.IsPositive() { // sized and valued at the ask, as act does
		if r.spread == nil {
			r.spread = newSpreadGrid(r.req.HalfSpread, r.priceStep())
		}
		if _, na, ok := r.spread.steps(px); ok && r.spread.k >= 0 && r.spread.k < len(pow10f) {
			ask = float64(na) / pow10f[r.spread.k]
		} else {
			_, a := r.bidAsk(r.candle(t).Open)
			ask = a.InexactFloat64()
		}
	}
	units := notional / (ask * k.slip) / k.step
	if units < 2 {
		return false
	}
	lo, hi := (units-1)*k.step*ask, units*k.step*ask // qty = floor(units) steps, valued at the ask
	return lo >= k.minTrade+eps && hi <= k.maxTrade-eps
}

// atTarget reports whether a BUY at candle t's open, with a position held,
// is certainly refused by sizing as already at its target size (computed
// in float, with a margin far beyond its error), and whether nothing can
// fill at that open first (the open is inside every resting order's
// trigger). Then act would only book the refusal.
func (r *run) atTarget(t int) bool {
	f, cfg, k := r.fx, r.req.Config, &r.fx.consts
	open := f.open(t)
	if open < 0 || open <= f.fall || open >= f.rise {
		return false
	}
	cash, ok := float(f.cash, f.scale)
	if !ok {
		return false
	}
	px := float64(open) / pow10f[f.p]
	held := float64(f.held) / pow10f[heldScale] * px
	value := cash + held
	target := math.Min(value*cfg.MaxPositionSize*cfg.RiskMultiplier, value*k.maxPosition*0.995)
	notional := math.Min(target-held, k.maxTrade*0.995)
	eps := 1e-9 * (math.Abs(value) + math.Abs(held) + 1)
	return notional < k.minTrade-eps
}

// consts are a run's limits as floats, for orderChecksPass and lossesClear.
type consts struct {
	maxPosition, maxTrade, minTrade, step, slip, dailyLoss, maxDrawdown float64
	// exposureOK: a flat account's BUY sized by strategy.BuyQuantity
	// certainly passes risk.Check's exposure checks. Sized at most
	// 0.995 x max_position_size of the value (paid is at least the ask:
	// no negative slippage), it is within the maximum position size, and
	// within the leverage cap when 0.996 x max_position_size is.
	exposureOK bool
}

func newConsts(req Request) consts {
	l := req.Policy.Limits
	k := consts{maxPosition: l.MaxPositionSize.InexactFloat64(), maxTrade: l.MaxTradeAmount.InexactFloat64(), minTrade: l.MinTradeAmount.InexactFloat64(),
		step: 1e-8, slip: 1 + req.SlippageBps.InexactFloat64()/1e4, dailyLoss: l.DailyLossLimit.InexactFloat64(), maxDrawdown: l.MaxDrawdown.InexactFloat64()}
	if s := req.Product.SizeIncrement; s.IsPositive() {
		k.step = s.InexactFloat64()
	}
	lev := decimal.Min(l.MaxLeverage, risk.SpotLeverageCap)
	k.exposureOK = !req.SlippageBps.IsNegative() && l.MaxPositionSize.IsPositive() &&
		(!lev.IsPositive() || l.MaxPositionSize.Mul(decimal.RequireFromString("0.996")).LessThan(lev))
	return k
}

// lossCheck is risk.CheckLosses for a flat account, kept for the last
// account state (a run stuck below its drawdown limit asks it over and
// over): the refusal's message, or "" when the limits let the order through.
func (r *run) lossCheck() string {
	f := r.fx
	key := lossKey{cash: f.cash, peak: f.peak, dayStart: f.dayStart}
	if f.dayStartOK && f.lossMemo && f.lossKey == key {
		return f.lossMsg
	}
	if f.dayStartOK && f.lossesClear() {
		return "" // the limits let it through, by far
	}
	value := r.balance(domain.Quote(r.req.Symbol)).Total() // flat: equity is cash
	err := risk.CheckLosses(r.req.Policy.Limits, risk.Snapshot{PortfolioValue: value, StartOfDayValue: r.dayStart, PeakValue: r.peakValue()})
	msg := ""
	if err != nil {
		msg = domain.ErrorMessage(err)
	}
	f.lossKey, f.lossMsg, f.lossMemo = key, msg, true
	return msg
}

// lossesClear reports whether risk.CheckLosses certainly lets a flat
// account's order through: the day's loss and the drawdown (the decimal
// path's quotients, rounded to 16 places) are each below their limit by
// far more than the float error here (about 1e-15 of the amounts). A
// ratio near its limit answers false, and the decimal check decides.
func (f *fixed) lossesClear() bool {
	k := &f.consts
	cash := f128(f.cash)
	for _, x := range [...]struct {
		base  u128
		limit float64
	}{{f.dayStart, k.dailyLoss}, {f.peak, k.maxDrawdown}} {
		if x.base == (u128{}) {
			continue // not positive: CheckLosses skips it
		}
		b := f128(x.base)
		ratio := (b - cash) / b
		eps := 1e-12 * (b + cash) / b
		if !(ratio+eps < x.limit-1e-12*(math.Abs(x.limit)+1)) {
			return false
		}
	}
	return true
}

// f128 is x as the nearest float64 or next to it (within 3e-16 of x).
func f128(x u128) float64 { return float64(x.hi)*0x1p64 + float64(x.lo) }

type lossKey struct{ cash, peak, dayStart u128 }

// refuse counts a refusal of the fast path's: a few messages over and
// over, counted without hashing each (r.refused takes them at the end).
func (r *run) refuse(msg string) {
	t := &r.tally
	for i := range t.msg {
		if t.n[i] > 0 && t.msg[i] == msg {
			t.n[i]++
			return
		}
	}
	for i := range t.msg {
		if t.n[i] == 0 {
			t.msg[i], t.n[i] = msg, 1
			return
		}
	}
	r.refused[msg]++
}

type tally struct {
	msg [4]string
	n   [4]int
}

// refusals is r.refused with the tally added.
func (r *run) refusals() map[string]int {
	t := &r.tally
	for i := range t.msg {
		if t.n[i] > 0 {
			r.refused[t.msg[i]] += t.n[i]
		}
	}
	r.tally = tally{}
	return r.refused
}
