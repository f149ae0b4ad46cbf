package marketdata

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"kestrel/domain"
)

// BackfillJobKind is the jobs runner's kind for a market-data backfill:
// its parameters are a BackfillRequest; it resumes from its stored cursor.
const BackfillJobKind = "backfill"

// BackfillSource is the source recorded for candles a backfill fetched from
// Coinbase's public candles (the shipped ones keep ShippedSource).
const BackfillSource = "coinbase"

// MaxBackfillCandles caps one backfill: about three years of 15-minute
// candles, 286 requests.
const MaxBackfillCandles = 100_000

// PageCandles is the most candles one request asks for (Coinbase answers
// at most 350 per request).
const PageCandles = 350

// Backfillable are the widths a backfill stores. ONE_MINUTE and
// FIVE_MINUTE are left out: backtests cut them from generated paths inside
// the 15-minute candles (see the package doc), so stored ones would not be
// read.
var Backfillable = []domain.Granularity{domain.FifteenMinute, domain.ThirtyMinute, domain.OneHour, domain.TwoHour, domain.SixHour, domain.OneDay}

// BackfillRequest is one backfill: symbol's candles of width Granularity
// opening in [Start, End).
type BackfillRequest struct {
	Symbol      string             `json:"symbol"`
	Granularity domain.Granularity `json:"granularity"`
	Start       time.Time          `json:"start"`
	End         time.Time          `json:"end"`
}

// Check validates r against the known symbols and the time now, and
// returns it normalised: the symbol upper-cased, Start aligned down and End
// up to the width, End at most the close of the last candle closed by now
// (an unfinished candle is never stored). Every problem is a field error.
func (r BackfillRequest) Check(symbols []string, now time.Time) (BackfillRequest, error) {
	fields := map[string]string{}
	r.Symbol = strings.ToUpper(strings.TrimSpace(r.Symbol))
	if r.Symbol == "" {
		fields["symbol"] = "symbol is required"
	} else if !slices.Contains(symbols, r.Symbol) {
		fields["symbol"] = fmt.Sprintf("Unknown symbol %s: one of %s", r.Symbol, strings.Join(symbols, ", "))
	}
	w := r.Granularity.Duration()
	if !slices.Contains(Backfillable, r.Granularity) {
		names := make([]string, len(Backfillable))
		for i, g := range Backfillable {
			names[i] = string(g)
		}
		fields["granularity"] = "granularity must be one of " + strings.Join(names, ", ") + " (one- and five-minute candles are generated inside the 15-minute ones)"
	}
	switch {
	case r.Start.IsZero():
		fields["start"] = "start is required"
	case r.End.IsZero():
		fields["end"] = "end is required"
	case !r.Start.Before(r.End):
		fields["start"] = "start must be before end"
	case !r.Start.Before(now):
		fields["start"] = "start is in the future"
	case r.End.After(now):
		fields["end"] = "end is in the future: at most now (" + now.UTC().Format(time.RFC3339) + ")"
	}
	if len(fields) == 0 {
		r.Start, r.End = r.Start.UTC().Truncate(w), earliest(ceil(r.End.UTC(), w), now.UTC().Truncate(w))
		if n := r.Candles(); n > MaxBackfillCandles {
			fields["end"] = fmt.Sprintf("This range is %d candles of %s, more than the %d one backfill may fetch: shorten it or choose a wider granularity", n, r.Granularity, MaxBackfillCandles)
		} else if n == 0 {
			fields["end"] = "No " + string(r.Granularity) + " candle has closed in this range yet"
		}
	}
	if len(fields) > 0 {
		return r, domain.FieldErrors(fields, "symbol", "granularity", "start", "end")
	}
	return r, nil
}

