package marketdata

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/candles"
	"kestrel/domain"
	"kestrel/replay"
)

// Stored is the one width the store keeps (see the package doc).
const Stored = domain.FifteenMinute

const day = 24 * time.Hour

// History reads the candle store by real market dates.
type History struct {
	st   domain.CandleStore
	seed int64 // of the generated paths inside a candle (ONE_MINUTE, FIVE_MINUTE)

	mu    sync.Mutex
	daily dailyCache
}

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
	return &History{st: st, seed: seed}
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

// Coverage lists every symbol and granularity stored, with the holes in
// each, ordered by symbol.
func (h *History) Coverage(ctx context.Context) ([]Coverage, error) {
	spans, err := h.st.CandleSpans(ctx)
	if err != nil {
		return nil, err
	}
	out := []Coverage{}
	for _, sp := range merged(spans) {
		gaps, err := h.st.CandleGaps(ctx, sp.Symbol, sp.Granularity)
		if err != nil {
			return nil, err
		}
		sp.Gaps = gaps
		out = append(out, sp)
	}
	return out, nil
}

// Span is where symbol's stored history begins and ends; not_found when
// the store holds nothing for it.
func (h *History) Span(ctx context.Context, symbol string) (Span, error) {
	first, last, err := h.st.CandleBounds(ctx, symbol, Stored)
	if err != nil {
		return Span{}, err
	}
	return Span{Symbol: symbol, From: first, To: last.Add(candles.Width)}, nil
}

// merged folds the spans of one symbol and granularity from several
// sources into one coverage.
func merged(spans []domain.CandleSpan) []Coverage {
	var out []Coverage
	for _, sp := range spans {
		w := sp.Granularity.Duration()
		n := len(out)
		if n > 0 && out[n-1].Symbol == sp.Symbol && out[n-1].Granularity == sp.Granularity {
			c := &out[n-1]
			if sp.First.Before(c.From) {
				c.From = sp.First
			}
			if end := sp.Last.Add(w); end.After(c.To) {
				c.To = end
			}
			c.Candles += sp.Count
			c.Source += ", " + sp.Source
			continue
		}
		out = append(out, Coverage{Symbol: sp.Symbol, Granularity: sp.Granularity, From: sp.First, To: sp.Last.Add(w), Candles: sp.Count,
			Gaps: []domain.CandleGap{}, Source: sp.Source})
	}
	return out
}

// Candles returns symbol's candles of width g opening in [from, to) by real
// dates: stored, aggregated from stored 15-minute candles, or (ONE_MINUTE,
// FIVE_MINUTE) cut from generated paths inside them (Synthetic).
func (h *History) Candles(ctx context.Context, symbol string, g domain.Granularity, from, to time.Time) (Window, error) {
	w := g.Duration()
	if w == 0 {
		return Window{}, domain.Errorf(domain.EInvalid, "Unsupported granularity: %s", g)
	}
	lo, hi := from.Truncate(max(w, candles.Width)), ceil(to, max(w, candles.Width))
	stored, err := h.st.StoredCandles(ctx, symbol, Stored, lo, hi)
	if err != nil {
		return Window{}, err
	}
	sources, err := h.st.CandleSources(ctx, symbol, Stored, lo, hi)
	if err != nil {
		return Window{}, err
	}
	out := Window{Source: strings.Join(sources, ", ")}
	switch {
	case w == candles.Width:
		out.Candles = stored
	case w > candles.Width:
		out.Candles = aggregate(stored, w)
	default:
		if out.Candles, err = h.fine(ctx, symbol, stored, w); err != nil {
			return Window{}, err
		}
		out.Synthetic = true
	}
	// Keep the candles opening in [from, to) (a wider bucket that opened
	// before from is kept, as the live market's candles are).
	first := from.Truncate(w)
	out.Candles = slices.DeleteFunc(out.Candles, func(c domain.Candle) bool { return c.Time.Before(first) || !c.Time.Before(to) })
	return out, nil
}

func ceil(t time.Time, w time.Duration) time.Time {
	if c := t.Truncate(w); c.Equal(t) {
		return c
	}
	return t.Truncate(w).Add(w)
}

// aggregate merges ascending 15-minute candles into candles of width w,
// aligned to UTC.
func aggregate(cs []domain.Candle, w time.Duration) []domain.Candle {
	out := make([]domain.Candle, 0, len(cs)/int(w/candles.Width)+1)
	for _, c := range cs {
		open := c.Time.Truncate(w)
		n := len(out)
		if n > 0 && out[n-1].Time.Equal(open) {
			b := &out[n-1]
			b.High = decimal.Max(b.High, c.High)
			b.Low = decimal.Min(b.Low, c.Low)
			b.Close = c.Close
			b.Volume = b.Volume.Add(c.Volume)
			continue
		}
		c.Time = open
		out = append(out, c)
	}
	return out
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
