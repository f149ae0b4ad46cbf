package candles

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestParseOHLCV(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string // "time open high low close volume" per candle
	}{
		{"unix seconds", "time,open,high,low,close,volume\n1714000000,1,2,0.5,1.5,10\n1714003600,1.5,3,1,2,20\n",
			[]string{"2024-04-24T23:06:40Z 1 2 0.5 1.5 10", "2024-04-25T00:06:40Z 1.5 3 1 2 20"}},
		{"unix milliseconds", "timestamp,open,high,low,close,volume\n1714000000000,1,2,0.5,1.5,10\n",
			[]string{"2024-04-24T23:06:40Z 1 2 0.5 1.5 10"}},
		{"milliseconds with a fraction of a second", "unix,open,high,low,close,volume\n1714000000250,1,1,1,1,1\n",
			[]string{"2024-04-24T23:06:40.25Z 1 1 1 1 1"}},
		{"RFC 3339 with an offset", "Date,Open,High,Low,Close,Volume\n2024-05-01T14:00:00+01:00,1,2,0.5,1.5,10\n",
			[]string{"2024-05-01T13:00:00Z 1 2 0.5 1.5 10"}},
		{"ISO without an offset is UTC", "date,open,high,low,close,volume\n2024-05-01T13:00:00,1,2,0.5,1.5,10\n2024-05-01 14:00:00,1,2,0.5,1.5,10\n",
			[]string{"2024-05-01T13:00:00Z 1 2 0.5 1.5 10", "2024-05-01T14:00:00Z 1 2 0.5 1.5 10"}},
		{"plain dates", "DATE,open,high,low,close,volume\n2024-05-01,1,2,0.5,1.5,10\n2024-05-02,2,2,2,2,0\n",
			[]string{"2024-05-01T00:00:00Z 1 2 0.5 1.5 10", "2024-05-02T00:00:00Z 2 2 2 2 0"}},
		{"any column order, extra columns, case, quotes, CRLF, blank lines",
			"\ufeffSymbol,VOLUME,Close,\"Low\",high,open,Unix,trades\r\nBTC,10,1.5,0.5,2,\"1\",1714000000,7\r\n\r\n",
			[]string{"2024-04-24T23:06:40Z 1 2 0.5 1.5 10"}},
		{"first time column wins", "unix,date,open,high,low,close,volume\n1714000000,garbage,1,1,1,1,1\n",
			[]string{"2024-04-24T23:06:40Z 1 1 1 1 1"}},
		{"float noise is rounded to 8 decimals", "time,open,high,low,close,volume\n1714000000,63857.300000000003,1e2,0.000000005,1.23456789,1E-05\n",
			[]string{"2024-04-24T23:06:40Z 63857.3 100 0.00000001 1.23456789 0.00001"}},
		{"header only", "time,open,high,low,close,volume\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs, err := ParseOHLCV(strings.NewReader(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range cs {
				got = append(got, strings.Join([]string{c.Time.Format(time.RFC3339Nano), c.Open.String(), c.High.String(),
					c.Low.String(), c.Close.String(), c.Volume.String()}, " "))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestParseOHLCVErrors(t *testing.T) {
	const h = "time,open,high,low,close,volume\n"
	for _, tc := range []struct{ name, in, wantErr string }{
		{"empty input", "", "line 1: empty input"},
		{"no time column", "when,open,high,low,close,volume\n", "line 1: missing time column"},
		{"missing column", "time,open,high,low,close\n", `line 1: missing column "volume"`},
		{"column twice", "time,open,open,high,low,close,volume\n", `line 1: column "open" appears twice`},
		{"bad number", h + "1714000000,1,2,x,1,1\n", `line 2: column "low": "x" is not a number`},
		{"negative", h + "1714000000,1,2,0.5,1,1\n1714000060,1,2,0.5,-1,1\n", `line 3: column "close": "-1" is negative`},
		{"empty value", h + "1714000000,1,2,0.5,1,\n", `line 2: column "volume": empty value`},
		{"too large", h + "1714000000,1,2,0.5,1,99999999999999999999\n", `line 2: column "volume": "99999999999999999999" is too large`},
		{"huge exponent", h + "1714000000,1,2,0.5,1,1e5000\n", `line 2: column "volume": "1e5000" is out of range`},
		{"tiny exponent", h + "1714000000,1,2,0.5,1,1e-5000\n", `line 2: column "volume": "1e-5000" is out of range`},
		{"short row", h + "1714000000,1,2\n", "line 2: want at least 6 fields, got 3"},
		{"bad time", h + "yesterday,1,2,0.5,1,1\n", `line 2: column "time": time "yesterday" is neither`},
		{"time out of range", h + "99999999999999,1,2,0.5,1,1\n", `line 2: column "time": time "99999999999999" is out of range`},
		{"duplicate time", h + "1714000000,1,1,1,1,1\n1714000000,1,1,1,1,1\n", "line 3: duplicate time 2024-04-24T23:06:40Z"},
		{"unsorted", h + "1714000060,1,1,1,1,1\n\n1714000000,1,1,1,1,1\n", "line 4: time 2024-04-24T23:06:40Z is before the previous row's 2024-04-24T23:07:40Z"},
		{"same instant, two forms", h + "1714000000,1,1,1,1,1\n1714000000000,1,1,1,1,1\n", "line 3: duplicate time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseOHLCV(strings.NewReader(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("err = %v, want it to contain %q", err, tc.wantErr)
			}
		})
	}
}

