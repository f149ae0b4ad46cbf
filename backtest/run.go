package backtest

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/candles"
	"kestrel/domain"
	"kestrel/exchange/paper"
	"kestrel/risk"
	"kestrel/strategy"
	"kestrel/trading"
)

// Request is one backtest.
type Request struct {
	Strategy strategy.Strategy
	Config   strategy.Config // sizing and min_confidence; Name labels the fills
	Symbol   string
	Product  domain.Product
	// Candles are the strategy timeframe's candles, ascending. The first
	// Warmup of them only warm the strategy up; trading starts after them.
	Candles     []domain.Candle
	Warmup      int
	Capital     decimal.Decimal
	TakerFee    decimal.Decimal
	MakerFee    decimal.Decimal
	SlippageBps decimal.Decimal
	// VolumeCap is the largest share of a candle's volume one market order
	// may take (zero: no cap). An order above it fills that much at the open
	// and the rest at the following candles' opens, under the same cap,
	// until it is done or an opposite signal replaces it.
	VolumeCap decimal.Decimal
	// HalfSpread quotes the bid and ask around each price as the live
	// market does (replay.BidAsk; zero: bid = ask = the price). Market
	// BUYs pay the ask, SELLs and stops get the bid, a take-profit fills
	// once the bid reaches it.
	HalfSpread decimal.Decimal
	Policy     trading.Policy // risk limits and protective orders
	// Reference turns the fast path off: every candle goes through the
	// engine and the strategy's Evaluate (tests compare the two paths).
	Reference bool
	// Progress, when set, hears the share of the candles done (0..1) on
	// the way: every candle on the general path, every 1,024 on the fast one.
	Progress func(float64)
	// Bars, when Candles is nil, are the candles in fixed point (as the
	// command line reads a file): the fast path turns into decimals only
	// the candles the engine is shown; the results are the same.
	Bars []candles.Bar
	// Decision, when set, hears every evaluation: the open time of the
	// closed candle evaluated (as the live engine records it) and the
	// decision and confidence, HOLD included (a drift report joins them
	// with a paper stage's evaluations).
	Decision func(candle time.Time, decision string, confidence float64)
}

// Fill is one execution in the run.
type Fill struct {
	Side     domain.Side     `json:"side"`
	Time     time.Time       `json:"time"`
	Price    decimal.Decimal `json:"price"`
	Quantity decimal.Decimal `json:"quantity"`
	Fee      decimal.Decimal `json:"fee"`
	Reason   string          `json:"reason"` // signal, stop_loss, take_profit, end_of_data
	order    string          // the order it filled (a trade's id in the trade memory)
}

// Point is equity (and drawdown below its peak, a fraction) at a candle's close.
type Point struct {
	Time     time.Time `json:"time"`
	Equity   Cents     `json:"equity"` // rounded half away from zero to cents
	Drawdown float64   `json:"drawdown"`
}

// run holds one backtest's state.
type run struct {
	req      Request
	eng      *paper.Engine
	base     string
	fills    []Fill
	ints     []fillInts // the fills' figures in integers (roundTripsFixed)
	curve    []Point
	signals  int            // BUY and SELL signals (Signals.Total)
	traded   int            // of them, those that became an order
	below    string         // the reason counted below min_confidence
	refused  map[string]int // the others, by reason
	dayStart decimal.Decimal
	day      int64 // the current UTC day (days since 1970)
	dayKnown bool
	peak     decimal.Decimal
	trades   risk.DayCount // the day's trade count, kept as live trading keeps it
	inPos    int           // candles closed holding a position
	now      time.Time
	seq      int
	working  *working // the unfilled rest of a market order held back by the volume cap
	fx       *fixed   // the fast path's fixed-point state; nil marks in decimal
	led      *ledger  // the fast path's ledger (nil: none); while on, the engine is behind (engine)
	lazy     *lazy    // with Request.Bars: the candle made as read
	n        int      // candles
	tally    tally    // the fast path's refusals (refuse)
	// checksPass: refusedFlat found the BUY act is about to size passes
	// every check of risk.Check (read and cleared by act)
	checksPass bool
	sizing     strategy.Sizing    // strategy.BuyQuantity's constants
	prot       trading.Protection // the policy's protective orders (protect)
	slipped    decimal.Decimal    // 1 + the slippage (size)
	// fastCurve: every curve point was marked in fixed point (its metrics
	// can be computed in integers too)
	fastCurve bool

	spread *spreadGrid       // bidAsk in integers, made at the first quote
	trig   []decimal.Decimal // triggers' slice, reused leg after leg
	mem    tradeMemory       // the AI prompt's memory of the run's own trades
}

