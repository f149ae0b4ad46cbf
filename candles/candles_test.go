package candles

import (
	"bytes"
	"compress/gzip"
	"os"
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
		if n := s.Len(); n < 70_000 {
			t.Fatalf("%s: %d candles", sym, n)
		}
		if got := s.First(); !got.Equal(time.Date(2024, 4, 18, 16, 30, 0, 0, time.UTC)) {
			t.Fatalf("%s first = %v", sym, got)
		}
		for i := 0; i < s.Len(); i++ {
			c := s.Candle(i)
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

// The compact form gives back exactly the parsed decimals.
func TestCompactSeriesIsExact(t *testing.T) {
	raw := "date,open,high,low,close,volume\n2024-01-01T00:00:00Z,63857.3,63900.12,63800.01,63850,12.34567891\n2024-01-01T00:15:00Z,0.4512,0.4515,0.4511,0.4513,1234567.5\n"
	cs, err := Parse(strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSeries("X-USD", cs)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cs {
		got := s.Candle(i)
		if !got.Time.Equal(c.Time) || !got.Open.Equal(c.Open) || !got.High.Equal(c.High) || !got.Low.Equal(c.Low) || !got.Close.Equal(c.Close) || !got.Volume.Equal(c.Volume) {
			t.Fatalf("candle %d: %+v, want %+v", i, got, c)
		}
	}
	if got := s.Candle(0).Open.String(); got != "63857.3" {
		t.Fatalf("open prints as %s", got)
	}
	if _, ok := s.At(time.Date(2024, 1, 1, 0, 7, 0, 0, time.UTC)); ok {
		t.Fatal("At between candles found one")
	}
	if c, ok := s.Before(time.Date(2024, 1, 1, 0, 15, 0, 1, time.UTC)); !ok || !c.Time.Equal(cs[1].Time) {
		t.Fatalf("Before just after the second candle = %v", c.Time)
	}
	tooFine, _ := Parse(strings.NewReader("date,open,high,low,close,volume\n2024-01-01T00:00:00Z,1.123456789,2,0.5,1,3\n"))
	if _, err := NewSeries("X-USD", tooFine); err == nil {
		t.Fatal("9 decimal places accepted")
	}
}

func TestFastParseMatchesDecimalParse(t *testing.T) {
	s, err := Load("SOL-USD")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile("data/SOL-USD-15m.csv.gz")
	zr, _ := gzip.NewReader(bytes.NewReader(raw))
	cs, err := Parse(zr)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != s.Len() {
		t.Fatalf("%d candles, decimal parse %d", s.Len(), len(cs))
	}
	for i := 0; i < len(cs); i += 7 {
		got, want := s.Candle(i), cs[i]
		if !got.Time.Equal(want.Time) || !got.Open.Equal(want.Open) || !got.High.Equal(want.High) || !got.Low.Equal(want.Low) || !got.Close.Equal(want.Close) || !got.Volume.Equal(want.Volume) {
			t.Fatalf("candle %d: %+v, want %+v", i, got, want)
		}
	}
	for _, bad := range []string{"", ".", "1.123456789", "-1", "1e5", "1.2.3"} {
		if _, err := parseFixed([]byte(bad)); err == nil {
			t.Errorf("parseFixed(%q) accepted", bad)
		}
	}
}