// The shipped files are OHLCV CSVs too: both parsers agree on them.
func TestParseOHLCVReadsTheShippedFile(t *testing.T) {
	raw, err := os.ReadFile("data/ETH-USD-15m.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	bars, err := ReadOHLCV(zr)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := Load("ETH-USD")
	all := s.Bars(s.First(), s.End())
	if len(bars) != len(all) {
		t.Fatalf("%d bars, the series has %d", len(bars), len(all))
	}
	for i := range bars {
		if bars[i] != all[i] {
			t.Fatalf("bar %d: %+v, series %+v", i, bars[i], all[i])
		}
	}
}

func TestAggregate(t *testing.T) {
	q := int64(15 * time.Minute)
	h := int64(time.Hour)
	bars := []Bar{
		{Time: 0, Open: 10, High: 12, Low: 9, Close: 11, Volume: 1},
		{Time: q, Open: 11, High: 15, Low: 10, Close: 14, Volume: 2},
		{Time: 3 * q, Open: 14, High: 14, Low: 5, Close: 6, Volume: 3}, // 00:30 missing
		{Time: h + q, Open: 6, High: 7, Low: 6, Close: 7, Volume: 4},   // next hour, from its second quarter
	}
	got := Aggregate(bars, time.Hour)
	want := []Bar{{Time: 0, Open: 10, High: 15, Low: 5, Close: 6, Volume: 6}, {Time: h, Open: 6, High: 7, Low: 6, Close: 7, Volume: 4}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("Aggregate = %+v, want %+v", got, want)
	}
}

func TestBarsSelectsTheRange(t *testing.T) {
	s, _ := Load("BTC-USD")
	from := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	bars := s.Bars(from, from.Add(24*time.Hour))
	if len(bars) != 96 || bars[0].Time != from.UnixNano() {
		t.Fatalf("%d bars from %v", len(bars), time.Unix(0, bars[0].Time).UTC())
	}
	c, _ := s.At(from)
	if got := bars[0].Candle(); !got.Open.Equal(c.Open) || !got.Close.Equal(c.Close) || !got.Time.Equal(c.Time) {
		t.Errorf("bar %+v, candle %+v", got, c)
	}
}

// The fast path for the common ISO forms agrees with time.Parse on every
// input it takes, and leaves the ones it refuses to it.
func TestFastISOAgreesWithTimeParse(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200_000 {
		s := fmt.Sprintf("%04d-%02d-%02dT%02d:%02d:%02dZ", 1600+rng.IntN(800), rng.IntN(14), rng.IntN(33), rng.IntN(25), rng.IntN(61), rng.IntN(61))
		if rng.IntN(4) == 0 {
			s = s[:10]
		}
		layout := time.RFC3339
		if len(s) == 10 {
			layout = time.DateOnly
		}
		want, err := time.Parse(layout, s)
		got, ok := fastISO([]byte(s))
		if ok && (err != nil || got != want.UnixNano()) {
			t.Fatalf("fastISO(%s) = %d, time.Parse = %v, %v", s, got, want, err)
		}
		if !ok && err == nil && want.Year() >= 1678 && want.Year() <= 2261 {
			t.Fatalf("fastISO(%s) refused what time.Parse reads", s)
		}
	}
}

// Large inputs are parsed in chunks: errors still name their line, the
// earliest one wins, and order is checked across the joins.
func TestParseOHLCVInChunks(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	const rows = 40_000 // about 1.3 MB: four chunks
	csv := func(edit func(i int, row string) string) string {
		var b strings.Builder
		b.WriteString("time,open,high,low,close,volume\n")
		for i := range rows {
			b.WriteString(edit(i, fmt.Sprintf("%d,100.5,101,99.25,100.75,12.5", 1714000000+60*i)) + "\n")
		}
		return b.String()
	}
	bars, err := ReadOHLCV(strings.NewReader(csv(func(i int, row string) string {
		if i%1000 == 7 {
			return row + "\n" // blank lines move the rows down
		}
		return row
	})))
	if err != nil || len(bars) != rows || bars[rows-1].Time != int64(1714000000+60*(rows-1))*1e9 {
		t.Fatalf("%d bars, err %v", len(bars), err)
	}
	for _, at := range []int{0, 9_999, 10_001, 20_001, 30_001, 39_999} { // 10_001, 20_001 and 30_001 start chunks
		line := at + 2
		_, err := ReadOHLCV(strings.NewReader(csv(func(i int, row string) string {
			if i == at || i == at+5 { // the first of two bad rows is reported
				return strings.Replace(row, "99.25", "x", 1)
			}
			return row
		})))
		if want := fmt.Sprintf("line %d: column \"low\"", line); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("bad value on line %d: %v", line, err)
		}
		if at == 0 {
			continue
		}
		_, err = ReadOHLCV(strings.NewReader(csv(func(i int, row string) string {
			if i == at {
				return fmt.Sprintf("%d,1,1,1,1,1", 1714000000+60*(i-1))
			}
			return row
		})))
		if want := fmt.Sprintf("line %d: duplicate time", line); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("duplicate on line %d: %v", line, err)
		}
	}
}