// working is a market order's rest still to fill.
type working struct {
	side   domain.Side
	qty    decimal.Decimal
	reason string
}

// Run replays the candles through the strategy (see the package doc).
func Run(ctx context.Context, req Request) (Result, error) {
	var lz *lazy
	n := len(req.Candles)
	if req.Candles == nil && req.Bars != nil {
		n = len(req.Bars)
		if _, ok := req.Strategy.(strategy.Replayer); ok && !req.Reference {
			lz = &lazy{bars: req.Bars, t: -1} // the fast path: candles made as read
		} else {
			req.Candles = decimalCandles(req.Bars)
		}
	}
	if n <= req.Warmup+1 {
		return Result{}, domain.Errorf(domain.EInvalid, "Not enough candles for this period (%d, and %d to warm up)", n, req.Warmup)
	}
	r := &run{req: req, base: domain.Base(req.Symbol), refused: map[string]int{}, curve: make([]Point, 0, n-req.Warmup),
		below: msgBelow(req.Config.MinConfidence), lazy: lz, n: n, sizing: strategy.NewSizing(req.Config, req.Policy.Limits)}
	r.prot = req.Policy.Protection()
	spread := req.SlippageBps.Div(decimal.NewFromInt(10000))
	// 1 + the slippage, without the 16 places Div gave it (only its value
	// reaches the sizing's quotient): a price paid then stays in 64 bits
	r.slipped = decimal.RequireFromString(decimal.NewFromInt(1).Add(spread).String())
	r.eng = paper.New(paper.Config{Products: []domain.Product{req.Product}, TakerFee: req.TakerFee, MakerFee: req.MakerFee, Spread: spread,
		NewID: func(kind string) string { r.seq++; return kind + "-" + strconv.Itoa(r.seq) }, NoUpdates: true})
	r.eng.Deposit(domain.Quote(req.Symbol), req.Capital)
	var replay *strategy.Replay
	if rp, ok := req.Strategy.(strategy.Replayer); ok && !req.Reference {
		replay = rp.Replay()
		if r.fx = newFixed(n); r.fx != nil {
			r.led = newLedger(req, lz != nil)
			r.fx.consts = newConsts(req)
			r.fastCurve = true
			r.sync()
		}
	}
	// Every candle's prices read once; the warm-up only feeds the replay.
	var bars []bar
	if r.lazy != nil && (r.fx == nil || r.fx.p != barScale) {
		r.allCandles() // the bars are read as they are only at their own scale
	}
	if replay != nil {
		if bars = readBars(r.req.Candles, n, req.Warmup, r.fx, r.lazy); bars == nil {
			replay, r.fx, r.fastCurve = nil, nil, false // the general path throughout
		} else {
			for t := range req.Warmup {
				replay.Feed(r.closeF(bars, t))
			}
		}
	}
	if r.fx == nil {
		r.allCandles() // the general path reads every candle
	}
	var pending *strategy.Signal
	var next strategy.Signal // pending points here: one signal waits at a time
	for t := req.Warmup; t < n; t++ {
		if r.fx == nil || t&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return Result{}, err
			}
			if req.Progress != nil {
				req.Progress(float64(t-req.Warmup) / float64(n-req.Warmup))
			}
		}
		c := r.slot(t)
		r.now = c.Time
		if r.lazy != nil && (!r.dayKnown || dayOf(c) != r.day) {
			r.candle(t) // the day's start value may read its open
		}
		r.newDay(c) // the risk check's day starts at 00:00 UTC, as live
		if r.fx != nil && pending != nil && r.working == nil && r.refusedFlat(*pending, t, *c) {
			pending = nil
		}
		if r.fx != nil && pending == nil && r.working == nil && r.fx.quiet(t) {
			r.fastMark(t, c) // nothing can fill: the engine is not needed
		} else if r.led != nil && r.fx != nil && r.working == nil && r.ledgerEvent(t, c, pending) {
			pending = nil // booked in the ledger
		} else {
			r.candle(t) // the engine reads its prices
			r.quote(c.Open, c)
			if pending != nil {
				r.working = nil // a new decision replaces what was still working
				r.act(*pending, *c)
				pending = nil
			} else if r.working != nil {
				r.market(r.working.side, r.working.qty, r.working.reason, *c)
			}
			r.walk(t, *c)
			if r.fx != nil {
				r.sync()
			}
			if r.fx != nil {
				r.fastMark(t, c)
			} else {
				r.mark(*c)
			}
		}
		if t == n-1 {
			break // no candle left to act on a signal at its close
		}
		var sig strategy.Signal
		if replay != nil {
			sig.Decision, sig.Confidence = replay.Next(r.closeF(bars, t))
		} else {
			var err error
			cs := r.req.Candles // every candle is made on this path
			window := cs[max(0, t-req.Warmup) : t+1]
			sig, err = req.Strategy.Evaluate(ctx, strategy.Input{Symbol: req.Symbol, Candles: window, Position: r.position(), Now: c.Time.Add(width(cs)),
				Memory: r.memory()})
			if err != nil {
				return Result{}, fmt.Errorf("strategy at %s: %w", c.Time.Format(time.RFC3339), err)
			}
		}
		if req.Decision != nil {
			req.Decision(c.Time, sig.Decision, sig.Confidence)
		}
		if sig.Decision != strategy.Hold && r.admit(sig) {
			next = sig
			pending = &next
		}
	}
	r.closeOut(*r.candle(n - 1))
	putBars(bars)
	return r.result(), nil
}

