package batch

import (
	"context"
	"errors"
	"math"
	"math/bits"

	"github.com/shopspring/decimal"

	"kestrel/backtest"
	"kestrel/domain"
	"kestrel/risk"
	"kestrel/strategy"
	"kestrel/trading"
)

// Trial is one request's outcome: which engine ran it, its fills and the
// final equity (backtest.Result's, to the last digit). Result is the event
// engine's whole result when it ran the trial.
type Trial struct {
	Engine      string
	Why         string // why the event engine ran it ("" when batched)
	FinalEquity decimal.Decimal
	Result      *backtest.Result
	// the batch's fills, in integers until asked for
	raw   []rawFill
	b     *batch
	times []domain.Candle
}

// rawFill is a batched fill: at candle t, q x 10^-8 at px steps, the fee
// x 10^-8.
type rawFill struct {
	t          int32
	side       domain.Side
	reason     uint8 // reasons[reason]
	q, px, fee int64
}

// Fill reasons, as the event engine names them.
const (
	rSignal uint8 = iota
	rStop
	rEnd
)

var reasons = [...]string{rSignal: "signal", rStop: "stop_loss", rEnd: "end_of_data"}

// Len is the number of fills.
func (t Trial) Len() int {
	if t.Result != nil {
		return len(t.Result.Fills)
	}
	return len(t.raw)
}

// Fills are the trial's fills as the event engine reports them.
func (t Trial) Fills() []backtest.Fill {
	if t.Result != nil {
		return t.Result.Fills
	}
	out := make([]backtest.Fill, len(t.raw))
	p := t.b.req.Product.PriceIncrement
	for i, f := range t.raw {
		out[i] = backtest.Fill{Side: f.side, Time: t.times[f.t].Time, Price: decimal.New(f.px*p.CoefficientInt64(), p.Exponent()),
			Quantity: decimal.New(f.q, -8), Fee: decimal.New(f.fee, -8), Reason: reasons[f.reason]}
	}
	return out
}

// Run runs every request on one goroutine: the accepted ones in batches,
// one per candle slice and warm-up (the trials of a sweep whose warm-ups
// agree read the same candles), the others one by one by backtest.Run. The
// trials of a batch share its indicator series; a request whose symbol,
// product, capital, fees or half-spread differ from its batch's first
// runs on the event engine.
func Run(ctx context.Context, reqs []backtest.Request) ([]Trial, error) {
	out := make([]Trial, len(reqs))
	batches := map[key]*batch{}
	var idx []int
	var bs []*batch
	for i, req := range reqs {
		ok, why := Accepts(req)
		var b *batch
		if ok {
			k := key{&req.Candles[0], len(req.Candles), req.Warmup}
			if b = batches[k]; b == nil {
				var err error
				if b, err = newBatch(req); err != nil {
					ok, why = false, err.Error()
				} else {
					batches[k] = b
				}
			}
		}
		if ok && !b.same(req) {
			ok, why = false, "market settings differ from the batch's"
		}
		if ok {
			idx, bs = append(idx, i), append(bs, b)
			continue
		}
		res, err := backtest.Run(ctx, req)
		if err != nil {
			return nil, err
		}
		out[i] = Trial{Engine: Event, Why: why, FinalEquity: res.FinalEquity, Result: &res}
	}
	for j, i := range idx {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t, ok := bs[j].trial(reqs[i])
		if !ok { // a figure outside the fixed point (see account)
			res, err := backtest.Run(ctx, reqs[i])
			if err != nil {
				return nil, err
			}
			t = Trial{Engine: Event, Why: "a figure outside the fixed point", FinalEquity: res.FinalEquity, Result: &res}
		}
		out[i] = t
	}
	return out, nil
}

// key names a batch: the trials over the same candles (the same slice),
// with the same warm-up.
type key struct {
	first  *domain.Candle
	n      int
	warmup int
}