func earliest(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// Candles is how many candles r spans.
func (r BackfillRequest) Candles() int {
	w := r.Granularity.Duration()
	if w == 0 || !r.Start.Before(r.End) {
		return 0
	}
	return int(r.End.Sub(r.Start) / w)
}

// CandleSource fetches candles of width g opening in [start, end),
// ascending (coinbase.History).
type CandleSource interface {
	Candles(ctx context.Context, symbol string, g domain.Granularity, start, end time.Time) ([]domain.Candle, error)
}

// BackfillState is what a backfill has done, stored after every page so a
// restart resumes from the last stored candle.
type BackfillState struct {
	// Cursor is the end of the last page stored: everything of the range
	// before it has been fetched and stored.
	Cursor   time.Time `json:"cursor"`
	Requests int       `json:"requests"` // pages fetched
	Fetched  int       `json:"fetched"`  // candles Coinbase answered
	Written  int       `json:"written"`  // rows inserted or replaced (a candle the shipped data holds is left to it)
}

// Progress is the share of r's range stored, 0..1.
func (s BackfillState) Progress(r BackfillRequest) float64 {
	if s.Cursor.IsZero() || !r.Start.Before(r.End) {
		return 0
	}
	return min(max(float64(s.Cursor.Sub(r.Start))/float64(r.End.Sub(r.Start)), 0), 1)
}

// Backfiller runs backfills: pages of Coinbase's public candles, at most
// Limit's rate, upserted into the candle store with BackfillSource.
type Backfiller struct {
	Store domain.CandleStore
	KV    domain.KVStore
	// Source opens the candle source (per job, so a changed API URL is used).
	Source func() (CandleSource, error)
	// Limit is a token bucket shared by every backfill of the process:
	// Coinbase's public limit (10 requests a second) is per IP.
	Limit *rate.Limiter
	// Busy is how long to wait before fetching a page again after the
	// source gave up on a 429 (its own retries wait out Retry-After).
	Busy time.Duration
	// BusyTries is how many times a page refused with a 429 is tried.
	BusyTries int
	// Written, when set, hears that a page was stored (History.Changed).
	Written func()
}

// NewLimiter is the default bucket: 3 requests a second, bursts of 3, well
// under Coinbase's public limit so the live market's own requests fit.
func NewLimiter() *rate.Limiter { return rate.NewLimiter(3, 3) }

func stateKey(id string) string { return "marketdata.backfill." + id }

// State returns the stored state of backfill id (zero before its first
// page).
func (b *Backfiller) State(ctx context.Context, id string) (BackfillState, error) {
	raw, err := b.KV.GetValue(ctx, stateKey(id))
	if domain.ErrorCode(err) == domain.ENotFound {
		return BackfillState{}, nil
	}
	if err != nil {
		return BackfillState{}, err
	}
	var s BackfillState
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		return BackfillState{}, fmt.Errorf("backfill %s state: %w", id, err)
	}
	return s, nil
}

// Run fetches r page by page from where backfill id's stored state says it
// stopped, storing each page and then the state, and reports progress.
func (b *Backfiller) Run(ctx context.Context, id string, r BackfillRequest, progress func(float64)) (BackfillState, error) {
	st, err := b.State(ctx, id)
	if err != nil {
		return st, err
	}
	src, err := b.Source()
	if err != nil {
		return st, err
	}
	w := r.Granularity.Duration()
	from := r.Start
	if st.Cursor.After(from) {
		from = st.Cursor
	}
	progress(st.Progress(r))
	for from.Before(r.End) {
		to := earliest(from.Add(w*PageCandles), r.End)
		cs, err := b.page(ctx, src, r, from, to)
		if err != nil {
			return st, err
		}
		n, err := b.Store.UpsertCandles(ctx, r.Symbol, r.Granularity, BackfillSource, rowsOf(cs))
		if err != nil {
			return st, fmt.Errorf("storing %s candles from %s: %w", r.Symbol, from.Format(time.RFC3339), err)
		}
		if n > 0 && b.Written != nil {
			b.Written()
		}
		st.Cursor, st.Requests, st.Fetched, st.Written = to, st.Requests+1, st.Fetched+len(cs), st.Written+n
		raw, _ := json.Marshal(st)
		if err := b.KV.PutValue(ctx, stateKey(id), string(raw)); err != nil {
			return st, err
		}
		progress(st.Progress(r))
		from = to
	}
	return st, nil
}

// page fetches one page, waiting for a token first; a 429 the source could
// not wait out is tried again after Busy.
func (b *Backfiller) page(ctx context.Context, src CandleSource, r BackfillRequest, from, to time.Time) ([]domain.Candle, error) {
	tries := max(b.BusyTries, 1)
	for i := 1; ; i++ {
		if err := b.Limit.Wait(ctx); err != nil {
			return nil, err
		}
		cs, err := src.Candles(ctx, r.Symbol, r.Granularity, from, to)
		if err == nil {
			// Keep what the page asked for (a source may answer around it).
			return slices.DeleteFunc(cs, func(c domain.Candle) bool { return c.Time.Before(from) || !c.Time.Before(to) }), nil
		}
		if domain.ErrorCode(err) != domain.ETooMany || i >= tries {
			return nil, fmt.Errorf("fetching %s %s candles from %s: %w", r.Symbol, r.Granularity, from.Format(time.RFC3339), err)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(b.Busy):
		}
	}
}

func rowsOf(cs []domain.Candle) []domain.CandleRow {
	out := make([]domain.CandleRow, len(cs))
	for i, c := range cs {
		out[i] = domain.CandleRow{Time: c.Time.UTC(), Open: c.Open.String(), High: c.High.String(), Low: c.Low.String(), Close: c.Close.String(), Volume: c.Volume.String()}
	}
	return out
}
