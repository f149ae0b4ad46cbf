package backtest

import (
	"math/bits"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/exchange/paper"
	"kestrel/strategy"
	"kestrel/trading"
)

// The fast path's ledger (see the package doc). The events of a run that
// trades with a plain protective stop are three: a market BUY from a flat
// account with its stop, a SELL signal that cancels the stop and sells the
// position at market, and a stop that triggers. The ledger books them in
// integers, as the engine would (the same prices, fees rounded half away
// from zero to 8 places, the same order and fill ids, the same holds and
// position book), and the engine is left behind: its state is written back
// (paper.Engine.Load) the first time the general code needs it. An event
// of any other shape, or one whose figures do not fit, runs the general
// code. tradebytrade_test.go and ledger_test.go compare the fills, trades
// and reports with the reference engine's.

// ledger is the account while the engine is behind (on).
type ledger struct {
	on bool
	ps int // the price grid's decimals: the price step is 10^-ps
	// the account: cash, cost and realized P&L at 8 + ps decimals, the
	// base held (and of it, held by the stop) at 8
	cash, cost, realized int64
	base, hold           int64
	bals                 []domain.Balance      // the engine's balances when the ledger took over
	pos                  []domain.PositionBook // and its position books
	stop                 domain.Order          // the resting stop (ID "": none)
	stopPx               int64                 // its stop price in steps
	rate                 uint64                // the taker fee x 10^-rateK
	rateK                int
}

// newLedger is the run's ledger, or nil when its events cannot be of the
// ledger's shape (they then all run the general code).
func newLedger(req Request, lazy bool) *ledger {
	p := req.Policy
	if lazy || req.Reference || req.Symbol != strings.ToUpper(strings.TrimSpace(req.Symbol)) || req.VolumeCap.IsPositive() || !req.SlippageBps.IsZero() || !p.StopLoss || !p.StopLossPercent.IsPositive() ||
		p.TrailingStop || p.TakeProfit || req.Config.MemoryTrades() > 0 || req.TakerFee.IsNegative() || req.TakerFee.NumDigits() > 18 {
		return nil
	}
	step := req.Product.PriceIncrement
	if !step.IsPositive() || step.NumDigits() > 18 || !req.Product.SizeIncrement.IsPositive() {
		return nil
	}
	c, e := step.CoefficientInt64(), int(step.Exponent())
	for c%10 == 0 {
		c, e = c/10, e+1
	}
	if c != 1 || -e < 0 || -e > priceScale {
		return nil // a step that is not 10^-ps with 0 <= ps <= 8
	}
	l := &ledger{ps: -e, rate: uint64(req.TakerFee.CoefficientInt64()), rateK: -int(req.TakerFee.Exponent())}
	if l.rateK < 0 || l.rateK > 12 {
		return nil
	}
	return l
}

// scale is the decimals of cash, cost and realized P&L.
func (l *ledger) scale() int { return heldScale + l.ps }

// signedAt is d as an integer x 10^-scale (either sign), if it fits.
func signedAt(d decimal.Decimal, scale int) (int64, bool) {
	if d.Sign() < 0 {
		v, ok := fixedAt(d.Neg(), scale)
		return -v, ok
	}
	return fixedAt(d, scale)
}

