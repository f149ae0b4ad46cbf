package marketdata_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"kestrel/candles"
	"kestrel/domain"
	"kestrel/marketdata"
	"kestrel/store/postgres"
	"kestrel/store/postgres/pgtest"
	"kestrel/store/sqlite"
)

// imported is a fresh SQLite store with the shipped candles imported.
func imported(t testing.TB) (*sqlite.Store, marketdata.Imported) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "kestrel.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	res, err := marketdata.ImportShipped(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	return st, res
}

// The first start imports every shipped candle; the second imports nothing.
func TestImportIsCompleteAndIdempotent(t *testing.T) {
	st, first := imported(t)
	want := 0
	for _, sym := range candles.Symbols() {
		s, _ := candles.Load(sym)
		want += s.Len()
	}
	if first.Candles != want || len(first.Symbols) != 4 {
		t.Fatalf("first import: %+v, want %d candles of 4 symbols", first, want)
	}
	again, err := marketdata.ImportShipped(context.Background(), st)
	if err != nil || again.Candles != 0 || len(again.Symbols) != 0 {
		t.Fatalf("second import: %+v %v, want nothing imported", again, err)
	}
	spans, err := st.CandleSpans(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, sp := range spans {
		total += sp.Count
	}
	if total != want {
		t.Fatalf("stored %d candles, want %d", total, want)
	}
}

// Stored candles are the shipped ones, exactly, at their real dates; wider
// candles aggregate them as the shipped series does.
func TestCandlesByRealDates(t *testing.T) {
	st, _ := imported(t)
	h := marketdata.New(st, 1)
	ctx := context.Background()
	from, to := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC), time.Date(2024, 9, 1, 0, 0, 0, 0, time.UTC)
	s, _ := candles.Load("BTC-USD")
	for _, g := range []domain.Granularity{domain.FifteenMinute, domain.OneHour, domain.OneDay} {
		win, err := h.Candles(ctx, "BTC-USD", g, from, to)
		if err != nil {
			t.Fatal(err)
		}
		want := candles.Aggregate(s.Bars(from, to), g.Duration())
		if len(win.Candles) != len(want) || win.Synthetic || win.Source != marketdata.ShippedSource {
			t.Fatalf("%s: %d candles (synthetic %v, source %q), want %d", g, len(win.Candles), win.Synthetic, win.Source, len(want))
		}
		for i, c := range win.Candles {
			w := want[i].Candle()
			if !c.Time.Equal(w.Time) || !c.Open.Equal(w.Open) || !c.High.Equal(w.High) || !c.Low.Equal(w.Low) || !c.Close.Equal(w.Close) || !c.Volume.Equal(w.Volume) {
				t.Fatalf("%s candle %d = %+v, want %+v", g, i, c, w)
			}
		}
	}
	// Five-minute candles are cut from generated paths, and say so.
	win, err := h.Candles(ctx, "BTC-USD", domain.FiveMinute, from, from.Add(time.Hour))
	if err != nil || !win.Synthetic || len(win.Candles) != 12 {
		t.Fatalf("five-minute: %d candles, synthetic %v, %v", len(win.Candles), win.Synthetic, err)
	}
	q, _ := s.At(from)
	if !win.Candles[0].Open.Equal(q.Open) || !win.Candles[2].Close.Equal(q.Close) {
		t.Fatalf("five-minute candles do not open and close with their 15-minute candle: %+v vs %+v", win.Candles[:3], q)
	}
}

