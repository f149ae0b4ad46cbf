package candles

import (
	"bytes"
	"compress/gzip"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

// Every packed file holds exactly the rows of the CSV it was made from (the
// record of provenance): run `go generate ./candles` after changing a CSV.
func TestPackedFilesAreTheCSVs(t *testing.T) {
	for _, sym := range Symbols() {
		raw, err := os.ReadFile("data/" + sym + "-15m.csv.gz")
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		want, err := parseRows(zr)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Load(sym)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]row, s.Len())
		for i := range got {
			got[i] = s.p.row(i) // each from its mark, as a reader reads one
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the packed file differs from the CSV (%d rows, CSV %d): run go generate ./candles", sym, len(got), len(want))
		}
		for _, i := range []int{0, 1, blockRows - 1, blockRows, 5*blockRows + 7, len(want) - 1} {
			if at := s.Index(time.Unix(want[i].t, 0)); at != i {
				t.Fatalf("%s: Index(row %d's time) = %d", sym, i, at)
			}
			if at := s.Index(time.Unix(want[i].t-1, 0)); at != i {
				t.Fatalf("%s: Index(a second before row %d) = %d", sym, i, at)
			}
		}
		if at := s.Index(time.Unix(want[len(want)-1].t+1, 0)); at != len(want) {
			t.Fatalf("%s: Index(after the end) = %d", sym, at)
		}
		bars := s.Bars(time.Unix(want[100].t, 0), time.Unix(want[300].t, 0))
		if len(bars) != 200 || bars[0].Time != want[100].t*int64(time.Second) || bars[199].Close != want[299].c {
			t.Fatalf("%s: Bars(rows 100-300) = %d bars", sym, len(bars))
		}
	}
}

func TestPackRoundTrip(t *testing.T) {
	rows := []row{
		{t: 900, o: 6_000_012_000_000, h: 6_010_000_000_000, l: 5_990_000_000_000, c: 6_000_000_000_000, volume: 123_456_789},
		{t: 1800, o: 6_000_000_000_000, h: 6_000_000_000_000, l: 6_000_000_000_000, c: 6_000_000_000_000, volume: 0},
		{t: 900 * 10, o: 12, h: 40, l: 1, c: 3, volume: 1}, // a gap, a fall of 99.99%, 8 places
	}
	b, err := pack(rows)
	if err != nil {
		t.Fatal(err)
	}
	p, err := unpackSeries(b)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range rows {
		if got := p.row(i); got != want {
			t.Fatalf("row %d = %v, want %v", i, got, want)
		}
	}
	for name, bad := range map[string][]row{
		"off the grid":   {{t: 900}, {t: 1000}},
		"not ascending":  {{t: 1800}, {t: 900}},
		"a repeated row": {{t: 900}, {t: 900}},
		"negative":       {{t: 900, l: -1}},
		"empty":          {},
	} {
		if _, err := pack(bad); err == nil {
			t.Errorf("%s: packed", name)
		}
	}
	for name, bad := range map[string][]byte{
		"no magic":  []byte("KCP0" + string(b[4:])),
		"truncated": b[:len(b)-1],
		"trailing":  append(append([]byte{}, b...), 0),
		"empty":     nil,
	} {
		if _, err := unpackSeries(bad); err == nil {
			t.Errorf("%s: unpacked", name)
		}
	}
	if _, err := PackCSV(strings.NewReader("date,open,high,low,close,volume\n2024-01-01T00:00:00Z,1,2,0.5,1.5,10\n2024-01-01T00:15:00Z,1.5,2,1,1,3\n")); err != nil {
		t.Fatal(err)
	}
}

// What a read on demand costs: the replay asks At for the candle of the
// slot it is in, a chart for each slot of its range.
func BenchmarkSeriesAt(b *testing.B) {
	s, err := Load("BTC-USD")
	if err != nil {
		b.Fatal(err)
	}
	step := s.End().Sub(s.First()) / 997
	t := s.First()
	for b.Loop() {
		if t = t.Add(step).Truncate(Width); !t.Before(s.End()) {
			t = s.First()
		}
		s.At(t)
	}
}

// At finds every row of a series by its open time, and nothing between two
// rows or past the end: across block boundaries, as the replay reads it.
func TestAtFindsEveryRow(t *testing.T) {
	s, err := Load("ADA-USD")
	if err != nil {
		t.Fatal(err)
	}
	for i := range s.Len() {
		want := s.Candle(i)
		got, ok := s.At(want.Time)
		if !ok || !got.Time.Equal(want.Time) || !got.Close.Equal(want.Close) || !got.Volume.Equal(want.Volume) {
			t.Fatalf("row %d at %s: got %v %v", i, want.Time, got, ok)
		}
		if _, ok := s.At(want.Time.Add(time.Minute)); ok {
			t.Fatalf("a candle one minute after row %d", i)
		}
	}
	if _, ok := s.At(s.End()); ok {
		t.Fatal("a candle at the end")
	}
	if _, ok := s.At(s.First().Add(-Width)); ok {
		t.Fatal("a candle before the first")
	}
}
