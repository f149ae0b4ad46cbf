package marketdata

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/candles"
	"kestrel/domain"
	"kestrel/replay"
)

// Stored is the width of the shipped candles: the finest stored, and the
// one the generated one- and five-minute candles are cut from.
const Stored = domain.FifteenMinute

const day = 24 * time.Hour

// History reads the candle store by real market dates.
type History struct {
	st   domain.CandleStore
	seed int64 // of the generated paths inside a candle (ONE_MINUTE, FIVE_MINUTE)

	mu    sync.Mutex
	daily dailyCache

	// Coverage's answer, kept for CoverageTTL or until Changed: reading
	// it scans every stored candle (seconds for four symbols), and every
	// backtest and research screen asks for it on opening.
	gen   atomic.Uint64 // bumped by Changed
	cov   coverageCache
	clock func() time.Time
}

// CoverageTTL is how long Coverage's answer is kept without a Changed:
// writes this process makes (a backfill) call Changed at once; another
// node's, sharing the database, are seen within it (until then a form
// may offer a shorter period than the store holds; the server checks the
// period against the store itself).
const CoverageTTL = 5 * time.Minute

type coverageCache struct {
	gen  uint64
	at   time.Time
	rows []Coverage
}

// Changed says the stored candles changed: the next Coverage reads them.
func (h *History) Changed() { h.gen.Add(1) }

// dailyCache holds Daily's answer for the spans it was computed from.
type dailyCache struct {
	key  string
	days map[string][]domain.Candle
}

// New returns a reader of st; seed seeds the generated intra-candle paths.
func New(st domain.CandleStore, seed int64) *History {
	if seed == 0 {
		seed = 1
	}
	return &History{st: st, seed: seed, clock: time.Now}
}

// Window is candles read by real dates and what they are made of.
type Window struct {
	Candles []domain.Candle
	// Source names where the stored candles came from.
	Source string
	// Synthetic is true when the candles were cut from generated
	// intra-candle paths (ONE_MINUTE, FIVE_MINUTE), not read from the data.
	Synthetic bool
}

// Coverage is what the store holds of one symbol at one granularity.
type Coverage struct {
	Symbol      string             `json:"symbol"`
	Granularity domain.Granularity `json:"granularity"`
	From        time.Time          `json:"from"` // open time of the oldest candle
	To          time.Time          `json:"to"`   // close time of the newest candle
	Candles     int                `json:"candles"`
	Gaps        []domain.CandleGap `json:"gaps"`
	Source      string             `json:"source"`
}

// Span is where a symbol's stored history begins and ends.
type Span struct {
	Symbol string
	From   time.Time // open time of the oldest candle
	To     time.Time // close time of the newest candle
}

// Span is c's span.
func (c Coverage) Span() Span { return Span{Symbol: c.Symbol, From: c.From, To: c.To} }

// Message is the span in words, as a refused period is told:
// "Market data for BTC-USD covers 2024-04-18 to 2026-05-07", from the first
// day with data to the last whole UTC day.
func (s Span) Message() string {
	return fmt.Sprintf("Market data for %s covers %s to %s", s.Symbol, s.From.Format(time.DateOnly), s.LastDay().Format(time.DateOnly))
}

// FirstDay is the UTC day of the oldest candle.
func (s Span) FirstDay() time.Time { return s.From.Truncate(day) }

// LastDay is the last UTC day the data covers to its end.
func (s Span) LastDay() time.Time { return s.To.Truncate(day).Add(-day) }

// Covers reports whether the days [start, end) (end exclusive, at 00:00
// UTC) lie within the span: from the first day with data to the end of the
// last whole day.
func (s Span) Covers(start, end time.Time) bool {
	return !start.Before(s.FirstDay()) && !end.After(s.LastDay().Add(day)) && start.Before(end)
}

// Coverage lists every symbol, granularity and source stored, ordered by
// symbol, granularity and source. Gaps are the holes in the stored history
// at that granularity (no source has a candle there) inside the row's
// [From, To).
func (h *History) Coverage(ctx context.Context) ([]Coverage, error) {
	gen, now := h.gen.Load(), h.clock()
	h.mu.Lock()
	c := h.cov
	h.mu.Unlock()
	if c.rows != nil && c.gen == gen && now.Sub(c.at) < CoverageTTL {
		return slices.Clone(c.rows), nil
	}
	rows, err := h.coverage(ctx)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	h.cov = coverageCache{gen: gen, at: now, rows: rows}
	h.mu.Unlock()
	return slices.Clone(rows), nil
}