// batch is what the accepted trials share: the candles in fixed point, the
// market's grid and quotes, and the indicator series.
type batch struct {
	req     backtest.Request // the first accepted request (its market settings)
	n       int
	ps      int   // the price grid's decimals
	d       int64 // 10^(8-ps): one step at 10^-8
	open    []int64
	low     []int64 // in steps
	high    []int64 // in steps
	close   []int64
	openBid []int64 // the open's bid and ask (uncapped), in steps
	openAsk []int64
	half    uint64 // the half-spread x 10^hs
	hs      int
	rate    uint64 // the taker fee x 10^-rateK
	rateK   int
	scale   int   // cash's decimals: 8 + ps
	capital int64 // at scale
	s       *series
	// the last trial's fills (the next one's first guess)
	lastFills int
}

var errShape = errors.New("candles not on the product's price grid, or not in time order")

func newBatch(req backtest.Request) (*batch, error) {
	cs := req.Candles
	n := len(cs)
	if n <= req.Warmup+1 || req.Warmup < 1 {
		return nil, errors.New("not enough candles")
	}
	ps, _ := gridDecimals(req.Product.PriceIncrement)
	b := &batch{req: req, n: n, ps: ps, d: int64(pow10[8-ps]), scale: 8 + ps,
		open: make([]int64, n), low: make([]int64, n), high: make([]int64, n), close: make([]int64, n), openBid: make([]int64, n), openAsk: make([]int64, n),
		rate: uint64(req.TakerFee.CoefficientInt64()), rateK: -int(req.TakerFee.Exponent())}
	if h := req.HalfSpread; h.IsPositive() { // of the shape Accepts takes
		b.half, b.hs = uint64(h.CoefficientInt64()), int(-h.Exponent())
	}
	b.capital, _ = at(req.Capital, b.scale)
	closes := make([]float64, n)
	for i := range cs {
		x := &cs[i]
		if i > 0 && !x.Time.After(cs[i-1].Time) {
			return nil, errShape
		}
		var vs [4]int64
		for j, p := range [...]decimal.Decimal{x.Open, x.High, x.Low, x.Close} {
			v, ok := at(p, 8)
			if !ok || v <= 0 || v%b.d != 0 {
				return nil, errShape
			}
			vs[j] = v
		}
		o, h, l, cl := vs[0], vs[1], vs[2], vs[3]
		if l > min(o, cl) || h < max(o, cl) {
			return nil, errShape
		}
		b.open[i], b.high[i], b.low[i], b.close[i] = o, h/b.d, l/b.d, cl
		bid, ask, ok := b.bidAsk(o)
		if !ok {
			return nil, errShape
		}
		b.openBid[i], b.openAsk[i] = bid, ask
		closes[i] = strategy.Float(x.Close)
	}
	b.s = newSeries(closes)
	return b, nil
}

// same reports whether req runs on the batch's candles and market.
func (b *batch) same(req backtest.Request) bool {
	r := b.req
	return req.Symbol == r.Symbol &&
		sameProduct(req.Product, r.Product) && req.Capital.Equal(r.Capital) && req.TakerFee.Equal(r.TakerFee) && req.HalfSpread.Equal(r.HalfSpread) &&
		req.Capital.Exponent() == r.Capital.Exponent()
}

var pow10f = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18}

var pow10 = func() (p [19]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return
}()

// at is d >= 0 as an integer x 10^-scale, if it is one that fits in 62 bits.
func at(d decimal.Decimal, scale int) (int64, bool) {
	if d.Sign() < 0 || d.NumDigits() > 18 {
		return 0, false
	}
	c, e := d.CoefficientInt64(), int(d.Exponent())
	for ; e < -scale; e++ {
		if c%10 != 0 {
			return 0, false
		}
		c /= 10
	}
	for ; e > -scale; e-- {
		if c > (1<<62)/10 {
			return 0, false
		}
		c *= 10
	}
	return c, true
}