// takeOver reads the account from the engine; false when it is not of the
// ledger's shape (nothing resting but one protective stop of the run's,
// figures that fit).
func (r *run) takeOver() bool {
	l := r.led
	if l.on {
		return true
	}
	var ok1, ok2, ok3 bool
	quote, base := r.eng.Balance(domain.Quote(r.req.Symbol)), r.eng.Balance(r.base)
	if !quote.Hold.IsZero() {
		return false
	}
	if l.cash, ok1 = fixedAt(quote.Available, l.scale()); !ok1 {
		return false
	}
	avail, ok1 := fixedAt(base.Available, heldScale)
	hold, ok2 := fixedAt(base.Hold, heldScale)
	if !ok1 || !ok2 {
		return false
	}
	l.base, l.hold = avail+hold, hold
	pos := r.eng.Position(r.req.Symbol)
	q, ok1 := fixedAt(pos.Quantity, heldScale)
	l.cost, ok2 = fixedAt(pos.Cost, l.scale())
	l.realized, ok3 = signedAt(pos.Realized, l.scale())
	if !ok1 || !ok2 || !ok3 || q != l.base {
		return false
	}
	l.stop, l.stopPx = domain.Order{}, 0
	shape := true
	r.eng.EachLive(func(o *domain.Order) {
		if l.stop.ID != "" || o.Side != domain.Sell || o.Type != domain.StopLoss || o.StopPrice == nil || o.GroupID == "" || !o.FilledQuantity.IsZero() {
			shape = false
			return
		}
		l.stop = *o
	})
	if !shape {
		return false
	}
	if l.stop.ID != "" {
		q, ok1 := fixedAt(l.stop.Quantity, heldScale)
		h, ok2 := fixedAt(l.stop.Hold, heldScale)
		px, ok3 := fixedAt(*l.stop.StopPrice, l.ps)
		if !ok1 || !ok2 || !ok3 || q != l.base || h != l.hold {
			return false
		}
		l.stopPx = px
	} else if l.hold != 0 {
		return false
	}
	l.bals, l.pos = r.eng.Balances(), r.eng.Positions()
	l.on = true
	return true
}

// writeBack hands the account back to the engine.
func (r *run) writeBack() {
	l := r.led
	if !l.on {
		return
	}
	l.on = false
	qc, bc := domain.Quote(r.req.Symbol), r.base
	bals := l.bals[:0:0]
	seen := false
	for _, b := range l.bals {
		switch b.Currency {
		case qc:
			b.Available = decimal.New(l.cash, -int32(l.scale()))
		case bc:
			b.Available, b.Hold, seen = decimal.New(l.base-l.hold, -heldScale), decimal.New(l.hold, -heldScale), true
		}
		bals = append(bals, b)
	}
	if !seen {
		bals = append(bals, domain.Balance{Currency: bc, Available: decimal.New(l.base-l.hold, -heldScale), Hold: decimal.New(l.hold, -heldScale)})
	}
	pos := l.pos[:0:0]
	seen = false
	book := domain.PositionBook{Symbol: r.req.Symbol, Quantity: decimal.New(l.base, -heldScale), Cost: decimal.New(l.cost, -int32(l.scale())),
		Realized: decimal.New(l.realized, -int32(l.scale()))}
	for _, p := range l.pos {
		if p.Symbol == r.req.Symbol {
			p, seen = book, true
		}
		pos = append(pos, p)
	}
	if !seen {
		pos = append(pos, book)
	}
	var live []domain.Order
	if l.stop.ID != "" {
		live = []domain.Order{l.stop}
	}
	r.eng.Load(bals, pos, live)
}

// engine is the engine, brought up to date.
func (r *run) engine() *paper.Engine {
	if r.led != nil && r.led.on {
		r.writeBack()
	}
	return r.eng
}

// ledgerBalance is balance(cur) while the ledger holds the account.
func (r *run) ledgerBalance(cur string) domain.Balance {
	l := r.led
	switch cur {
	case domain.Quote(r.req.Symbol):
		for _, b := range l.bals {
			if b.Currency == cur {
				b.Available = decimal.New(l.cash, -int32(l.scale()))
				return b
			}
		}
		return domain.Balance{Currency: cur, Available: decimal.New(l.cash, -int32(l.scale())), Hold: decimal.Zero}
	case r.base:
		return domain.Balance{Currency: cur, Available: decimal.New(l.base-l.hold, -heldScale), Hold: decimal.New(l.hold, -heldScale)}
	}
	return r.eng.Balance(cur)
}

// steps is p (x 10^-8) on the price grid: in whole steps, rounded up or
// down.
func (l *ledger) steps(p int64, up bool) int64 {
	d := int64(pow10u[priceScale-l.ps])
	n := p / d
	if up && p%d != 0 {
		n++
	}
	return n
}

