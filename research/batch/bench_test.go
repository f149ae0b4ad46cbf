package batch_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/backtest"
	"kestrel/domain"
	"kestrel/research/batch"
)

// hourly merges the shipped 15-minute candles into UTC hours.
func hourly(cs []domain.Candle) []domain.Candle {
	var out []domain.Candle
	for _, c := range cs {
		h := c.Time.Truncate(time.Hour)
		if n := len(out); n > 0 && out[n-1].Time.Equal(h) {
			o := &out[n-1]
			o.High, o.Low, o.Close, o.Volume = decimal.Max(o.High, c.High), decimal.Min(o.Low, c.Low), c.Close, o.Volume.Add(c.Volume)
			continue
		}
		c.Time = h
		out = append(out, c)
	}
	return out
}

// yearSweep is the reference sweep: 1,000 trials (RSI period, oversold and
// overbought levels, 10 values each) of the technical strategy over a year
// of hourly BTC-USD candles (8,760, each trial's warm-up before them), risk
// limits off, a 2% stop, the live half-spread.
func yearSweep(b testing.TB) ([]backtest.Request, int) {
	const year = 8760
	cs := hourly(shipped(b, "BTC-USD", 1<<30))
	if len(cs) < year+1000 {
		b.Fatalf("%d hourly candles", len(cs))
	}
	cs = cs[len(cs)-year-1000:]
	s := sweep{grid: grid([]int{7, 9, 11, 13, 14, 15, 17, 19, 21, 25}, []float64{20, 22, 24, 26, 28, 30, 32, 34, 36, 38},
		[]float64{62, 64, 66, 68, 70, 72, 74, 76, 78, 80}), policy: all(unlimited, stop("0.02"))}
	return s.requests("BTC-USD", cs, len(cs)-year), year
}

// cpu is the process's user and system CPU time so far.
func cpu() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// BenchmarkYearSweep reports candle evaluations (trials x candles traded)
// per CPU second of the whole sweep: batched (indicator series, signals,
// accounts, every trial's fills) and on the event engine (backtest.Run per
// trial, as a sweep runs today). Run it with -cpu 1.
func BenchmarkYearSweep(b *testing.B) {
	reqs, year := yearSweep(b)
	ctx := context.Background()
	for _, eng := range []string{batch.Batched, batch.Event} {
		b.Run(eng, func(b *testing.B) {
			fills := 0
			c0 := cpu()
			for b.Loop() {
				fills = 0
				if eng == batch.Batched {
					ts, err := batch.Run(ctx, reqs)
					if err != nil {
						b.Fatal(err)
					}
					for _, t := range ts {
						if t.Engine != batch.Batched {
							b.Fatalf("a trial ran on the %s engine: %s", t.Engine, t.Why)
						}
						fills += t.Len()
					}
					continue
				}
				for _, req := range reqs {
					res, err := backtest.Run(ctx, req)
					if err != nil {
						b.Fatal(err)
					}
					fills += len(res.Fills)
				}
			}
			secs := (cpu() - c0).Seconds()
			evals := float64(len(reqs)) * float64(year) * float64(b.N)
			b.ReportMetric(evals/secs/1e6, "Mevals/cpu-s")
			b.ReportMetric(float64(fills)/float64(len(reqs)), "fills/trial")
		})
	}
}