// bidAsk is replay.BidAsk of a price p x 10^-8 on the grid, in steps: the
// price less (plus) the half-spread, floored (ceiled) to the grid. The
// quotient has at most 8 + hs - ps <= 16 decimals, which decimal.Div
// keeps exactly, so integers give the same steps.
func (b *batch) bidAsk(p int64) (bid, ask int64, ok bool) {
	if b.half == 0 {
		return p / b.d, (p + b.d - 1) / b.d, true
	}
	ph, pl := bits.Mul64(uint64(p), pow10[b.hs])
	hh, hl := bits.Mul64(uint64(p), b.half)
	lo, c := bits.Sub64(pl, hl, 0)
	hi, _ := bits.Sub64(ph, hh, c)
	k := 8 + b.hs - b.ps
	if k >= len(pow10) {
		return 0, 0, false
	}
	div := pow10[k]
	if hi >= div {
		return 0, 0, false
	}
	nb, _ := bits.Div64(hi, lo, div)
	lo, c = bits.Add64(pl, hl, 0)
	hi, _ = bits.Add64(ph, hh, c)
	if hi >= div {
		return 0, 0, false
	}
	na, rem := bits.Div64(hi, lo, div)
	if rem != 0 {
		na++
	}
	if na >= 1<<62 {
		return 0, 0, false
	}
	return int64(nb), int64(na), true
}

// fee is the backtest ledger's fixed-point fee at the batch's price step
// and taker rate.
func (b *batch) fee(q, px int64) (notional, fee int64, ok bool) {
	return backtest.FixedFee(q, px, b.ps, b.rate, b.rateK)
}

// stop is a resting protective stop.
type stop struct {
	px int64 // its stop price in steps
	q  int64 // quantity x 10^-8
}

// account is one trial's state: cash at 8 + ps decimals, the base held at
// 8, its resting stops (in the order placed).
type account struct {
	b     *batch
	req   *backtest.Request
	cash  int64
	base  int64
	stops []stop
	top   int64 // the highest stop price in steps (-1: none)
	fills []rawFill
	bad   bool // a figure did not fit (the trial then runs on the event engine)
	// the order checks and sizing
	sizing strategy.Sizing
	prot   trading.Protection
	pct    bool // a stop-loss is placed
	k      consts
	// 1 - the stop-loss percent as c / d (belowOK: of that shape)
	belowC, belowD uint64
	belowOK        bool
	minQ           int64 // the product's minimum size x 10^8 (rounded up)
}

// consts are the sizing's and the order checks' figures for buy's float
// screening (ok false: every BUY is worked out in decimals).
type consts struct {
	ok                                  bool
	share, capShare, maxTrade, minTrade float64 // strategy.Sizing's
	step, stepPx                        float64 // the size step and the price step
	stepQ                               uint64  // the size step x 10^8
	stepCoef                            int64
	stepExp                             int32
	minAmt, maxAmt                      int64   // the trade amount limits at 8 + ps decimals (-1: not of that shape)
	maxPos, lev                         float64 // the position share and leverage limits (-1: none)
}

func newConsts(b *batch, req *backtest.Request, sz strategy.Sizing) consts {
	share, capShare, maxTrade, minTrade := sz.Constants()
	l := req.Policy.Limits
	f := func(d decimal.Decimal) float64 { return d.InexactFloat64() }
	step := req.Product.SizeIncrement
	k := consts{share: f(share), capShare: f(capShare), maxTrade: f(maxTrade), minTrade: f(minTrade), step: f(step), stepPx: f(req.Product.PriceIncrement),
		stepCoef: step.CoefficientInt64(), stepExp: step.Exponent(), maxPos: f(l.MaxPositionSize), lev: -1}
	if lev := decimal.Min(l.MaxLeverage, risk.SpotLeverageCap); lev.IsPositive() {
		k.lev = f(lev)
	}
	sq, ok1 := at(step, 8)
	k.stepQ = uint64(sq)
	var ok2, ok3 bool
	if k.minAmt, ok2 = at(l.MinTradeAmount, b.scale); !ok2 {
		k.minAmt = -1
	}
	if k.maxAmt, ok3 = at(l.MaxTradeAmount, b.scale); !ok3 {
		k.maxAmt = -1
	}
	k.ok = ok1 && sq > 0 && step.NumDigits() <= 18 && !share.IsNegative() && !capShare.IsNegative() && !maxTrade.IsNegative() && !minTrade.IsNegative() &&
		!l.MaxPositionSize.IsNegative()
	return k
}

func (a *account) price(steps int64) decimal.Decimal {
	p := a.req.Product.PriceIncrement
	return decimal.New(steps*p.CoefficientInt64(), p.Exponent())
}

func (a *account) fill(t int, side domain.Side, q, px, fee int64, reason uint8) {
	a.fills = append(a.fills, rawFill{t: int32(t), side: side, reason: reason, q: q, px: px, fee: fee})
}

