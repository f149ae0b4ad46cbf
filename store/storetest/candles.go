package storetest

import (
	"context"
	"testing"
	"time"

	"kestrel/domain"
)

// RunCandles is the contract for domain.CandleStore (on a fresh store).
func RunCandles(t *testing.T, s domain.CandleStore) {
	ctx := context.Background()
	base := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	q := 15 * time.Minute
	row := func(i int, close string) domain.CandleRow {
		return domain.CandleRow{Time: base.Add(time.Duration(i) * q), Open: "67000.01", High: "67100.5", Low: "0.00000001", Close: close, Volume: "12.34567891"}
	}
	// Candles 0..9 with 4 and 5 missing (a gap), in two batches that overlap.
	var first, second []domain.CandleRow
	for i := range 10 {
		if i == 4 || i == 5 {
			continue
		}
		if i < 7 {
			first = append(first, row(i, "67050"))
		}
		if i >= 6 {
			second = append(second, row(i, "67050.25"))
		}
	}
	if n, err := s.InsertCandles(ctx, "BTC-USD", domain.FifteenMinute, "test", first); err != nil || n != 5 {
		t.Fatalf("first insert: %d, %v; want 5 new", n, err)
	}
	// Candle 6 is already stored: it is left as it was, and not counted.
	if n, err := s.InsertCandles(ctx, "BTC-USD", domain.FifteenMinute, "test", second); err != nil || n != 3 {
		t.Fatalf("overlapping insert: %d, %v; want 3 new", n, err)
	}
	if n, err := s.InsertCandles(ctx, "BTC-USD", domain.FifteenMinute, "test", first); err != nil || n != 0 {
		t.Fatalf("repeated insert: %d, %v; want nothing new", n, err)
	}
	if n, err := s.InsertCandles(ctx, "BTC-USD", domain.OneHour, "test", []domain.CandleRow{row(0, "1")}); err != nil || n != 1 {
		t.Fatalf("another granularity: %d, %v", n, err)
	}
	if n, err := s.InsertCandles(ctx, "ETH-USD", domain.FifteenMinute, "other", []domain.CandleRow{row(3, "2")}); err != nil || n != 1 {
		t.Fatalf("another symbol: %d, %v", n, err)
	}

	// [from, to) by open time: 2..8 holds 2, 3, 6 and 7.
	got, err := s.StoredCandles(ctx, "BTC-USD", domain.FifteenMinute, base.Add(2*q), base.Add(8*q))
	if err != nil {
		t.Fatal(err)
	}
	var times []int
	for _, c := range got {
		times = append(times, int(c.Time.Sub(base)/q))
		if c.Time.Location() != time.UTC {
			t.Fatalf("time %v is not UTC", c.Time)
		}
	}
	if len(times) != 4 || times[0] != 2 || times[1] != 3 || times[2] != 6 || times[3] != 7 {
		t.Fatalf("candles in [2, 8): %v", times)
	}
	c := got[2]
	if c.Open.String() != "67000.01" || c.High.String() != "67100.5" || c.Low.String() != "0.00000001" || c.Close.String() != "67050" ||
		c.Volume.String() != "12.34567891" {
		t.Fatalf("candle 6 = %+v: not stored exactly, or overwritten by the second insert", c)
	}
	if got[3].Close.String() != "67050.25" {
		t.Fatalf("candle 7 close %s", got[3].Close)
	}
	// A start inside a candle does not include that candle.
	if got, err := s.StoredCandles(ctx, "BTC-USD", domain.FifteenMinute, base.Add(q/2), base.Add(2*q)); err != nil || len(got) != 1 || !got[0].Time.Equal(base.Add(q)) {
		t.Fatalf("from mid-candle: %+v %v", got, err)
	}
	if got, err := s.StoredCandles(ctx, "SOL-USD", domain.FifteenMinute, base, base.Add(time.Hour)); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("nothing stored: %+v %v, want an empty list", got, err)
	}

	spans, err := s.CandleSpans(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []domain.CandleSpan{
		{Symbol: "BTC-USD", Granularity: domain.FifteenMinute, Source: "test", First: base, Last: base.Add(9 * q), Count: 8},
		{Symbol: "BTC-USD", Granularity: domain.OneHour, Source: "test", First: base, Last: base, Count: 1},
		{Symbol: "ETH-USD", Granularity: domain.FifteenMinute, Source: "other", First: base.Add(3 * q), Last: base.Add(3 * q), Count: 1},
	}
	if len(spans) != len(want) {
		t.Fatalf("spans %+v, want %+v", spans, want)
	}
	for i, w := range want {
		g := spans[i]
		if g.Symbol != w.Symbol || g.Granularity != w.Granularity || g.Source != w.Source || !g.First.Equal(w.First) || !g.Last.Equal(w.Last) || g.Count != w.Count {
			t.Fatalf("span %d = %+v, want %+v", i, g, w)
		}
	}

	oldest, newest, err := s.CandleBounds(ctx, "BTC-USD", domain.FifteenMinute)
	if err != nil || !oldest.Equal(base) || !newest.Equal(base.Add(9*q)) || oldest.Location() != time.UTC {
		t.Fatalf("bounds %v %v %v", oldest, newest, err)
	}
	if _, _, err := s.CandleBounds(ctx, "SOL-USD", domain.FifteenMinute); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("bounds of nothing: %v, want not_found", err)
	}
	if n, err := s.InsertCandles(ctx, "BTC-USD", domain.FifteenMinute, "later", []domain.CandleRow{row(12, "3")}); err != nil || n != 1 {
		t.Fatalf("another source: %d %v", n, err)
	}
	if srcs, err := s.CandleSources(ctx, "BTC-USD", domain.FifteenMinute, base, base.Add(10*q)); err != nil || len(srcs) != 1 || srcs[0] != "test" {
		t.Fatalf("sources of [0, 10): %v %v", srcs, err)
	}
	if srcs, err := s.CandleSources(ctx, "BTC-USD", domain.FifteenMinute, base, base.Add(13*q)); err != nil || len(srcs) != 2 || srcs[0] != "later" || srcs[1] != "test" {
		t.Fatalf("sources of [0, 13): %v %v", srcs, err)
	}

	gaps, err := s.CandleGaps(ctx, "BTC-USD", domain.FifteenMinute)
	if err != nil {
		t.Fatal(err)
	}
	if len(gaps) != 2 || !gaps[0].From.Equal(base.Add(4*q)) || !gaps[0].To.Equal(base.Add(6*q)) || !gaps[1].From.Equal(base.Add(10*q)) || !gaps[1].To.Equal(base.Add(12*q)) {
		t.Fatalf("gaps %+v, want candles 4, 5, 10 and 11 missing", gaps)
	}
	if gaps, err := s.CandleGaps(ctx, "ETH-USD", domain.FifteenMinute); err != nil || len(gaps) != 0 {
		t.Fatalf("one candle has no gaps: %+v %v", gaps, err)
	}

	// Upserts: a new candle is inserted, the same source's replaced, another
	// source's (candle 3, source "test") left as it was and not counted.
	up := []domain.CandleRow{row(3, "1"), row(12, "4"), row(13, "5")}
	if n, err := s.UpsertCandles(ctx, "BTC-USD", domain.FifteenMinute, "later", up); err != nil || n != 2 {
		t.Fatalf("upsert: %d %v; want 2 (candle 12 replaced, 13 new)", n, err)
	}
	if n, err := s.UpsertCandles(ctx, "BTC-USD", domain.FifteenMinute, "later", up); err != nil || n != 2 {
		t.Fatalf("repeated upsert: %d %v; want the same 2 rewritten", n, err)
	}
	got, err = s.StoredCandles(ctx, "BTC-USD", domain.FifteenMinute, base.Add(3*q), base.Add(14*q))
	if err != nil {
		t.Fatal(err)
	}
	closes := map[int]string{}
	for _, c := range got {
		closes[int(c.Time.Sub(base)/q)] = c.Close.String()
	}
	if closes[3] != "67050" || closes[12] != "4" || closes[13] != "5" {
		t.Fatalf("after upserts closes %v: want candle 3 kept (67050), 12 replaced (4), 13 new (5)", closes)
	}
	if srcs, err := s.CandleSources(ctx, "BTC-USD", domain.FifteenMinute, base.Add(3*q), base.Add(4*q)); err != nil || len(srcs) != 1 || srcs[0] != "test" {
		t.Fatalf("candle 3 keeps its source: %v %v", srcs, err)
	}
}