// bidAsk are the bid and ask of a price p x 10^-8 in steps (the engine's
// taker prices, with no slippage: the ask rounded up, the bid down).
func (r *run) ledgerBidAsk(p int64) (bid, ask int64, ok bool) {
	l := r.led
	if !r.req.HalfSpread.IsPositive() {
		return l.steps(p, false), l.steps(p, true), true
	}
	if r.spread == nil {
		r.spread = newSpreadGrid(r.req.HalfSpread, r.priceStep())
	}
	nb, na, ok := r.spread.steps(p)
	if !ok || r.spread.k != l.ps {
		return 0, 0, false
	}
	return int64(nb), int64(na), true
}

// inCandle is a taker fill at px (in steps) within the candle's low and
// high (x 10^-8), by the engine's own rule (paper.CapSteps: the bounds
// taken to the grid inwards); ok is false when ok was, or when no grid
// price lies within the candle (the engine then fills at the bound itself).
func (l *ledger) inCandle(px, low, high int64, ok bool) (int64, bool) {
	if !ok {
		return 0, false
	}
	return paper.CapSteps(px, l.steps(low, true), l.steps(high, false))
}

// fee is the ledger's FixedFee at its price step and taker rate.
func (l *ledger) fee(q, px int64) (notional, fee int64, ok bool) {
	return FixedFee(q, px, l.ps, l.rate, l.rateK)
}

// FixedFee is round(q x px x rate) to 8 places, half away from zero, in
// fixed point: q x 10^-8, px in steps of 10^-ps, the rate x 10^-rateK. The
// notional comes back at 8 + ps decimals; ok is false when it does not fit.
// The backtest's fast ledger and the batched sweep engine both book fees
// with it, so they round the same way.
func FixedFee(q, px int64, ps int, rate uint64, rateK int) (notional, fee int64, ok bool) {
	hi, lo := bits.Mul64(uint64(q), uint64(px))
	if hi != 0 || lo > 1<<62 {
		return 0, 0, false
	}
	notional = int64(lo) // at 8 + ps
	hi, lo = bits.Mul64(lo, rate)
	// notional x rate at 8 + ps + rateK decimals, to 8
	k := ps + rateK
	if k >= len(pow10u) {
		return 0, 0, false
	}
	div := pow10u[k]
	if hi >= div {
		return 0, 0, false
	}
	f, rem := bits.Div64(hi, lo, div)
	if rem >= div-rem {
		f++
	}
	if f > 1<<62 {
		return 0, 0, false
	}
	return notional, int64(f), true
}

// fill books a fill of the ledger's.
func (r *run) ledgerFill(side domain.Side, q, px, fee int64, qty decimal.Decimal, reason, order string) {
	price := decimal.New(px*r.led.stepCoef(r), r.req.Product.PriceIncrement.Exponent())
	f := Fill{Side: side, Time: r.now, Price: price, Quantity: qty, Fee: decimal.New(fee, -heldScale), Reason: reason, order: order}
	r.fills = append(r.fills, f)
	r.ints = append(r.ints, fillInts{q: q, p: px * int64(pow10u[priceScale-r.led.ps]), fee: fee})
}

// stepCoef is the price step's coefficient as the product writes it (0.01
// may be written 0.010): a fill price of n steps is n x it on the step's
// exponent, as the engine's taker price makes it.
func (l *ledger) stepCoef(r *run) int64 { return r.req.Product.PriceIncrement.CoefficientInt64() }

func (r *run) nextID(kind string) string { r.seq++; return kind + "-" + strconv.Itoa(r.seq) }