// cap is px within candle t's low and high (the engine's Floor and Ceiling).
func (b *batch) cap(t int, px int64) int64 { return min(max(px, b.low[t]), b.high[t]) }

// sell sells q at px (steps) at candle t.
func (a *account) sell(t int, q, px int64, reason uint8) {
	notional, fee, ok := a.b.fee(q, px)
	mul := int64(pow10[a.b.ps])
	if !ok || fee > (1<<62)/mul {
		a.bad = true
		return
	}
	gain := notional - fee*mul
	if a.cash > (1<<62)-gain {
		a.bad = true
		return
	}
	a.cash += gain
	a.base -= q
	a.fill(t, domain.Sell, q, px, fee, reason)
}

// trigger fills the stops a quote at p (x 10^-8) reaches, highest first.
func (a *account) trigger(t int, p int64) {
	for a.top >= 0 && a.top*a.b.d >= p {
		i := 0
		for j := range a.stops {
			if a.stops[j].px > a.stops[i].px {
				i = j
			}
		}
		s := a.stops[i]
		a.stops = append(a.stops[:i], a.stops[i+1:]...)
		bid, _, ok := a.b.bidAsk(p)
		if !ok {
			a.bad = true
			return
		}
		a.sell(t, s.q, a.b.cap(t, bid), rStop)
		a.retop()
	}
}

func (a *account) retop() {
	a.top = -1
	for _, s := range a.stops {
		a.top = max(a.top, s.px)
	}
}

// event runs candle t as the event engine does: the open quoted (stops at
// or above it trigger), the pending signal acted on, then the walk down to
// the low, where the stops it passes trigger at their prices.
func (a *account) event(t int, pending int8) {
	b := a.b
	a.trigger(t, b.open[t])
	switch pending {
	case -1:
		a.stops, a.top = a.stops[:0], -1 // cancelled
		if a.base > 0 {
			a.sell(t, a.base, b.cap(t, b.openBid[t]), rSignal)
		}
	case 1:
		a.buy(t)
	}
	// the walk: open -> low meets the stops from the highest down
	lowP := b.low[t] * b.d
	for a.top >= 0 && a.top*b.d >= lowP && !a.bad {
		a.trigger(t, a.top*b.d)
	}
}

// buy is a BUY signal acted on at candle t's open: sized, checked and
// filled as the event engine does, with its protective stop. The sizing
// and the order checks are worked out in floats first; each outcome they
// give is exact unless a figure lies within a hair (a relative 1e-9) of a
// boundary, where the decimal way (buyDecimal) decides instead.
func (a *account) buy(t int) {
	b, k := a.b, &a.k
	if !k.ok || !screen {
		a.buyDecimal(t)
		return
	}
	open := float64(b.open[t]) / 1e8
	held := float64(a.base) / 1e8 * open
	value := float64(a.cash)/pow10f[b.scale] + held
	eps := 1e-9 * (value + 1)
	notional := min(min(value*k.share, value*k.capShare)-held, k.maxTrade)
	if notional < k.minTrade-eps {
		return // at the target: nothing to buy
	}
	if notional <= k.minTrade+eps {
		a.buyDecimal(t)
		return
	}
	ask := b.openAsk[t]
	x := notional / (float64(ask) * k.stepPx) / k.step
	fl := math.Floor(x)
	if x > 1e12 || x-fl < 1e-6 || fl+1-x < 1e-6 {
		a.buyDecimal(t)
		return
	}
	if fl == 0 {
		return // the order rounds to zero
	}
	steps := uint64(fl)
	hi, q := bits.Mul64(steps, k.stepQ) // the quantity x 10^-8
	if hi != 0 || q > 1<<62 {
		a.buyDecimal(t)
		return
	}
	// risk.Check's order checks: the trade amount (qty x ask) exactly, the
	// position's share of the value (and the leverage, the same ratio for
	// one symbol) in floats away from the limit
	hi, amt := bits.Mul64(q, uint64(ask)) // x 10^-(8+ps)
	if hi != 0 || amt > 1<<62 {
		a.buyDecimal(t)
		return
	}
	if k.minAmt >= 0 && int64(amt) < k.minAmt || k.maxAmt >= 0 && int64(amt) > k.maxAmt {
		return // refused by the trade amount limits
	}
	share := (held + float64(amt)/pow10f[b.scale]) / value
	for _, lim := range [...]float64{k.maxPos, k.lev} {
		if lim < 0 {
			continue
		}
		if math.Abs(share-lim) <= 1e-9*(lim+1) {
			a.buyDecimal(t)
			return
		}
		if share > lim {
			return // refused: the position would be too large
		}
	}
	if k.minAmt < 0 || k.maxAmt < 0 {
		a.buyDecimal(t)
		return
	}
	a.fillBuy(t, int64(q))
}

