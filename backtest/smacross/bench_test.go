package smacross

import (
	"testing"

	"kestrel/candles"
)

// repeatedBTC is the shipped BTC-USD 15-minute history repeated times over,
// each copy shifted to follow the previous one.
func repeatedBTC(b *testing.B, times int) []candles.Bar {
	s, err := candles.Load("BTC-USD")
	if err != nil {
		b.Fatal(err)
	}
	one := s.Bars(s.First(), s.End())
	span := s.End().UnixNano() - s.First().UnixNano()
	out := make([]candles.Bar, 0, len(one)*times)
	for i := range times {
		for _, bar := range one {
			bar.Time += int64(i) * span
			out = append(out, bar)
		}
	}
	return out
}

// BenchmarkSMACross runs sma-cross 10/20 with the sandbox taker fee over
// about 720,000 candles and reports candles per second on one core.
func BenchmarkSMACross(b *testing.B) {
	bars := repeatedBTC(b, 10)
	p := Params{Fast: 10, Slow: 20, Capital: 10_000 * unit, FeeRate: 600_000}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Run(bars, p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(bars))*float64(b.N)/b.Elapsed().Seconds(), "candles/s")
}

// BenchmarkSMACrossReport adds formatting the result (every fill as decimal strings).
func BenchmarkSMACrossReport(b *testing.B) {
	bars := repeatedBTC(b, 10)
	p := Params{Fast: 10, Slow: 20, Capital: 10_000 * unit, FeeRate: 600_000}
	b.ResetTimer()
	for b.Loop() {
		r, err := Run(bars, p)
		if err != nil {
			b.Fatal(err)
		}
		_ = r.Report("BTC-USD")
	}
	b.ReportMetric(float64(len(bars))*float64(b.N)/b.Elapsed().Seconds(), "candles/s")
}