func width(cs []domain.Candle) time.Duration {
	if len(cs) < 2 {
		return time.Hour
	}
	return cs[1].Time.Sub(cs[0].Time)
}

// quote shows the engine the price px now, inside candle c, with the bid
// and ask around it (slippage is charged on market fills beyond them), and
// books what it filled. Taker fills stay within c's low and high (the
// engine caps them there: paper.Quote's Floor and Ceiling).
func (r *run) quote(px decimal.Decimal, c *domain.Candle) {
	bid, ask := r.bidAsk(px)
	ch := r.engine().OnQuote(r.now, paper.Quote{Symbol: r.req.Symbol, Last: px, Bid: bid, Ask: ask, Floor: c.Low, Ceiling: c.High})
	r.book(ch, "")
}

// walk moves the price through candle c (candle t): open -> low -> high
// -> close, stopping at every resting order's trigger on the way.
func (r *run) walk(t int, c domain.Candle) {
	if r.engine().LiveCount() == 0 {
		r.quote(c.Close, &c) // nothing rests: only the close matters
		return
	}
	if r.fx != nil {
		// On the fast path, a candle whose prices all lie strictly
		// inside every resting order's trigger (no trailing stop among
		// them) fills nothing on the way: each quote would only replace
		// the last one, so the close is the only one that matters.
		if fall, rise := restBounds(r.engine(), r.fx.p); r.fx.within(t, fall, rise) {
			r.quote(c.Close, &c)
			return
		}
	}
	for _, leg := range [][2]decimal.Decimal{{c.Open, c.Low}, {c.Low, c.High}, {c.High, c.Close}} {
		for _, px := range r.triggers(leg[0], leg[1]) {
			r.quote(px, &c)
		}
		r.quote(leg[1], &c)
	}
}

// triggers are the resting orders' prices strictly between a and b, in
// the order the price meets them going from a to b.
func (r *run) triggers(a, b decimal.Decimal) []decimal.Decimal {
	// r.trig is reused: the caller is done with the last leg's. The book's
	// own order is not needed, the prices are sorted below.
	out := r.trig[:0]
	r.engine().EachLive(func(o *domain.Order) {
		px := o.Price
		if o.Type.IsStop() {
			px = o.StopPrice // a trailing stop's as it stands at the leg's start: on a leg away from it, it is not met
		} else if px != nil && o.Side == domain.Sell {
			lp := r.lastFor(*px) // a sell limit fills once the bid reaches it
			px = &lp
		}
		if px == nil {
			return
		}
		if ab, pa, pb := domain.Cmp(a, b), domain.Cmp(*px, a), domain.Cmp(*px, b); (ab < 0 && pa > 0 && pb < 0) || (ab > 0 && pa < 0 && pb > 0) {
			out = append(out, *px)
		}
	})
	r.trig = out
	if len(out) < 2 {
		return out
	}
	sort.Slice(out, func(i, j int) bool {
		if a.LessThan(b) {
			return out[i].LessThan(out[j])
		}
		return out[i].GreaterThan(out[j])
	})
	return out
}

