package candles

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// hourlyCSV is n hourly BTC-USD candles as CSV: the shipped history merged
// into hours and repeated end to end, as docs/PERFORMANCE.md measures.
func hourlyCSV(b *testing.B, n int) []byte {
	s, err := Load("BTC-USD")
	if err != nil {
		b.Fatal(err)
	}
	hours := Aggregate(s.Bars(s.First(), s.End()), time.Hour)
	span := hours[len(hours)-1].Time + int64(time.Hour) - hours[0].Time
	var buf bytes.Buffer
	buf.WriteString("time,open,high,low,close,volume\n")
	for i := range n {
		h := hours[i%len(hours)]
		t := time.Unix(0, h.Time+int64(i/len(hours))*span).UTC().Format(time.RFC3339)
		fmt.Fprintf(&buf, "%s,%s,%s,%s,%s,%s\n", t, fixed(h.Open), fixed(h.High), fixed(h.Low), fixed(h.Close), fixed(h.Volume))
	}
	return buf.Bytes()
}

func fixed(v int64) string { return Bar{Open: v}.Candle().Open.String() }

// BenchmarkReadOHLCV50kHourly reads the file kestrel backtest --csv reads
// in docs/PERFORMANCE.md.
func BenchmarkReadOHLCV50kHourly(b *testing.B) {
	data := hourlyCSV(b, 50_000)
	path := filepath.Join(b.TempDir(), "hourly.csv")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ReadOHLCV(f); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
	b.ReportMetric(50_000*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