// ledgerEvent books candle t's event in the ledger when it is of the
// ledger's shape (see above) and reports whether it did; false leaves it
// to the general code, with nothing changed.
func (r *run) ledgerEvent(t int, c *domain.Candle, pending *strategy.Signal) bool {
	f, l := r.fx, r.led
	open := f.open(t)
	if open <= 0 {
		return false
	}
	low, ok1 := f.price(c.Low)
	high, ok2 := f.price(c.High)
	cl := f.close(t)
	if !ok1 || !ok2 || cl < 0 || low > min(open, cl) || high < max(open, cl) {
		return false // not a candle the walk goes through in the usual order
	}
	was := l.on
	booked := false
	switch {
	case pending == nil:
		if f.held != 0 && f.orders && r.takeOver() && l.stop.ID != "" {
			booked = r.ledgerStop(t, c, open, low, high)
		}
	case pending.Decision == strategy.Buy && f.held == 0 && !f.orders && r.checksPass:
		if r.takeOver() && l.base == 0 && l.stop.ID == "" {
			booked = r.ledgerBuy(t, c, *pending, open, low, high)
		}
	case pending.Decision == strategy.Sell && f.held != 0:
		if r.takeOver() && l.stop.ID != "" && open > l.stopPx*int64(pow10u[priceScale-l.ps]) {
			booked = r.ledgerSell(t, c, *pending, open, low, high)
		}
	}
	if !booked && !was {
		l.on = false // taken over for nothing: the engine is still the account
	}
	return booked
}

// ledgerStop: the resting stop, reached by candle t, triggers: at the open
// when it opens at or below it, else at its stop price (the walk's quote
// there), and fills at the bid as a taker.
func (r *run) ledgerStop(t int, c *domain.Candle, open, low, high int64) bool {
	l := r.led
	s := l.stopPx * int64(pow10u[priceScale-l.ps])
	at := s
	switch {
	case open <= s:
		at = open
	case low <= s:
	default:
		return false // not reached: a candle the general code checks
	}
	bid, _, ok := r.ledgerBidAsk(at)
	if bid, ok = l.inCandle(bid, low, high, ok); !ok || bid <= 0 {
		return false
	}
	notional, fee, ok := l.fee(l.base, bid)
	if !ok || !r.sellFits(notional, fee) {
		return false
	}
	r.ledgerSold(bid, notional, fee, "stop_loss", l.stop.ID, l.stop.Quantity)
	r.ledgerSync(t, c)
	return true
}

// sellFits reports whether selling the position for notional less fee
// keeps every figure in range.
func (r *run) sellFits(notional, fee int64) bool {
	l := r.led
	mul := int64(pow10u[l.ps])
	if fee > (1<<62)/mul {
		return false
	}
	gain := notional - fee*mul
	_, ok1 := add64(l.cash, gain)
	_, ok2 := add64(l.realized, gain-l.cost)
	return ok1 && ok2
}

// ledgerSold books the sale of the whole position at px (in steps): its
// fill (the stop's, or a market SELL's: order), proceeds less fee to cash,
// the position's cost realized, the stop's hold released and the stop gone.
func (r *run) ledgerSold(px, notional, fee int64, reason, order string, qty decimal.Decimal) {
	l := r.led
	gain := notional - fee*int64(pow10u[l.ps])
	r.nextID("f")
	r.ledgerFill(domain.Sell, l.base, px, fee, qty, reason, order)
	l.cash += gain
	l.realized += gain - l.cost
	l.cost, l.base, l.hold = 0, 0, 0
	l.stop, l.stopPx = domain.Order{}, 0
}

// ledgerSync hands the ledger's account to the fast path's marking and
// marks candle t.
func (r *run) ledgerSync(t int, c *domain.Candle) {
	f, l := r.fx, r.led
	hi, lo := bits.Mul64(uint64(l.cash), pow10u[f.scale-l.scale()])
	f.cash, f.held = u128{hi, lo}, l.base
	f.orders = l.stop.ID != ""
	f.fall, f.rise = -1, 1<<62
	if f.orders {
		f.fall = l.stopPx * int64(pow10u[priceScale-l.ps])
	}
	r.fastMark(t, c)
}

