package strategy

import (
	"context"
	"math"
	"testing"
	"time"

	"kestrel/ai"
	"kestrel/candles"
	"kestrel/domain"
)

// hourly is the shipped history of symbol as hourly candles (the default
// strategies' timeframe), oldest first.
func hourly(t *testing.T, symbol string) []domain.Candle {
	t.Helper()
	s, err := candles.Load(symbol)
	if err != nil {
		t.Fatal(err)
	}
	bars := candles.Aggregate(s.Bars(s.First(), s.End()), time.Hour)
	cs := make([]domain.Candle, len(bars))
	for i := range bars {
		cs[i] = bars[i].Candle()
	}
	return cs
}

// A decision does not depend on how long the indicator stream has run: on
// every hourly candle of the last year of shipped history, an instance
// started fresh there (shown the Window() candles the live engine fetches
// after a restart or a change of configuration) decides exactly as one that
// has streamed every candle since the history began (as the live engine's
// and a backtest's do), with the same reasoning (whose figures are rounded
// as shown) and indicator values equal to within 1e-9 of their size (the
// EMAs' last bits keep a trace of their start, below Settle); and an AI
// instance's prompt (its hash: candles, rounded indicators) is the same
// fresh as long-running.
func TestFreshStreamAgreesWithLongRunning(t *testing.T) {
	const year = 365 * 24
	tech := Default(domain.StrategyTechnical, "t")
	aiCfg := Default(domain.StrategyAI, "a")
	build := Builder(AIDeps{Provider: func() (ai.Provider, error) { return ai.Builtin{}, nil }, Limits: func() string { return "limits" }})
	ctx := context.Background()
	for _, sym := range []string{"BTC-USD", "ADA-USD"} {
		cs := hourly(t, sym)
		n := tech.Window()
		if len(cs) < year+n {
			t.Fatalf("%s: %d hourly candles, need %d", sym, len(cs), year+n)
		}
		long := NewTechnical(*tech.Indicators)
		longAI, err := build(aiCfg)
		if err != nil {
			t.Fatal(err)
		}
		na := aiCfg.Window()
		differ, votes := 0, map[string]int{}
		for i := n - 1; i < len(cs); i++ {
			want, _ := long.Evaluate(ctx, Input{Symbol: sym, Candles: cs[i-n+1 : i+1]})
			var wantPrompt ai.Rendered
			if i >= na-1 {
				if wantPrompt, err = longAI.(Prompter).Prompt(Input{Symbol: sym, Candles: cs[i-na+1 : i+1]}); err != nil {
					t.Fatal(err)
				}
			}
			if i < len(cs)-year {
				continue // the long-running streams run on
			}
			got, _ := NewTechnical(*tech.Indicators).Evaluate(ctx, Input{Symbol: sym, Candles: cs[i-n+1 : i+1]})
			votes[got.Decision]++
			if got.Decision != want.Decision || got.Confidence != want.Confidence || got.Reasoning != want.Reasoning || !sameValues(got.Indicators, want.Indicators) {
				differ++
				if differ <= 3 {
					t.Errorf("%s %s: fresh %s %v %q, long-running %s %v %q", sym, cs[i].Time, got.Decision, got.Confidence, got.Reasoning,
						want.Decision, want.Confidence, want.Reasoning)
				}
			}
			fresh, err := build(aiCfg)
			if err != nil {
				t.Fatal(err)
			}
			p, err := fresh.(Prompter).Prompt(Input{Symbol: sym, Candles: cs[i-na+1 : i+1]})
			if err != nil {
				t.Fatal(err)
			}
			if p.Hash != wantPrompt.Hash {
				differ++
				if differ <= 3 {
					t.Errorf("%s %s: the fresh AI prompt differs:\n%s\nlong-running:\n%s", sym, cs[i].Time, p.Prompt, wantPrompt.Prompt)
				}
			}
		}
		if differ > 0 {
			t.Fatalf("%s: %d of %d candles differ fresh and long-running", sym, differ, year)
		}
		if votes[Buy] == 0 || votes[Sell] == 0 {
			t.Fatalf("%s: decisions %v (the comparison needs every kind)", sym, votes)
		}
	}
}

func sameValues(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || math.Abs(w-v) > 1e-9*math.Max(1, math.Abs(w)) {
			return false
		}
	}
	return true
}
