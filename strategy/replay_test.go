package strategy

import (
	"context"
	"testing"

	"kestrel/candles"
	"kestrel/domain"
	"kestrel/indicators"
)

// A Replay fed every close from the first candle decides as Evaluate does
// on each window, and the stream's readings are the indicators' series bit
// for bit, also where an SMA is the Bollinger middle (not computed twice).
func TestReplayIsEvaluate(t *testing.T) {
	shared := *DefaultIndicators() // SMALong = BollingerPeriod
	short := shared
	short.SMAShort, short.SMALong, short.RSIOversold, short.RSIOverbought = 20, 50, 40, 60 // SMAShort = BollingerPeriod
	apart := shared
	apart.SMALong, apart.BollingerStd = 30, 1.5
	s, err := candles.Load("ETH-USD")
	if err != nil {
		t.Fatal(err)
	}
	cs := make([]domain.Candle, 15000)
	closes := make([]float64, len(cs))
	for i := range cs {
		cs[i] = s.Candle(i)
		closes[i] = Float(cs[i].Close)
	}
	for _, in := range []Indicators{shared, short, apart} {
		slow := NewTechnical(in)
		r := slow.(Replayer).Replay()
		smaS, smaL := indicators.SMASeries(closes, in.SMAShort), indicators.SMASeries(closes, in.SMALong)
		rsi := indicators.RSISeries(closes, in.RSIPeriod)
		macd, sig, _ := indicators.MACDSeries(closes, in.MACDFast, in.MACDSlow, in.MACDSignal)
		mid, up, lo := indicators.BollingerSeries(closes, in.BollingerPeriod, in.BollingerStd)
		w := in.Warmup()
		votes := map[string]int{}
		for i := range cs {
			if i < w {
				r.Feed(closes[i])
				continue
			}
			d, c := r.Next(closes[i])
			got, err := slow.Evaluate(context.Background(), Input{Symbol: "ETH-USD", Candles: cs[i-w : i+1]})
			if err != nil {
				t.Fatal(err)
			}
			if d != got.Decision || c != got.Confidence {
				t.Fatalf("%+v candle %d: replay %s %v, evaluate %s %v (%s)", in, i, d, c, got.Decision, got.Confidence, got.Reasoning)
			}
			votes[d]++
			want := map[string]float64{"rsi": rsi[i], "sma_short": smaS[i], "sma_long": smaL[i], "macd": macd[i], "macd_signal": sig[i],
				"bb_middle": mid[i], "bb_upper": up[i], "bb_lower": lo[i]}
			for k, v := range want {
				if got.Indicators[k] != v {
					t.Fatalf("%+v candle %d: %s %v, series %v", in, i, k, got.Indicators[k], v)
				}
			}
		}
		if votes[Buy] == 0 || votes[Sell] == 0 {
			t.Fatalf("%+v: decisions %v (the comparison needs every kind)", in, votes)
		}
	}
}
