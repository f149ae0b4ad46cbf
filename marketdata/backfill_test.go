package marketdata_test

import (
	"context"
	"crypto/ed25519"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"golang.org/x/time/rate"

	"kestrel/domain"
	"kestrel/exchange/coinbase"
	"kestrel/exchange/coinbase/coinbasefake"
	"kestrel/marketdata"
	"kestrel/store/sqlite"
)

// after is where the fake's history ends: past the shipped candles (which
// end in May 2026), so a backfill adds history the store did not have.
var after = time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)

// fakeHistory serves days of 15-minute BTC-USD candles ending at after on
// the fake Coinbase (which merges them into wider candles as Coinbase does).
func fakeHistory(t *testing.T, days int) (*coinbasefake.Fake, marketdata.CandleSource) {
	t.Helper()
	pub, _, _ := ed25519.GenerateKey(nil)
	f := coinbasefake.New("unused", pub)
	var cs []domain.Candle
	start := after.Add(-time.Duration(days) * 24 * time.Hour)
	for at, i := start, 0; at.Before(after); at, i = at.Add(15*time.Minute), i+1 {
		p := decimal.NewFromInt(int64(60000 + i%97))
		cs = append(cs, domain.Candle{Time: at, Open: p, High: p.Add(decimal.NewFromInt(5)), Low: p.Sub(decimal.NewFromInt(5)), Close: p.Add(decimal.NewFromInt(1)), Volume: decimal.RequireFromString("1.5")})
	}
	f.SetCandles("BTC-USD", cs)
	srv := httptest.NewServer(f.Handler())
	t.Cleanup(srv.Close)
	h, err := coinbase.OpenHistory(coinbase.Config{APIURL: srv.URL, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return f, h
}

func backfiller(t *testing.T, st *sqlite.Store, src marketdata.CandleSource) *marketdata.Backfiller {
	t.Helper()
	return &marketdata.Backfiller{Store: st, KV: st, Source: func() (marketdata.CandleSource, error) { return src, nil },
		Limit: rate.NewLimiter(rate.Inf, 1), Busy: time.Millisecond, BusyTries: 3}
}

func candleRequests(f *coinbasefake.Fake) (n int, keyed bool) {
	for _, r := range f.RequestLog() {
		if strings.HasSuffix(r.Route, "/candles") {
			n++
			keyed = keyed || r.Keyed
		}
	}
	return n, keyed
}

// 90 days of hourly candles: 2,160 candles in pages of at most 350 (7
// requests, none with a key), stored with the source "coinbase"; a backfill
// stopped after two pages resumes at the third and fetches only the rest;
// a backtest's read of that range at ONE_HOUR is those candles.
func TestBackfillPagesResumesAndFeedsBacktests(t *testing.T) {
	st, _ := imported(t)
	f, src := fakeHistory(t, 90)
	b := backfiller(t, st, src)
	req, err := marketdata.BackfillRequest{Symbol: "btc-usd", Granularity: domain.OneHour, Start: after.AddDate(0, 0, -90), End: after}.Check(domain.Symbols, after.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if req.Candles() != 2160 {
		t.Fatalf("90 days hourly = %d candles, want 2160", req.Candles())
	}

	// Stop after the second page, as a restart would.
	ctx, cancel := context.WithCancel(context.Background())
	var seen []float64
	_, err = b.Run(ctx, "job-1", req, func(p float64) {
		seen = append(seen, p)
		if p >= 0.3 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped run: %v, want cancelled", err)
	}
	state, err := b.State(context.Background(), "job-1")
	if err != nil || state.Requests != 2 || state.Written != 700 || !state.Cursor.Equal(req.Start.Add(700*time.Hour)) {
		t.Fatalf("state after two pages: %+v %v", state, err)
	}
	if n, _ := candleRequests(f); n != 2 {
		t.Fatalf("%d candle requests before the stop, want 2", n)
	}

	seen = nil
	state, err = b.Run(context.Background(), "job-1", req, func(p float64) { seen = append(seen, p) })
	if err != nil {
		t.Fatal(err)
	}
	if n, keyed := candleRequests(f); n != 7 || keyed {
		t.Fatalf("%d candle requests in all (keyed %v), want 7 (2 + the 5 left), none with a key", n, keyed)
	}
	if state.Written != 2160 || state.Fetched != 2160 || state.Progress(req) != 1 {
		t.Fatalf("final state %+v", state)
	}
	if len(seen) < 2 || seen[0] < 0.32 || seen[0] > 0.33 || seen[len(seen)-1] != 1 {
		t.Fatalf("resumed progress %v: want it to start at 700/2160 and end at 1", seen)
	}

	cov, err := marketdata.New(st, 1).Coverage(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var row *marketdata.Coverage
	for i, c := range cov {
		if c.Symbol == "BTC-USD" && c.Granularity == domain.OneHour {
			row = &cov[i]
		}
	}
	if row == nil || row.Source != "coinbase" || row.Candles != 2160 || !row.From.Equal(req.Start) || !row.To.Equal(after) || len(row.Gaps) != 0 {
		t.Fatalf("hourly coverage %+v", row)
	}

	h := marketdata.New(st, 1)
	win, err := h.Candles(context.Background(), "BTC-USD", domain.OneHour, req.Start, req.End)
	if err != nil || len(win.Candles) != 2160 || win.Source != "coinbase" {
		t.Fatalf("backtest read: %d candles from %q, %v", len(win.Candles), win.Source, err)
	}
	span, err := h.Span(context.Background(), "BTC-USD")
	if err != nil || !span.To.Equal(after) {
		t.Fatalf("span %+v %v: want it to reach the backfilled end %v", span, err, after)
	}
}

// A 429 the client's own retries cannot wait out is tried again; the
// backfill completes with every candle.
func TestBackfillHonoursRateLimits(t *testing.T) {
	st, _ := imported(t)
	f, src := fakeHistory(t, 10)
	f.Inject(coinbasefake.Fault{Match: "GET /market/products/BTC-USD/candles", Times: 5, Status: http.StatusTooManyRequests})
	b := backfiller(t, st, src)
	req, err := marketdata.BackfillRequest{Symbol: "BTC-USD", Granularity: domain.OneHour, Start: after.AddDate(0, 0, -10), End: after}.Check(domain.Symbols, after)
	if err != nil {
		t.Fatal(err)
	}
	state, err := b.Run(context.Background(), "job-429", req, func(float64) {})
	if err != nil {
		t.Fatal(err)
	}
	if state.Written != 240 || f.PendingFaults() != 0 {
		t.Fatalf("state %+v, faults left %d", state, f.PendingFaults())
	}
}

// Backfilling 15-minute candles the shipped data already holds writes
// nothing over them: they keep the source "coinbase (shipped)", and a
// second run of the same range rewrites only its own rows.
func TestBackfillLeavesTheShippedSource(t *testing.T) {
	st, _ := imported(t)
	pub, _, _ := ed25519.GenerateKey(nil)
	f := coinbasefake.New("unused", pub)
	h := marketdata.New(st, 1)
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	shipped, err := h.Candles(context.Background(), "BTC-USD", domain.FifteenMinute, start, start.Add(24*time.Hour))
	if err != nil || len(shipped.Candles) != 96 {
		t.Fatalf("shipped day: %d %v", len(shipped.Candles), err)
	}
	var cs []domain.Candle
	for _, c := range shipped.Candles {
		c.Close = c.Close.Add(decimal.NewFromInt(1)) // differs from the shipped
		cs = append(cs, c)
	}
	cs = append(cs, domain.Candle{Time: start.Add(-15 * time.Minute), Open: decimal.NewFromInt(1), High: decimal.NewFromInt(1), Low: decimal.NewFromInt(1), Close: decimal.NewFromInt(1), Volume: decimal.Zero})
	f.SetCandles("BTC-USD", cs)
	srv := httptest.NewServer(f.Handler())
	defer srv.Close()
	src, _ := coinbase.OpenHistory(coinbase.Config{APIURL: srv.URL, Timeout: 5 * time.Second})
	req, err := marketdata.BackfillRequest{Symbol: "BTC-USD", Granularity: domain.FifteenMinute, Start: start, End: start.Add(24 * time.Hour)}.Check(domain.Symbols, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	state, err := backfiller(t, st, src).Run(context.Background(), "job-shipped", req, func(float64) {})
	if err != nil || state.Fetched != 96 || state.Written != 0 {
		t.Fatalf("over shipped candles: %+v %v, want 96 fetched and none written", state, err)
	}
	again, err := h.Candles(context.Background(), "BTC-USD", domain.FifteenMinute, start, start.Add(24*time.Hour))
	if err != nil || again.Source != marketdata.ShippedSource || !again.Candles[0].Close.Equal(shipped.Candles[0].Close) {
		t.Fatalf("after the backfill: source %q, close %s (shipped %s)", again.Source, again.Candles[0].Close, shipped.Candles[0].Close)
	}
}

// Every bad field is a field error naming it.
func TestBackfillRequestCheck(t *testing.T) {
	now := time.Date(2026, 11, 25, 3, 7, 0, 0, time.UTC)
	day := 24 * time.Hour
	for _, c := range []struct {
		name  string
		req   marketdata.BackfillRequest
		field string
	}{
		{"unknown symbol", marketdata.BackfillRequest{Symbol: "DOGE-EUR", Granularity: domain.OneHour, Start: now.Add(-day), End: now}, "symbol"},
		{"no symbol", marketdata.BackfillRequest{Granularity: domain.OneHour, Start: now.Add(-day), End: now}, "symbol"},
		{"bad granularity", marketdata.BackfillRequest{Symbol: "BTC-USD", Granularity: "HOURLY", Start: now.Add(-day), End: now}, "granularity"},
		{"generated granularity", marketdata.BackfillRequest{Symbol: "BTC-USD", Granularity: domain.OneMinute, Start: now.Add(-day), End: now}, "granularity"},
		{"start after end", marketdata.BackfillRequest{Symbol: "BTC-USD", Granularity: domain.OneHour, Start: now.Add(-day), End: now.Add(-2 * day)}, "start"},
		{"start equals end", marketdata.BackfillRequest{Symbol: "BTC-USD", Granularity: domain.OneHour, Start: now.Add(-day), End: now.Add(-day)}, "start"},
		{"future start", marketdata.BackfillRequest{Symbol: "BTC-USD", Granularity: domain.OneHour, Start: now.Add(day), End: now.Add(2 * day)}, "start"},
		{"future end", marketdata.BackfillRequest{Symbol: "BTC-USD", Granularity: domain.OneHour, Start: now.Add(-day), End: now.Add(day)}, "end"},
		{"too large", marketdata.BackfillRequest{Symbol: "BTC-USD", Granularity: domain.FifteenMinute, Start: now.AddDate(-3, 0, 0), End: now}, "end"},
		{"nothing closed", marketdata.BackfillRequest{Symbol: "BTC-USD", Granularity: domain.OneDay, Start: now.Add(-time.Hour), End: now}, "end"},
	} {
		_, err := c.req.Check(domain.Symbols, now)
		var e *domain.Error
		if !errors.As(err, &e) || e.Code != domain.EInvalid || e.Fields[c.field] == "" {
			t.Errorf("%s: %v, want a field error on %s", c.name, err, c.field)
		}
	}
	ok, err := marketdata.BackfillRequest{Symbol: "eth-usd", Granularity: domain.OneHour, Start: now.Add(-day - 30*time.Minute), End: now}.Check(domain.Symbols, now)
	if err != nil || ok.Symbol != "ETH-USD" || !ok.Start.Equal(now.Truncate(time.Hour).Add(-day-time.Hour)) || !ok.End.Equal(now.Truncate(time.Hour)) {
		t.Fatalf("normalised %+v %v: start aligned down, end at the last closed hour", ok, err)
	}
}

// The gap report is what a backtest at a width reads: the shipped
// 15-minute history with a backfilled hour range after it, and the runs of
// missing buckets between.
func TestGapReport(t *testing.T) {
	st, _ := imported(t)
	h := marketdata.New(st, 1)
	span, err := h.Span(context.Background(), "BTC-USD")
	if err != nil {
		t.Fatal(err)
	}
	// Two hourly candles a day after the shipped data ends, one missing between.
	at := span.To.Truncate(time.Hour).Add(24 * time.Hour)
	row := func(t time.Time) domain.CandleRow {
		return domain.CandleRow{Time: t, Open: "1", High: "1", Low: "1", Close: "1", Volume: "0"}
	}
	if _, err := st.UpsertCandles(context.Background(), "BTC-USD", domain.OneHour, "coinbase", []domain.CandleRow{row(at), row(at.Add(2 * time.Hour))}); err != nil {
		t.Fatal(err)
	}
	rep, err := h.Gaps(context.Background(), "BTC-USD", domain.OneHour, span.To.Add(-2*time.Hour), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.To.Equal(at.Add(3*time.Hour)) || rep.Source != "coinbase, coinbase (shipped)" || rep.Candles != 4 {
		t.Fatalf("report %+v", rep)
	}
	if len(rep.Gaps) != 2 || !rep.Gaps[0].From.Equal(span.To) || !rep.Gaps[0].To.Equal(at) || !rep.Gaps[1].From.Equal(at.Add(time.Hour)) || !rep.Gaps[1].To.Equal(at.Add(2*time.Hour)) {
		t.Fatalf("gaps %+v: want the day after the shipped data and the missing hour", rep.Gaps)
	}
}

// A day the shipped 15-minute candles hold whole is read whole at ONE_DAY
// even when a backfill's hourly candles start in the middle of it; a day
// only the hourly candles hold is built from them. The one-minute gap
// report reads the 15-minute candles it is cut from.
func TestLayersPreferWholeBuckets(t *testing.T) {
	st, _ := imported(t)
	h := marketdata.New(st, 1)
	day := time.Date(2025, 3, 10, 0, 0, 0, 0, time.UTC)
	var rows []domain.CandleRow
	for at := day.Add(12 * time.Hour); at.Before(day.Add(48 * time.Hour)); at = at.Add(time.Hour) {
		rows = append(rows, domain.CandleRow{Time: at, Open: "1", High: "2", Low: "1", Close: "1", Volume: "1"})
	}
	if _, err := st.UpsertCandles(context.Background(), "BTC-USD", domain.OneHour, "coinbase", rows); err != nil {
		t.Fatal(err)
	}
	shipped, err := st.StoredCandles(context.Background(), "BTC-USD", domain.FifteenMinute, day, day.Add(24*time.Hour))
	if err != nil || len(shipped) != 96 {
		t.Fatalf("shipped day: %d %v", len(shipped), err)
	}
	win, err := h.Candles(context.Background(), "BTC-USD", domain.OneDay, day, day.Add(48*time.Hour))
	if err != nil || len(win.Candles) != 2 {
		t.Fatalf("two days: %+v %v", win, err)
	}
	if !win.Candles[0].Open.Equal(shipped[0].Open) || !win.Candles[0].Close.Equal(shipped[95].Close) {
		t.Fatalf("day 1 = %+v: want the whole shipped day (open %s, close %s), not the hourly half", win.Candles[0], shipped[0].Open, shipped[95].Close)
	}
	// Day 2: the shipped day is whole too, and so are the hourly candles: the hourly layer comes first.
	if !win.Candles[1].High.Equal(decimal.NewFromInt(2)) || win.Source != "coinbase, coinbase (shipped)" {
		t.Fatalf("day 2 = %+v from %q: want the hourly candles, and both sources named", win.Candles[1], win.Source)
	}

	rep, err := h.Gaps(context.Background(), "ETH-USD", domain.OneMinute, day, day.Add(24*time.Hour))
	if err != nil || !rep.Synthetic || rep.Candles != 96*15 || rep.Source != marketdata.ShippedSource || len(rep.Gaps) != 0 {
		t.Fatalf("one-minute report %+v %v", rep, err)
	}
}