// ledgerBuy is act's BUY from a flat account that every check lets
// through (refusedFlat found so), with its protective stop, and the walk
// through candle t that may trigger it.
func (r *run) ledgerBuy(t int, c *domain.Candle, sig strategy.Signal, open, low, high int64) bool {
	l := r.led
	r.rollDay(*c) // as act does first (once a day: the general code repeats nothing)
	// size's quantity: paid is the ask (on the grid with a half-spread, the
	// open as it is without)
	sp, spExp := open, -priceScale
	if r.req.HalfSpread.IsPositive() {
		_, a, ok := r.ledgerBidAsk(open)
		if !ok {
			return false
		}
		sp, spExp = a, -l.ps
	}
	_, qty, why, ok := r.ledgerSize(sp, spExp)
	if !ok {
		qty, why = r.size(c.Open)
	}
	if why != "" {
		r.checksPass = false
		r.mem.acting = sig.Reasoning
		r.refused[why]++
		r.ledgerSync(t, c)
		return true
	}
	q, ok := fixedAt(qty, heldScale)
	if !ok || q <= 0 || domain.Cmp(qty, r.req.Product.MinSize) < 0 {
		return false
	}
	_, ask, ok := r.ledgerBidAsk(open)
	if ask, ok = l.inCandle(ask, low, high, ok); !ok || ask <= 0 {
		return false
	}
	notional, fee, ok := l.fee(q, ask)
	if !ok {
		return false
	}
	// covers: cash >= q x ask x (1 + rate), exactly
	k := pow10u[l.rateK]
	h1, l1 := bits.Mul64(uint64(l.cash), k)
	h2, l2 := bits.Mul64(uint64(notional), k+l.rate)
	if (u128{h1, l1}).less(u128{h2, l2}) {
		return false
	}
	mul := int64(pow10u[l.ps])
	if fee > (1<<62)/mul {
		return false
	}
	paid := notional + fee*mul
	base, ok1 := add64(l.base, q)
	cost, ok2 := add64(l.cost, paid)
	if !ok1 || !ok2 {
		return false
	}
	// the protective stop, by the one rule (trading.ProtectiveOrders, as
	// protect), below the open (the engine refuses a stop at or above the
	// last price); the BUY, from a flat account, leaves all of qty free
	id := "o-" + strconv.Itoa(r.seq+1) // the BUY's id, as nextID makes it below
	fill := decimal.New(ask*l.stepCoef(r), r.req.Product.PriceIncrement.Exponent())
	prot := trading.ProtectiveOrders(r.prot, trading.ProtectiveFill{Parent: domain.Order{ID: id, Symbol: r.req.Symbol, Strategy: r.req.Config.Name},
		Key: id, Price: fill, Quantity: qty, Free: qty, Step: r.req.Product.PriceIncrement})
	if len(prot) != 1 || prot[0].Type != domain.StopLoss {
		return false
	}
	sl := prot[0]
	stop := *sl.StopPrice
	stopPx, ok := fixedAt(stop, l.ps)
	if !ok || stopPx <= 0 || stopPx*int64(pow10u[priceScale-l.ps]) >= open {
		return false
	}
	// the walk: from the open (above the stop) down to the low, where it
	// may trigger the stop at its price
	s := stopPx * int64(pow10u[priceScale-l.ps])
	var sBid, sNotional, sFee int64
	if low <= s {
		var ok bool
		sBid, _, ok = r.ledgerBidAsk(s)
		if sBid, ok = l.inCandle(sBid, low, high, ok); !ok || sBid <= 0 {
			return false
		}
		if sNotional, sFee, ok = l.fee(q, sBid); !ok || sFee > (1<<62)/mul {
			return false
		}
		gain := sNotional - sFee*mul
		if _, ok := add64(l.cash-paid, gain); !ok {
			return false
		}
		if _, ok := add64(l.realized, gain-cost); !ok {
			return false
		}
	}
	// booked: the order, its fill, the stop
	r.mem.acting = sig.Reasoning
	r.checksPass = false
	r.trades.Placed(r.now)
	r.nextID("o") // id
	r.nextID("f")
	l.cash -= paid
	l.base, l.cost = base, cost
	r.ledgerFill(domain.Buy, q, ask, fee, qty, "signal", id)
	l.stop = domain.Order{ID: r.nextID("o"), Symbol: sl.Symbol, Side: sl.Side, Type: sl.Type, Quantity: sl.Quantity, StopPrice: sl.StopPrice,
		FilledQuantity: decimal.Zero, Fee: decimal.Zero, Hold: sl.Quantity, GroupID: sl.GroupID, ParentID: sl.ParentID, Status: domain.StatusOpen,
		Strategy: sl.Strategy, CreatedAt: r.now, UpdatedAt: r.now}
	l.stopPx, l.hold = stopPx, q
	r.trades.Placed(r.now)
	r.count("")
	if low <= s {
		r.ledgerSold(sBid, sNotional, sFee, "stop_loss", l.stop.ID, l.stop.Quantity)
	}
	r.ledgerSync(t, c)
	return true
}

