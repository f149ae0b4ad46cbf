package replay

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/candles"
	"kestrel/domain"
)

const slot = candles.Width

// Options configure a Replay; zero values take the defaults.
type Options struct {
	Symbols      []string        // default: every shipped symbol
	Seed         int64           // default 1
	Speed        float64         // market seconds per wall second; default 1
	Clock        domain.Clock    // default: the system clock
	TickInterval time.Duration   // default 1 s
	HalfSpread   decimal.Decimal // bid/ask distance from the price as a fraction; default 0.0005
	SubBuffer    int             // ticks buffered per subscriber; default 256
}

// Replay implements domain.MarketData over the shipped candles.
type Replay struct {
	opt    Options
	series map[string]*candles.Series
	first  time.Time     // first candle's open time (same for every symbol)
	period time.Duration // loop length: the data span rounded down to whole days
	t0     time.Time     // wall time the market clock starts running at Speed

	mu       sync.Mutex
	walks    map[string][]cachedWalk // per symbol, the most recently used first
	lastStep time.Time               // wall time of the last Step
	lastMkt  map[string]time.Time
	// statsCache holds each symbol's 24-hour summary for the current market second.
	statsCache map[string]cachedStats
	// tickerCache holds each symbol's ticker for the current market second:
	// the price path moves once a second, and every order's risk check
	// values the account at the tickers.
	tickerCache map[string]cachedTicker
	subs        map[chan domain.Tick]struct{}
	dropped     int64
}

// walkCache is how many walks are kept per symbol.
const walkCache = 8

type cachedWalk struct {
	open time.Time
	w    *walk
}

var _ domain.MarketData = (*Replay)(nil)

// New loads the data for every symbol and returns a replay ready to Start.
func New(opt Options) (*Replay, error) {
	if len(opt.Symbols) == 0 {
		opt.Symbols = candles.Symbols()
	}
	if opt.Seed == 0 {
		opt.Seed = 1
	}
	if opt.Speed <= 0 {
		opt.Speed = 1
	}
	if opt.Clock == nil {
		opt.Clock = domain.SystemClock{}
	}
	if opt.TickInterval <= 0 {
		opt.TickInterval = time.Second
	}
	if opt.HalfSpread.IsZero() {
		opt.HalfSpread = decimal.RequireFromString("0.0005")
	}
	if opt.SubBuffer <= 0 {
		opt.SubBuffer = 256
	}
	r := &Replay{opt: opt, series: map[string]*candles.Series{}, walks: map[string][]cachedWalk{},
		lastMkt: map[string]time.Time{}, statsCache: map[string]cachedStats{}, tickerCache: map[string]cachedTicker{}, subs: map[chan domain.Tick]struct{}{}, t0: opt.Clock.Now()}
	if err := r.load(); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *Replay) load() error {
	type res struct {
		s   *candles.Series
		err error
	}
	out := make([]res, len(r.opt.Symbols))
	var wg sync.WaitGroup
	for i, sym := range r.opt.Symbols {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := candles.Load(sym)
			out[i] = res{s, err}
		}()
	}
	wg.Wait()
	var end time.Time
	for i, sym := range r.opt.Symbols {
		if out[i].err != nil {
			return fmt.Errorf("replay %s: %w", sym, out[i].err)
		}
		s := out[i].s
		r.series[sym] = s
		if r.first.IsZero() || s.First().Before(r.first) {
			r.first = s.First()
		}
		if end.IsZero() || s.End().Before(end) {
			end = s.End()
		}
	}
	r.period = end.Sub(r.first).Truncate(24 * time.Hour)
	return nil
}

// Symbols implements domain.MarketData.
func (r *Replay) Symbols() []string { return slices.Clone(r.opt.Symbols) }

// MarketTime maps a wall time to market time (see the package doc).
func (r *Replay) MarketTime(wall time.Time) time.Time {
	if r.opt.Speed == 1 || wall.Before(r.t0) {
		return wall.UTC()
	}
	return r.t0.Add(time.Duration(float64(wall.Sub(r.t0)) * r.opt.Speed)).UTC()
}

