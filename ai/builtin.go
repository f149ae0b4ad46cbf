package ai

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// BuiltinLabel is the built-in analyst's name wherever a model is shown.
const BuiltinLabel = "Built-in analyst (offline)"

// Builtin is the offline rules analyst: deterministic, no network.
//
// Five signals each vote +1 (bullish), -1 (bearish) or 0, and a signal whose
// inputs are missing does not vote:
//   - RSI below 30 is oversold (+1), above 70 overbought (-1);
//   - the short SMA above the long SMA is +1, below -1;
//   - a positive MACD histogram is +1, negative -1;
//   - the price at or below the lower Bollinger band is +1, at or above the upper -1;
//   - the candles' return (first to last close) above +1% is +1, below -1% is -1.
//
// With n voting signals and score the sum of the votes, agreement a = |score|/n.
// score >= 2 is BUY and score <= -2 is SELL, with confidence 0.5 + 0.5a;
// otherwise HOLD with confidence 0.5 + 0.5 x (signals voting 0)/n. It never
// sells without a position: a SELL becomes HOLD with the same confidence. With
// no signal at all it holds with confidence 0.
type Builtin struct{}

var _ Provider = Builtin{}

// Name is "builtin".
func (Builtin) Name() string { return ProviderBuiltin }

// ModelLabel is BuiltinLabel whatever model option is configured.
func (Builtin) ModelLabel(string) string { return BuiltinLabel }

// Decide never fails. The Decision's Raw is the answer as JSON; it has no
// prompt, since the analyst reads the numbers directly.
func (Builtin) Decide(_ context.Context, r Request) (Decision, error) {
	a := analyse(r)
	raw, _ := json.Marshal(map[string]any{"decision": a.Decision, "confidence": a.Confidence, "reasoning": a.Reasoning})
	return Decision{Decision: a.Decision, Confidence: a.Confidence, Reasoning: a.Reasoning,
		Provider: ProviderBuiltin, Model: BuiltinLabel, Raw: string(raw)}, nil
}

// vote is one signal's view with the words that explain it.
type vote struct {
	v    int
	text string
}

func analyse(r Request) answer {
	votes := signals(r)
	if len(votes) == 0 {
		return answer{Hold, 0, "No indicators or candles to judge from, so holding."}
	}
	score, neutral := 0, 0
	parts := make([]string, len(votes))
	for i, v := range votes {
		score += v.v
		if v.v == 0 {
			neutral++
		}
		parts[i] = v.text
	}
	n := float64(len(votes))
	a := answer{Decision: Hold, Confidence: round(0.5 + 0.5*float64(neutral)/n)}
	if score >= 2 || score <= -2 {
		a.Decision, a.Confidence = Buy, round(0.5+0.5*float64(abs(score))/n)
		if score < 0 {
			a.Decision = Sell
		}
	}
	a.Reasoning = fmt.Sprintf("%s; score %+d from %d signals.", capitalise(strings.Join(parts, ", ")), score, len(votes))
	if a.Decision == Sell && !r.Position.IsPositive() {
		a.Decision = Hold
		a.Reasoning += " Bearish, but there is no position to sell, so holding."
	}
	return a
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func abs(x int) int { return max(x, -x) }

// round keeps confidences readable (two decimals).
func round(x float64) float64 { return float64(int(x*100+0.5)) / 100 }
