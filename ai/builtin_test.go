package ai

import (
	"context"
	"strings"
	"testing"
)

func TestBuiltinDecides(t *testing.T) {
	bull := map[string]float64{"rsi": 25, "sma_short": 102, "sma_long": 100, "macd_hist": 0.5, "bb_lower": 104, "bb_upper": 120}
	bear := map[string]float64{"rsi": 80, "sma_short": 98, "sma_long": 100, "macd_hist": -0.5, "bb_lower": 80, "bb_upper": 102}
	tests := []struct {
		name       string
		indicators map[string]float64
		closes     []float64
		position   string
		want       string
		confidence float64
		reasoning  string
	}{
		{"all five bullish", bull, []float64{100, 103}, "0", "BUY", 1, "RSI 25.00 is oversold (<30)"},
		{"all five bearish, holding", bear, []float64{106, 103}, "0.5", "SELL", 1, "short SMA 98.00 is below long SMA 100.00"},
		{"all five bearish, nothing held", bear, []float64{106, 103}, "0", "HOLD", 1, "no position to sell"},
		{"two bullish of five", map[string]float64{"rsi": 50, "sma_short": 102, "sma_long": 100, "macd_hist": 0.1, "bb_lower": 90, "bb_upper": 110},
			[]float64{103, 103}, "0", "BUY", 0.7, "score +2 from 5 signals"},
		{"one bullish of five holds", map[string]float64{"rsi": 50, "sma_short": 102, "sma_long": 100, "macd_hist": 0, "bb_lower": 90, "bb_upper": 110},
			[]float64{103, 103}, "0", "HOLD", 0.9, "MACD histogram 0.0000 is flat"},
		{"conflicting signals hold", map[string]float64{"rsi": 25, "sma_short": 98, "sma_long": 100}, nil, "0", "HOLD", 0.5, "score +0 from 2 signals"},
		{"candles only", nil, []float64{100, 101, 103}, "0", "HOLD", 0.5, "Return over 3 candles +3.00%"},
		{"nothing to judge", nil, nil, "0", "HOLD", 0, "No indicators or candles"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := Request{Symbol: "BTC-USD", Indicators: tc.indicators, Candles: candles(tc.closes...), Position: dec(tc.position)}
			if len(tc.closes) > 0 {
				r.Price = dec("103")
			}
			d, err := Builtin{}.Decide(context.Background(), r)
			if err != nil {
				t.Fatal(err)
			}
			if d.Decision != tc.want || d.Confidence != tc.confidence {
				t.Errorf("got %s %.2f, want %s %.2f (%s)", d.Decision, d.Confidence, tc.want, tc.confidence, d.Reasoning)
			}
			if !strings.Contains(d.Reasoning, tc.reasoning) {
				t.Errorf("reasoning %q lacks %q", d.Reasoning, tc.reasoning)
			}
			if d.Provider != "builtin" || d.Model != "Built-in analyst (offline)" {
				t.Errorf("provenance %s / %s", d.Provider, d.Model)
			}
		})
	}
}

func TestBuiltinIsDeterministic(t *testing.T) {
	r := sampleRequest()
	first, _ := Builtin{}.Decide(context.Background(), r)
	for range 20 {
		again, _ := Builtin{}.Decide(context.Background(), r)
		if again.Reasoning != first.Reasoning || again.Decision != first.Decision || again.Raw != first.Raw {
			t.Fatalf("answers differ:\n%+v\n%+v", first, again)
		}
	}
	if want := `{"confidence":0.8,"decision":"BUY","reasoning":`; !strings.HasPrefix(first.Raw, want) {
		t.Errorf("raw %s", first.Raw)
	}
}

func TestBuiltinLabel(t *testing.T) {
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.ModelLabel("gpt-4.1-nano"); got != "Built-in analyst (offline)" {
		t.Errorf("label %q", got)
	}
	if err := Test(context.Background(), Config{Provider: "builtin"}); err != nil {
		t.Errorf("test: %v", err)
	}
}