// screen turns buy's float screening on (tests turn it off to check the
// decimal way alone).
var screen = true

// buyDecimal is buy in decimals, as the event engine computes it.
func (a *account) buyDecimal(t int) {
	b, req := a.b, a.req
	c := &req.Candles[t]
	cash := decimal.New(a.cash, -int32(b.scale))
	baseD := decimal.New(a.base, -8)
	held := domain.Times(baseD, c.Open)
	value := domain.Plus(cash, held)
	ask := a.price(b.openAsk[t])
	step := req.Product.SizeIncrement
	qty, _, atTarget := a.sizing.BuyQuantity(value, held, ask, step)
	if atTarget || !qty.IsPositive() {
		return
	}
	snap := risk.Snapshot{PortfolioValue: value, Exposure: map[string]decimal.Decimal{}}
	if a.base > 0 {
		snap.Exposure[req.Symbol] = held
	}
	if risk.Check(req.Policy.Limits, snap, risk.Order{Symbol: req.Symbol, Side: domain.Buy, Notional: qty.Mul(ask)}) != nil {
		return
	}
	q, ok := at(qty, 8)
	if !ok {
		a.bad = true
		return
	}
	a.fillBuy(t, q)
}

// fillBuy fills a market BUY of q x 10^-8 at candle t's ask, if the
// cash covers it, and places its protective stop.
func (a *account) fillBuy(t int, q int64) {
	b := a.b
	if q < a.minQ {
		return // the exchange refuses it
	}
	px := b.cap(t, b.openAsk[t])
	notional, fee, ok := b.fee(q, px)
	if !ok {
		a.bad = true
		return
	}
	// covers: cash >= q x px x (1 + rate), exactly
	k := pow10[b.rateK]
	h1, l1 := bits.Mul64(uint64(a.cash), k)
	h2, l2 := bits.Mul64(uint64(notional), k+b.rate)
	if h1 < h2 || h1 == h2 && l1 < l2 {
		return // insufficient funds: refused
	}
	mul := int64(pow10[b.ps])
	if fee > (1<<62)/mul {
		a.bad = true
		return
	}
	a.cash -= notional + fee*mul
	a.base += q
	a.fill(t, domain.Buy, q, px, fee, rSignal)
	if !a.pct {
		return
	}
	sp, ok := a.stopPrice(px, q)
	if !ok {
		a.bad = true
		return
	}
	if sp <= 0 || sp*b.d >= b.open[t] || q < a.minQ {
		return // the exchange refuses a stop at or above the price
	}
	a.stops = append(a.stops, stop{px: sp, q: q})
	a.top = max(a.top, sp)
}

// confidences[f][a] is the technical strategy's confidence for f rules
// for the decision and a against.
var confidences = func() (c [5][5]float64) {
	for f := range c {
		for a := range c[f] {
			x := math.Max(0, math.Min(1, 0.4+0.2*float64(f)-0.2*float64(a)))
			c[f][a] = math.Round(x*100) / 100
		}
	}
	return
}()

