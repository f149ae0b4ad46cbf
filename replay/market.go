package replay

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// Start publishes ticks every TickInterval until ctx ends.
func (r *Replay) Start(ctx context.Context) {
	t := time.NewTicker(r.opt.TickInterval)
	defer t.Stop()
	r.Step(r.opt.Clock.Now())
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			r.Step(r.opt.Clock.Now())
		}
	}
}

// Step computes every symbol's price at wall time now and publishes the ticks.
func (r *Replay) Step(now time.Time) []domain.Tick {
	m := r.MarketTime(now)
	ticks := make([]domain.Tick, 0, len(r.opt.Symbols))
	for _, sym := range r.opt.Symbols {
		price, perSec, err := r.PriceAt(sym, m)
		if err != nil {
			continue
		}
		r.mu.Lock()
		prev, seen := r.lastMkt[sym]
		r.lastMkt[sym] = m
		r.mu.Unlock()
		vol := decimal.Zero
		if seen && m.After(prev) {
			vol = perSec.Mul(decimal.NewFromFloat(m.Sub(prev).Seconds())).Round(8)
		}
		ticks = append(ticks, domain.Tick{Symbol: sym, Price: price, Volume: vol, Time: m})
	}
	r.mu.Lock()
	r.lastStep = now
	for ch := range r.subs {
		for _, t := range ticks {
			select {
			case ch <- t:
			default:
				r.dropped++
			}
		}
	}
	r.mu.Unlock()
	return ticks
}

// Subscribe implements domain.MarketData.
func (r *Replay) Subscribe(ctx context.Context) <-chan domain.Tick {
	ch := make(chan domain.Tick, r.opt.SubBuffer)
	r.mu.Lock()
	r.subs[ch] = struct{}{}
	r.mu.Unlock()
	go func() {
		<-ctx.Done()
		r.mu.Lock()
		delete(r.subs, ch)
		close(ch)
		r.mu.Unlock()
	}()
	return ch
}

// LastTickAge is how long ago (wall time) the feed last stepped; negative before the first step.
func (r *Replay) LastTickAge() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lastStep.IsZero() {
		return -1
	}
	return r.opt.Clock.Now().Sub(r.lastStep)
}

// Dropped counts ticks lost to full subscriber buffers.
func (r *Replay) Dropped() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dropped
}

// Ticker implements domain.MarketData.
func (r *Replay) Ticker(symbol string) (domain.Ticker, error) {
	m := r.Now()
	sec := m.Unix()
	r.mu.Lock()
	c, ok := r.tickerCache[symbol]
	r.mu.Unlock()
	if ok && c.sec == sec {
		t := c.t
		t.Time = m
		return t, nil
	}
	t, err := r.ticker(symbol, m)
	if err != nil {
		return t, err
	}
	r.mu.Lock()
	r.tickerCache[symbol] = cachedTicker{sec: sec, t: t}
	r.mu.Unlock()
	return t, nil
}

type cachedTicker struct {
	sec int64
	t   domain.Ticker
}

// ticker computes symbol's ticker at market time m.
func (r *Replay) ticker(symbol string, m time.Time) (domain.Ticker, error) {
	price, _, err := r.PriceAt(symbol, m)
	if err != nil {
		return domain.Ticker{}, err
	}
	st := r.stats(symbol, m)
	step := r.tick(symbol)
	bid, ask := BidAsk(price, r.opt.HalfSpread, step)
	return domain.Ticker{Symbol: symbol, Price: price, Bid: bid, Ask: ask, Volume24h: st.Volume, Time: m}, nil
}

// Stats implements domain.MarketData.
func (r *Replay) Stats(symbol string) (domain.Stats24h, error) {
	if _, ok := r.series[symbol]; !ok {
		return domain.Stats24h{}, unknown(symbol)
	}
	return r.stats(symbol, r.Now()), nil
}

// stats summarises the 24 hours of market time before m. The summary is
// cached per market second: every ticker read in that second shares it.
func (r *Replay) stats(symbol string, m time.Time) domain.Stats24h {
	sec := m.Unix()
	r.mu.Lock()
	if c, ok := r.statsCache[symbol]; ok && c.sec == sec {
		r.mu.Unlock()
		return c.stats
	}
	r.mu.Unlock()
	st := r.computeStats(symbol, m)
	r.mu.Lock()
	r.statsCache[symbol] = cachedStats{sec: sec, stats: st}
	r.mu.Unlock()
	return st
}

type cachedStats struct {
	sec   int64
	stats domain.Stats24h
}

func (r *Replay) computeStats(symbol string, m time.Time) domain.Stats24h {
	cs := r.slots(symbol, m.Add(-24*time.Hour).Truncate(slot).Add(slot), m, m)
	st := domain.Stats24h{Symbol: symbol}
	for i, c := range cs {
		if i == 0 {
			st.Open, st.High, st.Low = c.Open, c.High, c.Low
		}
		st.High = decimal.Max(st.High, c.High)
		st.Low = decimal.Min(st.Low, c.Low)
		st.Last = c.Close
		st.Volume = st.Volume.Add(c.Volume)
	}
	st.Volume = st.Volume.Round(8)
	if st.Open.IsPositive() {
		st.Change = st.Last.Sub(st.Open)
		st.ChangePercent = st.Change.Div(st.Open).Mul(decimal.NewFromInt(100)).Round(2)
	}
	return st
}

