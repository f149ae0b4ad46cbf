package main

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"kestrel/candles"
)

// BenchmarkBacktestTechnicalCSV: kestrel backtest --strategy technical --csv
// over 50,000 hourly candles in the process (docs/PERFORMANCE.md measures
// the whole process): reading the file, the run and the text report.
func BenchmarkBacktestTechnicalCSV(b *testing.B) {
	path := hourlyCSV(b, 50_000)
	for b.Loop() {
		if err := backtestCmd([]string{"--strategy", "technical", "--csv", path}, strings.NewReader(""), io.Discard, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(50_000*float64(b.N)/b.Elapsed().Seconds(), "candles/s")
}

// hourlyCSV writes n hourly BTC-USD candles made from the shipped 15-minute
// ones (merged into UTC hours, the hours repeated end to end as the
// documentation's script does) to a file and returns its path.
func hourlyCSV(b *testing.B, n int) string {
	s, err := candles.Load("BTC-USD")
	if err != nil {
		b.Fatal(err)
	}
	hours := candles.Aggregate(s.Bars(s.First(), s.End()), time.Hour)
	span := hours[len(hours)-1].Time - hours[0].Time + int64(time.Hour)
	path := filepath.Join(b.TempDir(), "hourly.csv")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString("time,open,high,low,close,volume\n")
	num := func(v int64) string { // v x 10^-8 exactly, without trailing zeros (prices are positive)
		frac := strings.TrimRight(strconv.FormatInt(1e8+v%1e8, 10)[1:], "0")
		if frac == "" {
			return strconv.FormatInt(v/1e8, 10)
		}
		return strconv.FormatInt(v/1e8, 10) + "." + frac
	}
	for i := range n {
		h := hours[i%len(hours)]
		at := time.Unix(0, h.Time+int64(i/len(hours))*span).UTC()
		w.WriteString(at.Format("2006-01-02T15:04:05Z") + "," + num(h.Open) + "," + num(h.High) + "," + num(h.Low) + "," + num(h.Close) + "," + num(h.Volume) + "\n")
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}