// book records the fills of a change; reason names them (empty: taken from
// the order: a protective stop or take-profit).
func (r *run) book(c paper.Change, reason string) {
	for _, f := range c.Fills {
		why := reason
		if why == "" {
			why = "take_profit"
			for i := range c.Orders { // a change holds a few orders: no map to build
				if o := &c.Orders[i]; o.ID == f.OrderID {
					if o.Type.IsStop() {
						why = "stop_loss"
					}
					break
				}
			}
		}
		r.fills = append(r.fills, Fill{Side: f.Side, Time: r.now, Price: f.Price, Quantity: f.Quantity, Fee: f.Fee, Reason: why, order: f.OrderID})
		r.ints = append(r.ints, intsOf(&r.fills[len(r.fills)-1]))
	}
}

func (r *run) position() domain.PositionBook { return r.engine().Position(r.req.Symbol) }

func (r *run) balance(cur string) domain.Balance {
	if r.led != nil && r.led.on {
		return r.ledgerBalance(cur)
	}
	return r.eng.Balance(cur)
}

// equity is cash plus the base held at px.
func (r *run) equity(px decimal.Decimal) decimal.Decimal {
	return domain.Plus(r.balance(domain.Quote(r.req.Symbol)).Total(), domain.Times(r.balance(r.base).Total(), px))
}

// sync hands the engine's state after an event to the fast path, or leaves
// the fast path (marking in decimal from here on) when it does not fit.
func (r *run) sync() {
	if !r.fx.sync(r.balance(domain.Quote(r.req.Symbol)).Total(), r.balance(r.base).Total(), r.engine()) {
		r.leaveFast()
	}
}

// leaveFast hands the peak back to the decimal path.
func (r *run) leaveFast() {
	r.peak, r.fx, r.fastCurve = r.fx.peakDecimal(), nil, false
	r.allCandles()
}

// fastMark is mark in fixed point (the same figures).
func (r *run) fastMark(t int, c *domain.Candle) {
	cents, dd, ok := r.fx.mark(t)
	if !ok {
		r.leaveFast()
		r.mark(*r.candle(t))
		return
	}
	r.curve = append(r.curve, Point{Time: c.Time, Equity: Cents(cents), Drawdown: dd})
	if r.fx.held > 0 {
		r.inPos++
	}
}

// cents is eq rounded half away from zero to cents (an equity far beyond
// any account, 9 x 10^16 USD, would not fit).
func cents(eq decimal.Decimal) Cents { return Cents(eq.Round(2).Shift(2).IntPart()) }

// peakValue is the equity peak so far.
func (r *run) peakValue() decimal.Decimal {
	if r.fx != nil {
		return r.fx.peakDecimal()
	}
	return r.peak
}

// mark records equity at the close and rolls the day for the risk check.
func (r *run) mark(c domain.Candle) {
	held := r.balance(r.base).Total()
	eq := r.balance(domain.Quote(r.req.Symbol)).Total().Add(held.Mul(c.Close))
	if eq.GreaterThan(r.peak) {
		r.peak = eq
	}
	dd := 0.0 // a statistic for the chart: float is enough (money stays decimal)
	if p := r.peak.InexactFloat64(); p > 0 {
		dd = 1 - eq.InexactFloat64()/p
	}
	r.curve = append(r.curve, Point{Time: c.Time, Equity: cents(eq), Drawdown: dd})
	if held.IsPositive() {
		r.inPos++
	}
}

