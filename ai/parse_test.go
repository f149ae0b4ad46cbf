package ai

import (
	"errors"
	"testing"
)

func TestParseAnswer(t *testing.T) {
	tests := []struct {
		name, text string
		want       string // decision, or the error
	}{
		{"json alone", `{"decision":"BUY","confidence":0.8,"reasoning":"RSI low"}`, "BUY"},
		{"json in a code fence", "Here you go:\n```json\n{\"decision\":\"sell\",\"confidence\":0.6,\"reasoning\":\"MACD turned\"}\n```", "SELL"},
		{"first object in the text", `I think {"decision":"HOLD","confidence":"0.5","reasoning":"flat"} is right. {"x":1}`, "HOLD"},
		{"nested braces in strings", `{"decision":"HOLD","confidence":0.5,"reasoning":"range {90-110}"}`, "HOLD"},
		{"prose", "I would buy Bitcoin now, it looks strong.", `Model answer is not valid JSON: no JSON object in "I would buy Bitcoin now, it looks strong."`},
		{"broken json", `{"decision":"BUY","confidence":0.8,`, "Model answer is not valid JSON: unexpected EOF"},
		{"empty", "  ", "Model answer is empty"},
		{"missing confidence", `{"decision":"BUY","reasoning":"x"}`, `Model answer is missing "confidence"`},
		{"null reasoning", `{"decision":"BUY","confidence":0.8,"reasoning":null}`, `Model answer is missing "reasoning"`},
		{"confidence 1.7", `{"decision":"BUY","confidence":1.7,"reasoning":"x"}`, "Confidence 1.7 is outside 0-1"},
		{"negative confidence", `{"decision":"BUY","confidence":-0.1,"reasoning":"x"}`, "Confidence -0.1 is outside 0-1"},
		{"confidence not a number", `{"decision":"BUY","confidence":"high","reasoning":"x"}`, `Confidence must be a number, got "high"`},
		{"unknown decision", `{"decision":"STRONG BUY","confidence":0.9,"reasoning":"x"}`, `Unknown decision "STRONG BUY" (want BUY, SELL or HOLD)`},
		{"empty reasoning", `{"decision":"BUY","confidence":0.9,"reasoning":" "}`, "Reasoning must be a non-empty string"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := parseAnswer(tc.text)
			got := a.Decision
			if err != nil {
				var bad *AnswerError
				if !errors.As(err, &bad) {
					t.Fatalf("error %v is not an *AnswerError", err)
				}
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
