package candles

import (
	"strings"
	"testing"
	"time"
)

func TestLoadShippedData(t *testing.T) {
	for _, sym := range Symbols() {
		s, err := Load(sym)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(s.Candles); n < 70_000 {
			t.Fatalf("%s: %d candles", sym, n)
		}
		if got := s.First(); !got.Equal(time.Date(2024, 4, 18, 16, 30, 0, 0, time.UTC)) {
			t.Fatalf("%s first = %v", sym, got)
		}
		for _, c := range s.Candles {
			if c.High.LessThan(c.Low) || c.Open.GreaterThan(c.High) || c.Open.LessThan(c.Low) || c.Close.GreaterThan(c.High) || c.Close.LessThan(c.Low) {
				t.Fatalf("%s %v: inconsistent OHLC", sym, c.Time)
			}
		}
	}
}

func TestGapIsMissingNotZero(t *testing.T) {
	s, _ := Load("BTC-USD")
	gap := time.Date(2025, 10, 25, 16, 0, 0, 0, time.UTC)
	if _, ok := s.At(gap); ok {
		t.Fatal("the documented gap should have no candle")
	}
	prev, ok := s.Before(gap)
	if !ok || !prev.Time.Before(gap) {
		t.Fatalf("Before(gap) = %v, %v", prev.Time, ok)
	}
	first, ok := s.At(s.First())
	if !ok || first.Open.String() != "63857.3" {
		t.Fatalf("first candle = %+v", first)
	}
}

func TestParseRejectsBadInput(t *testing.T) {
	for _, in := range []string{
		"date,open,high,low,close,volume\n2024-01-01T00:00:00Z,1,2,0.5,1\n",
		"date,open,high,low,close,volume\nnot-a-time,1,2,0.5,1,3\n",
		"date,open,high,low,close,volume\n2024-01-01T00:15:00Z,1,2,0.5,1,3\n2024-01-01T00:00:00Z,1,2,0.5,1,3\n",
	} {
		if _, err := Parse(strings.NewReader(in)); err == nil {
			t.Errorf("Parse(%q) succeeded", in)
		}
	}
}

func BenchmarkParseBTC(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := parseFile("BTC-USD"); err != nil {
			b.Fatal(err)
		}
	}
}