// act turns a signal into a market order at candle c's open.
func (r *run) act(sig strategy.Signal, c domain.Candle) {
	r.rollDay(c)
	r.mem.acting = sig.Reasoning
	if sig.Decision == strategy.Sell {
		r.count(r.sellAll("signal", c))
		return
	}
	pass := r.checksPass // refusedFlat found this BUY passes every check
	r.checksPass = false
	qty, why := r.size(c.Open)
	if why != "" {
		r.refused[why]++
		return
	}
	if !pass {
		if why := r.check(qty, c); why != "" {
			r.refused[why]++
			return
		}
	}
	r.trades.Placed(r.now)
	refused := r.market(domain.Buy, qty, "signal", c)
	if refused != "" {
		r.trades.Unplaced(r.now) // as the gateway: an order the exchange refuses does not count
	}
	r.count(refused)
}

// check is risk.Check of a market BUY of qty at candle c's open: the
// refusal's message, or "".
func (r *run) check(qty decimal.Decimal, c domain.Candle) string {
	snap := risk.Snapshot{PortfolioValue: r.equity(c.Open), StartOfDayValue: r.dayStart, PeakValue: r.peakValue(),
		Exposure: map[string]decimal.Decimal{}, TradesToday: r.trades.N(r.now)}
	if held := r.balance(r.base).Total(); held.IsPositive() {
		snap.Exposure[r.req.Symbol] = held.Mul(c.Open)
	}
	_, ask := r.bidAsk(c.Open)
	notional := qty.Mul(ask) // valued as the live gateway values a market BUY: at the ask
	if err := risk.Check(r.req.Policy.Limits, snap, risk.Order{Symbol: r.req.Symbol, Side: domain.Buy, Notional: notional}); err != nil {
		return domain.ErrorMessage(err)
	}
	return ""
}

// count books a signal's outcome: traded, or refused for why.
func (r *run) count(why string) {
	if why == "" {
		r.traded++
		return
	}
	r.refused[why]++
}

// newDay rolls the day when candle c is the first of a UTC day: the
// day's start value is the equity at its first open (00:00 UTC), whether
// or not a signal comes that day, as the live gateway reads the value
// recorded at 00:00 UTC.
func (r *run) newDay(c *domain.Candle) {
	if !r.dayKnown || dayOf(c) != r.day {
		r.rollDay(*c)
	}
}

// dayOf is candle c's risk day, as live trading counts days.
func dayOf(c *domain.Candle) int64 { return risk.Day(c.Time) }

// rollDay starts a new day for the risk check at candle c's open, once.
func (r *run) rollDay(c domain.Candle) {
	if day := dayOf(&c); !r.dayKnown || day != r.day {
		r.day, r.dayKnown = day, true
		r.trades.Start(c.Time, 0)
		if f := r.fx; f != nil && f.held == 0 && !f.orders {
			// flat, nothing resting (nothing filled since the last sync): the
			// equity is the cash, already in fixed point
			r.dayStart = r.balance(domain.Quote(r.req.Symbol)).Total()
			f.dayStart, f.dayStartOK = f.cash, true
			return
		}
		r.dayStart = r.equity(c.Open)
		if r.fx != nil {
			r.fx.setDayStart(r.dayStart)
		}
	}
}

// market fills qty at candle c's open, as much as the volume cap allows;
// what is left keeps working at the next opens. A BUY's fill gets its
// protective orders. It returns the exchange's refusal, or "" when the
// order was placed (or is working under the volume cap).
func (r *run) market(side domain.Side, qty decimal.Decimal, reason string, c domain.Candle) string {
	now := qty
	if cap := r.req.VolumeCap; cap.IsPositive() {
		step := r.req.Product.SizeIncrement
		now = decimal.Min(qty, c.Volume.Mul(cap).Div(step).Floor().Mul(step))
	}
	r.working = nil
	if rest := qty.Sub(now); rest.IsPositive() {
		r.working = &working{side: side, qty: rest, reason: reason}
	}
	if !now.IsPositive() {
		return "" // all of it works at the next opens
	}
	o, ch, err := r.engine().Place(r.now, domain.OrderRequest{Symbol: r.req.Symbol, Side: side, Type: domain.Market, Quantity: now, Strategy: r.req.Config.Name})
	if err != nil {
		r.working = nil
		return domain.ErrorMessage(err)
	}
	r.placed(o)
	r.book(ch, reason)
	if side == domain.Buy {
		r.protect(o)
	}
	return ""
}
