package analytics

import (
	"testing"
	"time"

	"kestrel/candles"
)

// shippedDaily is the shipped candles' daily closes, as the risk view reads them.
func shippedDaily(b *testing.B) map[string][]Close {
	out := map[string][]Close{}
	for _, sym := range candles.Symbols() {
		s, err := candles.Load(sym)
		if err != nil {
			b.Fatal(err)
		}
		for _, d := range candles.Aggregate(s.Bars(s.First(), s.End()), 24*time.Hour) {
			c := d.Candle()
			out[sym] = append(out[sym], Close{Date: c.Time, Price: c.Close})
		}
	}
	return out
}

// The risk view's history work for a four-asset portfolio: the six stress
// tests with their frequencies, the worst day and week, and the scenario analysis.
func BenchmarkRiskScenarios(b *testing.B) {
	closes := shippedDaily(b)
	holdings := []Holding{{Symbol: "BTC-USD", MarketValue: dec("40000")}, {Symbol: "ETH-USD", MarketValue: dec("30000")},
		{Symbol: "ADA-USD", MarketValue: dec("10000")}, {Symbol: "SOL-USD", MarketValue: dec("20000")}}
	value := dec("120000")
	b.ResetTimer()
	for b.Loop() {
		scs := append([]Scenario{}, Scenarios...)
		for _, n := range []int{1, 7} {
			if sc, ok := WorstHistorical(closes, holdings, n, "Worst"); ok {
				scs = append(scs, sc)
			}
		}
		for _, sc := range scs {
			_ = StressTest(sc, holdings, value).WithFrequency(StressFrequency(sc, closes, holdings))
		}
		_ = ScenarioAnalysis(closes, holdings, value, candles.Symbols())
	}
}
