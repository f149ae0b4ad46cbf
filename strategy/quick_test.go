package strategy

import (
	"context"
	"testing"

	"kestrel/candles"
	"kestrel/domain"
)

// QuickDecide gives Evaluate's decision and confidence on every candle.
func TestQuickDecideIsEvaluate(t *testing.T) {
	loose := *DefaultIndicators()
	loose.RSIOversold, loose.RSIOverbought, loose.SMAShort, loose.SMALong, loose.BollingerStd = 40, 60, 5, 13, 1.5
	for _, sym := range []string{"BTC-USD", "ADA-USD"} {
		s, err := candles.Load(sym)
		if err != nil {
			t.Fatal(err)
		}
		cs := make([]domain.Candle, 20000)
		for i := range cs {
			cs[i] = s.Candle(i)
		}
		for _, in := range []Indicators{*DefaultIndicators(), loose} {
			slow, fast := NewTechnical(in), NewTechnical(in).(QuickDecider)
			w := in.Warmup()
			votes := map[string]int{}
			for i := w; i < len(cs); i++ {
				win := cs[i-w : i+1]
				sig, err := slow.Evaluate(context.Background(), Input{Symbol: sym, Candles: win})
				if err != nil {
					t.Fatal(err)
				}
				d, c := fast.QuickDecide(sym, win)
				if d != sig.Decision || c != sig.Confidence {
					t.Fatalf("%s %+v candle %d: quick %s %v, evaluate %s %v (%s)", sym, in, i, d, c, sig.Decision, sig.Confidence, sig.Reasoning)
				}
				votes[d]++
			}
			if votes[Buy] == 0 || votes[Sell] == 0 {
				t.Fatalf("%s %+v: decisions %v (the comparison needs every kind)", sym, in, votes)
			}
		}
	}
}