// ledgerSell is act's SELL while the position rests with its stop above
// which candle t opens: the stop cancelled, the position sold at the bid.
func (r *run) ledgerSell(t int, c *domain.Candle, sig strategy.Signal, open, low, high int64) bool {
	l := r.led
	step, ok := fixedAt(r.req.Product.SizeIncrement, heldScale)
	min, ok2 := fixedAt(r.req.Product.MinSize, heldScale)
	if !ok || !ok2 || step <= 0 || l.base%step != 0 || l.base < min {
		return false
	}
	bid, _, ok := r.ledgerBidAsk(open)
	if bid, ok = l.inCandle(bid, low, high, ok); !ok || bid <= 0 {
		return false
	}
	notional, fee, ok := l.fee(l.base, bid)
	if !ok || !r.sellFits(notional, fee) {
		return false
	}
	r.rollDay(*c)
	r.mem.acting = sig.Reasoning
	r.trades.Placed(r.now)
	r.ledgerSold(bid, notional, fee, "signal", r.nextID("o"), decimal.New(l.base, -heldScale))
	r.count("")
	r.ledgerSync(t, c)
	return true
}

// ledgerSize is size's strategy.BuyQuantity for a flat account in
// integers (held nothing, the value its cash, no slippage: paid is the ask,
// paid x 10^paidExp): the same quantity (x 10^-8, and as size writes it) or
// the same refusal. ok is false when a figure does not fit; size then
// decides.
func (r *run) ledgerSize(paid int64, paidExp int) (q int64, qty decimal.Decimal, why string, ok bool) {
	l := r.led
	share, capShare, maxTrade, minTrade := r.sizing.Constants()
	co := func(d decimal.Decimal) (uint64, int, bool) {
		if d.Sign() < 0 || d.NumDigits() > 18 {
			return 0, 0, false
		}
		return uint64(d.CoefficientInt64()), int(d.Exponent()), true
	}
	sh, esh, ok1 := co(share)
	cp, ecp, ok2 := co(capShare)
	mt, emt, ok3 := co(maxTrade)
	mn, emn, ok4 := co(minTrade)
	if !ok1 || !ok2 || !ok3 || !ok4 || l.cash < 0 || paid <= 0 {
		return 0, qty, "", false
	}
	v := uint64(l.cash) // the value, x 10^-scale
	h1, l1 := bits.Mul64(v, sh)
	h2, l2 := bits.Mul64(v, cp)
	// target = min(value x share, value x capShare); notional = min(target, maxTrade)
	n, en, ok := minAt(u128{h1, l1}, esh-l.scale(), u128{h2, l2}, ecp-l.scale())
	if !ok {
		return 0, qty, "", false
	}
	if n, en, ok = minAt(n, en, u128{0, mt}, emt); !ok {
		return 0, qty, "", false
	}
	if c, ok := cmpAt(n, en, u128{0, mn}, emn); !ok {
		return 0, qty, "", false
	} else if c < 0 {
		return 0, qty, msgAtTarget, true
	}
	// q1 = notional / paid rounded half up to 16 places (x 10^16)
	k := en - paidExp + 16
	num, den := n, uint64(paid)
	if k >= 0 {
		if num, ok = mulPow(num, k); !ok {
			return 0, qty, "", false
		}
	} else {
		if -k >= len(pow10u) {
			return 0, qty, "", false
		}
		hi, lo := bits.Mul64(den, pow10u[-k])
		if hi != 0 {
			return 0, qty, "", false
		}
		den = lo
	}
	q1, ok := divRound(num, den)
	if !ok {
		return 0, qty, "", false
	}
	// steps = floor(round16(q1 x 10^-16 / step)): R = round(q1 x 10^-es / sc), then R / 10^16
	sc, es, ok := co(r.sizeStep())
	if !ok || sc == 0 {
		return 0, qty, "", false
	}
	num, den = q1, sc
	if es <= 0 {
		if num, ok = mulPow(num, -es); !ok {
			return 0, qty, "", false
		}
	} else {
		if es >= len(pow10u) {
			return 0, qty, "", false
		}
		hi, lo := bits.Mul64(den, pow10u[es])
		if hi != 0 {
			return 0, qty, "", false
		}
		den = lo
	}
	rr, ok := divRound(num, den)
	if !ok || rr.hi >= pow10u[16] {
		return 0, qty, "", false
	}
	steps, _ := bits.Div64(rr.hi, rr.lo, pow10u[16])
	if steps == 0 {
		return 0, qty, "Order size rounds to zero", true
	}
	// q = steps x step, x 10^8
	e8 := es + heldScale
	if e8 < 0 || e8 >= len(pow10u) {
		return 0, qty, "", false
	}
	hi, lo := bits.Mul64(steps, sc)
	hi2, lo2 := bits.Mul64(lo, pow10u[e8])
	if hi != 0 || hi2 != 0 || lo2 > 1<<62 {
		return 0, qty, "", false
	}
	if steps > (1<<62)/sc {
		return 0, qty, "", false
	}
	return int64(lo2), decimal.New(int64(steps*sc), int32(es)), "", true
}