// slots returns the 15-minute candles opening in [from, to] and not after now;
// the one open at now is built from the walk so far.
func (r *Replay) slots(symbol string, from, to, now time.Time) []domain.Candle {
	cur := now.Truncate(slot)
	if to.After(cur) {
		to = cur
	}
	var out []domain.Candle
	for t := from.Truncate(slot); !t.After(to); t = t.Add(slot) {
		var c domain.Candle
		var ok bool
		if t.Equal(cur) {
			c, ok = r.partial(symbol, now)
		} else {
			c, ok = r.historic(symbol, t)
		}
		if ok {
			out = append(out, c)
		}
	}
	return out
}

// Candles implements domain.MarketData.
func (r *Replay) Candles(ctx context.Context, symbol string, g domain.Granularity, start, end time.Time, limit int) ([]domain.Candle, error) {
	if _, ok := r.series[symbol]; !ok {
		return nil, unknown(symbol)
	}
	width := g.Duration()
	if width == 0 {
		return nil, domain.Errorf(domain.EInvalid, "Unsupported granularity: %s", g)
	}
	if limit <= 0 {
		limit = 100
	}
	now := r.Now()
	if end.IsZero() || end.After(now) {
		end = now.Add(time.Nanosecond) // include the live candle
	}
	if start.IsZero() {
		start = end.Add(-time.Duration(limit) * width).Truncate(width)
	}
	var out []domain.Candle
	if width < slot {
		out = r.fine(ctx, symbol, width, start, end, now)
	} else {
		out = r.buckets(ctx, symbol, width, start, end, now)
	}
	if len(out) > limit {
		out = out[len(out)-limit:]
	}
	return out, ctx.Err()
}

// fine builds candles narrower than the 15-minute data (1 and 5 minutes)
// from the replay's own second-by-second path, so they exist for any past
// time, at any replay speed, and agree with the ticks the market sent: open
// is the price at the bucket's start, close the price at its end (the next
// bucket's open, as a 15-minute candle's close is its last point), high and
// low over every second in between. Volume is the slot's, pro rata.
func (r *Replay) fine(ctx context.Context, symbol string, width time.Duration, start, end, now time.Time) []domain.Candle {
	var out []domain.Candle
	for b := start.Truncate(width); b.Before(end) && !b.After(now) && ctx.Err() == nil; b = b.Add(width) {
		open := b.Truncate(slot)
		c, ok := r.historic(symbol, open)
		if !ok {
			continue // a gap in the data: no trades, no candle
		}
		w := r.walkFor(symbol, c)
		i0 := int(b.Sub(open) / time.Second)
		i1 := i0 + int(width/time.Second)
		if live := int(now.Sub(open) / time.Second); b.Add(width).After(now) && live < i1 {
			i1 = live // the bucket still open: up to now
		}
		k := decimal.NewFromInt(int64(i1 - i0)).Div(decimal.NewFromInt(stepsPerCandle))
		fc := domain.Candle{Time: b, Open: w.points[i0], High: w.points[i0], Low: w.points[i0], Close: w.points[i1],
			Volume: c.Volume.Mul(k).Round(8)}
		for _, p := range w.points[i0 : i1+1] {
			fc.High = decimal.Max(fc.High, p)
			fc.Low = decimal.Min(fc.Low, p)
		}
		out = append(out, fc)
	}
	return out
}

// buckets aggregates 15-minute slots into candles of width (aligned to UTC).
func (r *Replay) buckets(ctx context.Context, symbol string, width time.Duration, start, end, now time.Time) []domain.Candle {
	var out []domain.Candle
	for b := start.Truncate(width); b.Before(end) && ctx.Err() == nil; b = b.Add(width) {
		for _, c := range r.slots(symbol, b, b.Add(width-slot), now) {
			out = merge(out, c, b)
		}
	}
	return out
}

// Range implements the sandbox's Ranger: the lowest and highest price of
// symbol at the market seconds in (from, to]. At most a day is scanned;
// a longer span reports only its last day.
func (r *Replay) Range(symbol string, from, to time.Time) (decimal.Decimal, decimal.Decimal, bool) {
	if !to.After(from) {
		return decimal.Zero, decimal.Zero, false
	}
	if to.Sub(from) > 24*time.Hour {
		from = to.Add(-24 * time.Hour)
	}
	var lo, hi decimal.Decimal
	found := false
	for m := from.Truncate(time.Second).Add(time.Second); !m.After(to); m = m.Add(time.Second) {
		p, _, err := r.PriceAt(symbol, m)
		if err != nil {
			return decimal.Zero, decimal.Zero, false
		}
		if !found || p.LessThan(lo) {
			lo = p
		}
		if !found || p.GreaterThan(hi) {
			hi = p
		}
		found = true
	}
	return lo, hi, found
}