// trial runs one accepted request over the batch; ok is false when a
// figure did not fit the fixed point.
func (b *batch) trial(req backtest.Request) (Trial, bool) {
	in := *req.Config.Indicators
	votes := b.s.votesOf(in)
	rsi := b.s.rsiOf(in.RSIPeriod)
	lo, hi := in.RSIOversold, in.RSIOverbought
	// act[buy][sell]: the decision admitted at these votes (+1 BUY, -1 SELL, 0 none)
	var act [5][5]int8
	for f := range act {
		for g := range act[f] {
			switch {
			case f > g && confidences[f][g] >= req.Config.MinConfidence:
				act[f][g] = 1
			case g > f && confidences[g][f] >= req.Config.MinConfidence:
				act[f][g] = -1
			}
		}
	}
	a := &account{b: b, req: &req, cash: b.capital, top: -1, sizing: strategy.NewSizing(req.Config, req.Policy.Limits), prot: req.Policy.Protection(),
		pct: req.Policy.StopLoss && req.Policy.StopLossPercent.IsPositive()}
	a.k = newConsts(b, &req, a.sizing)
	a.minQ = req.Product.MinSize.Shift(8).Ceil().IntPart()
	if n := b.lastFills; n > 0 {
		a.fills = make([]rawFill, 0, n+n/8)
	}
	if below := decimal.NewFromInt(1).Sub(req.Policy.StopLossPercent); below.IsPositive() && below.NumDigits() <= 18 && below.Exponent() <= 0 && -below.Exponent() < 19 {
		a.belowC, a.belowD, a.belowOK = uint64(below.CoefficientInt64()), pow10[-below.Exponent()], true
	}
	var pending int8
	n := b.n
	low := b.low
	for t := req.Warmup; t < n; t++ {
		if pending != 0 || (a.top >= 0 && low[t] <= a.top) {
			a.event(t, pending)
			if a.bad {
				return Trial{}, false
			}
			pending = 0
		}
		if t == n-1 {
			break
		}
		v := votes[t]
		buy, sell := v&15, v>>4
		if r := rsi[t]; r-r == 0 {
			if r < lo {
				buy++
			} else if r > hi {
				sell++
			}
		}
		pending = act[buy][sell]
	}
	// the end of the data: what is held is sold at the last close's bid
	t := n - 1
	a.trigger(t, b.close[t])
	a.stops, a.top = nil, -1
	if a.base > 0 {
		bid, _, ok := b.bidAsk(b.close[t])
		if !ok {
			return Trial{}, false
		}
		a.sell(t, a.base, b.cap(t, bid), rEnd)
	}
	if a.bad {
		return Trial{}, false
	}
	eq := decimal.New(a.cash, -int32(b.scale)).Round(8)
	b.lastFills = len(a.fills)
	return Trial{Engine: Batched, raw: a.fills, b: b, times: req.Candles, FinalEquity: eq}, true
}

// sameProduct compares two products' symbols and grids, value and shape.
func sameProduct(a, b domain.Product) bool {
	same := func(x, y decimal.Decimal) bool { return x.Equal(y) && x.Exponent() == y.Exponent() }
	return a.Symbol == b.Symbol && a.BaseCurrency == b.BaseCurrency && a.QuoteCurrency == b.QuoteCurrency &&
		same(a.PriceIncrement, b.PriceIncrement) && same(a.SizeIncrement, b.SizeIncrement) && same(a.MinSize, b.MinSize)
}

// stopPrice is the protective stop below a BUY filled at px (steps), in
// steps: trading.ProtectiveOrders' price, px x (1 - the stop-loss percent)
// rounded down to the grid. With below = c x 10^e it is exactly
// floor(px x c / 10^-e) steps (the product has at most 16 decimals, which
// the decimal division keeps); another shape takes ProtectiveOrders itself.
func (a *account) stopPrice(px, q int64) (int64, bool) {
	if a.belowOK {
		hi, lo := bits.Mul64(uint64(px), a.belowC)
		if hi < a.belowD {
			q, _ := bits.Div64(hi, lo, a.belowD)
			if q < 1<<62 {
				return int64(q), true
			}
		}
	}
	req, qty := a.req, decimal.New(q, -8)
	prot := trading.ProtectiveOrders(a.prot, trading.ProtectiveFill{Parent: domain.Order{Symbol: req.Symbol}, Price: a.price(px), Quantity: qty,
		Free: qty, Step: req.Product.PriceIncrement})
	if len(prot) != 1 || prot[0].StopPrice == nil {
		return 0, false
	}
	sp, ok := at(*prot[0].StopPrice, 8)
	if !ok || sp%a.b.d != 0 {
		return 0, false
	}
	return sp / a.b.d, true
}