// Now is the current market time.
func (r *Replay) Now() time.Time { return r.MarketTime(r.opt.Clock.Now()) }

// DataTime is the real time of the shipped candle that plays at market time
// m (backtests warn when a model may remember that real period).
func (r *Replay) DataTime(m time.Time) time.Time { return r.dataTime(m) }

// Replaying is the real time of the history playing now: the sandbox's
// prices are those of that moment, shifted to the present, and the screens
// say so.
func (r *Replay) Replaying() time.Time { return r.dataTime(r.Now()) }

// dataTime maps a market time to the data's time (the loop).
func (r *Replay) dataTime(m time.Time) time.Time {
	off := m.Sub(r.first) % r.period
	if off < 0 {
		off += r.period
	}
	return r.first.Add(off)
}

func (r *Replay) tick(symbol string) decimal.Decimal { return candles.PriceIncrement(symbol) }

// historic returns the real candle for the market slot opening at open, relabelled
// to market time; false in a gap.
func (r *Replay) historic(symbol string, open time.Time) (domain.Candle, bool) {
	c, ok := r.series[symbol].At(r.dataTime(open))
	if !ok {
		return c, false
	}
	c.Time = open
	return c, true
}

// walkFor returns (and caches) the walk of the candle c of symbol.
func (r *Replay) walkFor(symbol string, c domain.Candle) *walk {
	r.mu.Lock()
	defer r.mu.Unlock()
	ws := r.walks[symbol]
	for i, cw := range ws {
		if cw.open.Equal(c.Time) {
			copy(ws[1:i+1], ws[:i]) // move to the front
			ws[0] = cw
			return cw.w
		}
	}
	w := newWalk(r.opt.Seed, symbol, c, r.tick(symbol))
	// A few walks per symbol: the live candle's, and the recent ones that
	// 1- and 5-minute candles and ranges read.
	r.walks[symbol] = append([]cachedWalk{{c.Time, w}}, ws[:min(len(ws), walkCache-1)]...)
	return w
}

// PriceAt is the replayed price of symbol at market time m, and the volume
// traded per market second then.
func (r *Replay) PriceAt(symbol string, m time.Time) (decimal.Decimal, decimal.Decimal, error) {
	s, ok := r.series[symbol]
	if !ok {
		return decimal.Zero, decimal.Zero, unknown(symbol)
	}
	open := m.Truncate(slot)
	if c, ok := r.historic(symbol, open); ok {
		i := int(m.Sub(open) / time.Second)
		return r.walkFor(symbol, c).points[i], c.Volume.Div(decimal.NewFromInt(stepsPerCandle)), nil
	}
	if prev, ok := s.Before(r.dataTime(open)); ok {
		return prev.Close, decimal.Zero, nil // a gap: the price holds
	}
	return s.Candle(0).Open, decimal.Zero, nil
}

// partial is the current slot's candle built from the walk up to m.
func (r *Replay) partial(symbol string, m time.Time) (domain.Candle, bool) {
	open := m.Truncate(slot)
	c, ok := r.historic(symbol, open)
	if !ok {
		return c, false
	}
	w := r.walkFor(symbol, c)
	n := int(m.Sub(open) / time.Second)
	out := domain.Candle{Time: open, Open: c.Open, High: c.Open, Low: c.Open, Close: w.points[n]}
	for _, p := range w.points[:n+1] {
		out.High = decimal.Max(out.High, p)
		out.Low = decimal.Min(out.Low, p)
	}
	out.Volume = c.Volume.Mul(decimal.NewFromInt(int64(n))).Div(decimal.NewFromInt(stepsPerCandle)).Round(8)
	return out, true
}

func unknown(symbol string) error {
	return domain.Errorf(domain.ENotFound, "Unknown symbol: %s", symbol)
}
