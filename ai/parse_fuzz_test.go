package ai

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParseAnswer: whatever a model writes, parseAnswer either returns a
// decision that is BUY, SELL or HOLD with confidence in 0-1 and a non-empty
// reasoning, or an AnswerError with a reason. It never panics.
func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{
		`{"decision":"BUY","confidence":0.8,"reasoning":"RSI oversold"}`,
		"Here you go:\n```json\n{\"decision\":\"hold\",\"confidence\":\"0.5\",\"reasoning\":\"flat\"}\n```",
		`I think {"decision":"SELL","confidence":1,"reasoning":"overbought"} is right`,
		`{"decision":"BUY","confidence":1.7,"reasoning":"x"}`,
		`{"decision":"BUY","confidence":null,"reasoning":"x"}`,
		`{"decision":"BUY","confidence":"NaN","reasoning":"x"}`,
		`{"decision":["BUY"],"confidence":0.1,"reasoning":""}`,
		"```\n{\"decision\":",
		``, `{}`, `{{{`, `NaN`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		a, err := parseAnswer(text)
		if err != nil {
			var ae *AnswerError
			if !errors.As(err, &ae) || ae.Reason == "" {
				t.Fatalf("error %v is not an AnswerError with a reason", err)
			}
			return
		}
		if a.Decision != Buy && a.Decision != Sell && a.Decision != Hold {
			t.Fatalf("decision %q", a.Decision)
		}
		if !(a.Confidence >= 0 && a.Confidence <= 1) {
			t.Fatalf("confidence %v outside 0-1", a.Confidence)
		}
		if strings.TrimSpace(a.Reasoning) == "" {
			t.Fatal("empty reasoning accepted")
		}
	})
}