func TestCoverage(t *testing.T) {
	st, _ := imported(t)
	h := marketdata.New(st, 1)
	cov, err := h.Coverage(context.Background())
	if err != nil || len(cov) != 4 {
		t.Fatalf("coverage %+v %v", cov, err)
	}
	var btc marketdata.Coverage
	for _, c := range cov {
		if c.Symbol == "BTC-USD" {
			btc = c
		}
	}
	s, _ := candles.Load("BTC-USD")
	if btc.Granularity != domain.FifteenMinute || !btc.From.Equal(s.First()) || !btc.To.Equal(s.End()) || btc.Candles != s.Len() {
		t.Fatalf("BTC coverage %+v", btc)
	}
	if got := btc.Span().Message(); got != "Market data for BTC-USD covers 2024-04-18 to 2026-05-07" {
		t.Fatalf("message %q", got)
	}
	// The documented gap of 2025-10-25 (last candle 15:00, next 21:00) is listed.
	found := false
	for _, g := range btc.Gaps {
		if g.From.Equal(time.Date(2025, 10, 25, 15, 15, 0, 0, time.UTC)) && g.To.Equal(time.Date(2025, 10, 25, 21, 0, 0, 0, time.UTC)) {
			found = true
		}
	}
	if !found {
		t.Fatalf("gaps %+v lack 2025-10-25 15:15 to 21:00", btc.Gaps)
	}
	day := func(s string) time.Time { t, _ := time.Parse(time.DateOnly, s); return t }
	for _, c := range []struct {
		from, to string
		ok       bool
	}{{"2024-06-01", "2024-09-01", true}, {"2024-04-18", "2024-05-01", true}, {"2026-02-08", "2026-05-08", true},
		{"2024-04-17", "2024-05-01", false}, {"2026-02-08", "2026-05-09", false}, {"2023-01-01", "2023-03-01", false}} {
		if got := btc.Span().Covers(day(c.from), day(c.to)); got != c.ok {
			t.Errorf("Covers(%s, %s) = %v", c.from, c.to, got)
		}
	}
}

// Measures the first-start import (docs/PERFORMANCE.md):
// go test -run '^$' -bench ImportShipped -benchtime 3x ./marketdata/
func BenchmarkImportShipped(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		st, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "kestrel.db"))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := marketdata.ImportShipped(context.Background(), st); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		st.Close()
		b.StartTimer()
	}
}

// Measures what a one-year backtest reads (docs/PERFORMANCE.md):
// go test -run '^$' -bench YearOfCandles -benchmem ./marketdata/
func BenchmarkYearOfCandles(b *testing.B) {
	st, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "kestrel.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	if _, err := marketdata.ImportShipped(context.Background(), st); err != nil {
		b.Fatal(err)
	}
	h := marketdata.New(st, 1)
	from, to := time.Date(2025, 5, 8, 0, 0, 0, 0, time.UTC), time.Date(2026, 5, 8, 0, 0, 0, 0, time.UTC)
	for _, g := range []domain.Granularity{domain.FifteenMinute, domain.OneHour} {
		b.Run(string(g), func(b *testing.B) {
			for b.Loop() {
				if w, err := h.Candles(context.Background(), "BTC-USD", g, from, to); err != nil || len(w.Candles) == 0 {
					b.Fatal(err)
				}
			}
		})
	}
}

// Measures a later start, which finds the candles complete:
// go test -run '^$' -bench ImportAgain -benchtime 3x ./marketdata/
func BenchmarkImportAgain(b *testing.B) {
	st, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "kestrel.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	if _, err := marketdata.ImportShipped(context.Background(), st); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if res, err := marketdata.ImportShipped(context.Background(), st); err != nil || res.Candles != 0 {
			b.Fatal(res, err)
		}
	}
}

// The same on PostgreSQL:
// go test -run '^$' -bench ImportShippedPostgres -benchtime 3x ./marketdata/
func BenchmarkImportShippedPostgres(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		st, err := postgres.Open(context.Background(), pgtest.URL(b))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := marketdata.ImportShipped(context.Background(), st); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		st.Close()
		b.StartTimer()
	}
}

// Measures generating a month of five-minute candles (docs/PERFORMANCE.md):
// go test -run '^$' -bench MonthOfFiveMinute -benchtime 3x ./marketdata/
func BenchmarkMonthOfFiveMinute(b *testing.B) {
	st, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "kestrel.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	if _, err := marketdata.ImportShipped(context.Background(), st); err != nil {
		b.Fatal(err)
	}
	h := marketdata.New(st, 1)
	from := time.Date(2025, 5, 8, 0, 0, 0, 0, time.UTC)
	for b.Loop() {
		if w, err := h.Candles(context.Background(), "BTC-USD", domain.FiveMinute, from, from.AddDate(0, 1, 0)); err != nil || !w.Synthetic {
			b.Fatal(err)
		}
	}
}