func (h *History) coverage(ctx context.Context) ([]Coverage, error) {
	spans, err := h.st.CandleSpans(ctx)
	if err != nil {
		return nil, err
	}
	out := []Coverage{}
	gaps := map[string][]domain.CandleGap{}
	for _, sp := range spans {
		key := sp.Symbol + "|" + string(sp.Granularity)
		all, ok := gaps[key]
		if !ok {
			if all, err = h.st.CandleGaps(ctx, sp.Symbol, sp.Granularity); err != nil {
				return nil, err
			}
			gaps[key] = all
		}
		c := Coverage{Symbol: sp.Symbol, Granularity: sp.Granularity, From: sp.First, To: sp.Last.Add(sp.Granularity.Duration()), Candles: sp.Count,
			Gaps: []domain.CandleGap{}, Source: sp.Source}
		for _, g := range all {
			if g.From.Before(c.To) && g.To.After(c.From) {
				c.Gaps = append(c.Gaps, g)
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// Span is where symbol's stored history begins and ends, over every width
// stored (the shipped 15-minute candles and any backfilled ones); not_found
// when the store holds nothing for it.
func (h *History) Span(ctx context.Context, symbol string) (Span, error) {
	var out Span
	for _, g := range Backfillable {
		first, last, err := h.st.CandleBounds(ctx, symbol, g)
		if domain.ErrorCode(err) == domain.ENotFound {
			continue
		}
		if err != nil {
			return Span{}, err
		}
		if out.From.IsZero() || first.Before(out.From) {
			out.From = first
		}
		if end := last.Add(g.Duration()); end.After(out.To) {
			out.To = end
		}
	}
	if out.From.IsZero() {
		return Span{}, domain.Errorf(domain.ENotFound, "No market data is stored for %s", symbol)
	}
	out.Symbol = symbol
	return out, nil
}

// Candles returns symbol's candles of width g opening in [from, to) by real
// dates: those stored at g, else built from the widest narrower width
// stored that divides g (bucket by bucket, so a backfilled hourly range and
// the shipped 15-minute candles make one series), or (ONE_MINUTE,
// FIVE_MINUTE) cut from generated paths inside the 15-minute candles
// (Synthetic). Source names the sources of the candles used.
func (h *History) Candles(ctx context.Context, symbol string, g domain.Granularity, from, to time.Time) (Window, error) {
	w := g.Duration()
	if w == 0 {
		return Window{}, domain.Errorf(domain.EInvalid, "Unsupported granularity: %s", g)
	}
	var out Window
	if w < candles.Width {
		lo, hi := from.Truncate(candles.Width), ceil(to, candles.Width)
		stored, err := h.st.StoredCandles(ctx, symbol, Stored, lo, hi)
		if err != nil {
			return Window{}, err
		}
		sources, err := h.st.CandleSources(ctx, symbol, Stored, lo, hi)
		if err != nil {
			return Window{}, err
		}
		out.Source = strings.Join(sources, ", ")
		if out.Candles, err = h.fine(ctx, symbol, stored, w); err != nil {
			return Window{}, err
		}
		out.Synthetic = true
	} else {
		var err error
		if out, err = h.layered(ctx, symbol, g, from.Truncate(w), ceil(to, w)); err != nil {
			return Window{}, err
		}
	}
	// Keep the candles opening in [from, to) (a wider bucket that opened
	// before from is kept, as the live market's candles are).
	first := from.Truncate(w)
	out.Candles = slices.DeleteFunc(out.Candles, func(c domain.Candle) bool { return c.Time.Before(first) || !c.Time.Before(to) })
	return out, nil
}

// layers are the stored widths a candle of width g is read from, in order
// of preference: g itself, then each narrower width that divides it,
// widest first (fewest pieces).
func layers(g domain.Granularity) []domain.Granularity {
	w := g.Duration()
	out := []domain.Granularity{}
	for i := len(Backfillable) - 1; i >= 0; i-- {
		lw := Backfillable[i].Duration()
		if lw <= w && w%lw == 0 {
			out = append(out, Backfillable[i])
		}
	}
	return out
}

// layered reads candles of width g opening in [lo, hi), each bucket from
// the first layer that has it whole (every narrower candle of it stored);
// a bucket no layer has whole is built from the layer covering most of it
// (the first such layer on a tie), so a backfill that starts mid-day never
// hides a whole day the shipped data has.
func (h *History) layered(ctx context.Context, symbol string, g domain.Granularity, lo, hi time.Time) (Window, error) {
	w := g.Duration()
	type layer struct {
		g       domain.Granularity
		buckets []counted
		at      int // the next bucket to merge
		from    time.Time
		to      time.Time // the range of its buckets used
		used    bool
	}
	var ls []*layer
	for _, lg := range layers(g) {
		stored, err := h.st.StoredCandles(ctx, symbol, lg, lo, hi)
		if err != nil {
			return Window{}, err
		}
		if len(stored) == 0 {
			continue
		}
		if lg == g && len(ls) == 0 && lg == Stored {
			// Only the stored width can hold a 15-minute candle: nothing to merge.
			srcs, err := h.st.CandleSources(ctx, symbol, lg, lo, hi)
			if err != nil {
				return Window{}, err
			}
			return Window{Candles: stored, Source: strings.Join(srcs, ", ")}, nil
		}
		ls = append(ls, &layer{g: lg, buckets: aggregateCounted(stored, w, lg.Duration())})
	}
	// Merge the layers' ascending buckets: each bucket time once, from the
	// first layer that has it whole, else the one covering most of it.
	var cs []domain.Candle
	for {
		var next time.Time
		for _, l := range ls {
			if l.at < len(l.buckets) && (next.IsZero() || l.buckets[l.at].c.Time.Before(next)) {
				next = l.buckets[l.at].c.Time
			}
		}
		if next.IsZero() {
			break
		}
		var pick *layer
		for _, l := range ls {
			if l.at >= len(l.buckets) || !l.buckets[l.at].c.Time.Equal(next) {
				continue
			}
			if pick == nil || (pick.buckets[pick.at].cover < w && l.buckets[l.at].cover > pick.buckets[pick.at].cover) {
				pick = l
			}
		}
		cs = append(cs, pick.buckets[pick.at].c)
		if !pick.used {
			pick.from, pick.used = next, true
		}
		pick.to = next.Add(w)
		for _, l := range ls {
			if l.at < len(l.buckets) && l.buckets[l.at].c.Time.Equal(next) {
				l.at++
			}
		}
	}
	var sources []string
	for _, l := range ls {
		if !l.used {
			continue
		}
		srcs, err := h.st.CandleSources(ctx, symbol, l.g, l.from, l.to)
		if err != nil {
			return Window{}, err
		}
		for _, s := range srcs {
			if !slices.Contains(sources, s) {
				sources = append(sources, s)
			}
		}
	}
	slices.Sort(sources)
	if cs == nil {
		cs = []domain.Candle{}
	}
	return Window{Candles: cs, Source: strings.Join(sources, ", ")}, nil
}

// counted is a candle of a wider width and how much of it the stored
// candles that made it cover.
type counted struct {
	c     domain.Candle
	cover time.Duration
}

// aggregateCounted merges ascending candles of width lw into candles of
// width w, aligned to UTC (first open, highest high, lowest low, last
// close, summed volume), with how much of each bucket they cover.
func aggregateCounted(cs []domain.Candle, w, lw time.Duration) []counted {
	out := make([]counted, 0, len(cs)/max(int(w/lw), 1)+1)
	for _, c := range cs {
		open := c.Time.Truncate(w)
		n := len(out)
		if n > 0 && out[n-1].c.Time.Equal(open) {
			b := &out[n-1]
			b.c.High = decimal.Max(b.c.High, c.High)
			b.c.Low = decimal.Min(b.c.Low, c.Low)
			b.c.Close = c.Close
			b.c.Volume = b.c.Volume.Add(c.Volume)
			b.cover += lw
			continue
		}
		c.Time = open
		out = append(out, counted{c: c, cover: lw})
	}
	return out
}

// Report is what a backtest at one width reads of a symbol: the range, the
// candles, their sources and the buckets no stored candle fills.
type Report struct {
	Symbol      string             `json:"symbol"`
	Granularity domain.Granularity `json:"granularity"`
	From        time.Time          `json:"from"`
	To          time.Time          `json:"to"`
	Candles     int                `json:"candles"`
	Source      string             `json:"source"`
	Synthetic   bool               `json:"synthetic"`
	Gaps        []domain.CandleGap `json:"gaps"`
}

// Gaps reports what a backtest of symbol at g would read in [from, to)
// (zero times: the symbol's whole span), with every run of missing buckets.
func (h *History) Gaps(ctx context.Context, symbol string, g domain.Granularity, from, to time.Time) (Report, error) {
	w := g.Duration()
	if w == 0 {
		return Report{}, domain.Errorf(domain.EInvalid, "Unsupported granularity: %s", g)
	}
	span, err := h.Span(ctx, symbol)
	if err != nil {
		return Report{}, err
	}
	if from.IsZero() || from.Before(span.From) {
		from = span.From
	}
	if to.IsZero() || to.After(span.To) {
		to = span.To
	}
	// One- and five-minute candles are cut from the 15-minute ones, a fixed
	// number from each: their gaps are those of the 15-minute candles, and
	// reading the 15-minute candles spares generating every path.
	read, per := g, 1
	if w < candles.Width {
		read, per, w = Stored, int(candles.Width/w), candles.Width
	}
	from, to = from.Truncate(w), ceil(to, w)
	rep := Report{Symbol: symbol, Granularity: g, From: from, To: to, Gaps: []domain.CandleGap{}, Synthetic: read != g}
	if !from.Before(to) {
		return rep, nil
	}
	win, err := h.Candles(ctx, symbol, read, from, to)
	if err != nil {
		return Report{}, err
	}
	rep.Candles, rep.Source = len(win.Candles)*per, win.Source
	next := from
	for _, c := range win.Candles {
		if c.Time.After(next) {
			rep.Gaps = append(rep.Gaps, domain.CandleGap{From: next, To: c.Time})
		}
		next = c.Time.Add(w)
	}
	if next.Before(to) {
		rep.Gaps = append(rep.Gaps, domain.CandleGap{From: next, To: to})
	}
	return rep, nil
}

// fine cuts candles of width w (1 or 5 minutes) from the seeded path inside
// each stored candle: open at the bucket's first second, close at its end,
// high and low over every second, the candle's volume pro rata.
// Generating a path is the slow part (a year of them takes seconds), so a
// cancelled request stops it.
func (h *History) fine(ctx context.Context, symbol string, cs []domain.Candle, w time.Duration) ([]domain.Candle, error) {
	per := int(w / time.Second)
	k := decimal.NewFromInt(int64(per)).Div(decimal.NewFromInt(int64(candles.Width / time.Second)))
	inc := candles.PriceIncrement(symbol)
	out := make([]domain.Candle, 0, len(cs)*int(candles.Width/w))
	for i, c := range cs {
		if i%256 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		path := replay.Path(h.seed, symbol, c, inc)
		vol := c.Volume.Mul(k).Round(8)
		for i0 := 0; i0+per < len(path); i0 += per {
			fc := domain.Candle{Time: c.Time.Add(time.Duration(i0) * time.Second), Open: path[i0], High: path[i0], Low: path[i0], Close: path[i0+per], Volume: vol}
			for _, p := range path[i0 : i0+per+1] {
				fc.High = decimal.Max(fc.High, p)
				fc.Low = decimal.Min(fc.Low, p)
			}
			out = append(out, fc)
		}
	}
	return out, nil
}

// Daily returns the whole UTC days in the store of each of symbols that has
// any (the last day is left out unless the data reaches its end), for the
// analytics statistics drawn from history. The answer is kept until a
// symbol's span changes.
func (h *History) Daily(ctx context.Context, symbols []string) (map[string][]domain.Candle, error) {
	var spans []Span
	for _, sym := range symbols {
		sp, err := h.Span(ctx, sym)
		if domain.ErrorCode(err) == domain.ENotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		spans = append(spans, sp)
	}
	key := fmt.Sprint(spans)
	h.mu.Lock()
	if h.daily.key == key {
		days := h.daily.days
		h.mu.Unlock()
		return days, nil
	}
	h.mu.Unlock()
	out := map[string][]domain.Candle{}
	for _, c := range spans {
		win, err := h.Candles(ctx, c.Symbol, domain.OneDay, c.FirstDay(), c.To.Truncate(day))
		if err != nil {
			return nil, err
		}
		out[c.Symbol] = win.Candles
	}
	h.mu.Lock()
	h.daily = dailyCache{key: key, days: out}
	h.mu.Unlock()
	return out, nil
}

func ceil(t time.Time, w time.Duration) time.Time {
	if c := t.Truncate(w); c.Equal(t) {
		return c
	}
	return t.Truncate(w).Add(w)
}
