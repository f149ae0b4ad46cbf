package ai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// AnswerError is a model answer that is not a usable decision; Reason says
// why ("Confidence 1.7 is outside 0-1"). It is never traded.
type AnswerError struct{ Reason string }

func (e *AnswerError) Error() string { return e.Reason }

func badAnswer(format string, args ...any) *AnswerError {
	return &AnswerError{Reason: fmt.Sprintf(format, args...)}
}

// answer is a parsed, validated model answer.
type answer struct {
	Decision   string
	Confidence float64
	Reasoning  string
}

var fence = regexp.MustCompile("(?s)```[a-zA-Z]*\\s*(.*?)```")

// parseAnswer accepts JSON alone, JSON inside a ``` code fence, or the first
// {...} object in the text, and validates its three fields.
func parseAnswer(text string) (answer, error) {
	raw, err := findObject(text)
	if err != nil {
		return answer{}, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return answer{}, badAnswer("Model answer is not valid JSON: %v", err)
	}
	return validate(fields)
}

// findObject returns the JSON object the answer holds.
func findObject(text string) ([]byte, error) {
	t := strings.TrimSpace(text)
	if t == "" {
		return nil, badAnswer("Model answer is empty")
	}
	if m := fence.FindStringSubmatch(t); m != nil && strings.HasPrefix(strings.TrimSpace(m[1]), "{") {
		t = strings.TrimSpace(m[1])
	}
	i := strings.IndexByte(t, '{')
	if i < 0 {
		return nil, badAnswer("Model answer is not valid JSON: no JSON object in %q", clip(t, 80))
	}
	var obj json.RawMessage
	if err := json.NewDecoder(strings.NewReader(t[i:])).Decode(&obj); err != nil {
		return nil, badAnswer("Model answer is not valid JSON: %v", err)
	}
	return obj, nil
}

func validate(f map[string]json.RawMessage) (answer, error) {
	var a answer
	for _, k := range []string{"decision", "confidence", "reasoning"} {
		if v, ok := f[k]; !ok || bytes.Equal(v, []byte("null")) {
			return a, badAnswer("Model answer is missing %q", k)
		}
	}
	if err := json.Unmarshal(f["decision"], &a.Decision); err != nil {
		return a, badAnswer("Decision must be a string, got %s", clip(string(f["decision"]), 40))
	}
	a.Decision = strings.ToUpper(strings.TrimSpace(a.Decision))
	if a.Decision != Buy && a.Decision != Sell && a.Decision != Hold {
		return a, badAnswer("Unknown decision %q (want BUY, SELL or HOLD)", a.Decision)
	}
	c, err := confidence(f["confidence"])
	if err != nil {
		return a, err
	}
	a.Confidence = c
	if err := json.Unmarshal(f["reasoning"], &a.Reasoning); err != nil || strings.TrimSpace(a.Reasoning) == "" {
		return a, badAnswer("Reasoning must be a non-empty string")
	}
	a.Reasoning = strings.TrimSpace(a.Reasoning)
	return a, nil
}

// confidence reads a number (or a number in a string, which some models
// write) and checks it lies in 0-1.
func confidence(raw json.RawMessage) (float64, error) {
	var c float64
	if err := json.Unmarshal(raw, &c); err != nil {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return 0, badAnswer("Confidence must be a number, got %s", clip(string(raw), 40))
		}
		if c, err = strconv.ParseFloat(strings.TrimSpace(s), 64); err != nil {
			return 0, badAnswer("Confidence must be a number, got %q", clip(s, 40))
		}
	}
	if !(c >= 0 && c <= 1) { // written so NaN ("NaN" in a string parses) is refused too
		return 0, badAnswer("Confidence %s is outside 0-1", strconv.FormatFloat(c, 'f', -1, 64))
	}
	return c, nil
}

// repairPrompt asks again after a bad answer, quoting it and the reason.
func repairPrompt(prompt, bad string, why error) string {
	return prompt + "\nYour previous answer was:\n" + clip(bad, 2000) +
		"\n\nIt could not be used: " + why.Error() +
		".\nAnswer again with only the JSON object {\"decision\":\"BUY|SELL|HOLD\",\"confidence\":0.0-1.0,\"reasoning\":\"...\"} and no other text.\n"
}

// clip shortens s to n runes for messages.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