// sizeStep is the size increment size() sizes with.
func (r *run) sizeStep() decimal.Decimal {
	if step := r.req.Product.SizeIncrement; step.IsPositive() {
		return step
	}
	return decimal.New(1, -8)
}

// mulPow is x x 10^k, if it fits in 128 bits.
func mulPow(x u128, k int) (u128, bool) {
	for ; k > 0; k-- {
		hi1, lo := bits.Mul64(x.lo, 10)
		hi2, hi := bits.Mul64(x.hi, 10)
		var c uint64
		hi, c = bits.Add64(hi, hi1, 0)
		if hi2 != 0 || c != 0 {
			return u128{}, false
		}
		x = u128{hi, lo}
	}
	return x, true
}

// cmpAt compares a x 10^ea with b x 10^eb.
func cmpAt(a u128, ea int, b u128, eb int) (int, bool) {
	var ok bool
	if ea > eb {
		if a, ok = mulPow(a, ea-eb); !ok {
			return 0, false
		}
	} else if eb > ea {
		if b, ok = mulPow(b, eb-ea); !ok {
			return 0, false
		}
	}
	switch {
	case a.less(b):
		return -1, true
	case b.less(a):
		return 1, true
	}
	return 0, true
}

// minAt is the smaller of a x 10^ea and b x 10^eb (a when equal), as it
// is written.
func minAt(a u128, ea int, b u128, eb int) (u128, int, bool) {
	c, ok := cmpAt(a, ea, b, eb)
	if !ok {
		return u128{}, 0, false
	}
	if c <= 0 {
		return a, ea, true
	}
	return b, eb, true
}

// divRound is x / d rounded half up, in 128 bits.
func divRound(x u128, d uint64) (u128, bool) {
	if d == 0 {
		return u128{}, false
	}
	qhi, r1 := x.hi/d, x.hi%d
	qlo, r := bits.Div64(r1, x.lo, d)
	if r >= d-r {
		var c uint64
		qlo, c = bits.Add64(qlo, 1, 0)
		qhi += c
	}
	return u128{qhi, qlo}, true
}
