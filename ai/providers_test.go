package ai

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

const good = `{"decision":"BUY","confidence":0.8,"reasoning":"SMA 10 above SMA 20"}`

// Both hosted providers against a fake that speaks their API.
func TestHostedProviders(t *testing.T) {
	tests := []struct {
		name      string
		steps     []step
		timeout   time.Duration
		wantErr   string // empty: a BUY decision
		wantCalls int
	}{
		{"success", []step{{text: good}}, 0, "", 1},
		{"json in a code fence", []step{{text: "Sure.\n```json\n" + good + "\n```"}}, 0, "", 1},
		{"prose, then repaired", []step{{text: "I would buy."}, {text: good}}, 0, "", 2},
		{"prose twice", []step{{text: "I would buy."}, {text: "Definitely buy."}}, 0, `Model answer is not valid JSON: no JSON object in "Definitely buy."`, 2},
		{"confidence 1.7", []step{{text: `{"decision":"BUY","confidence":1.7,"reasoning":"sure"}`}}, 0, "Confidence 1.7 is outside 0-1", 2},
		{"401", []step{{status: 401, detail: "Invalid token"}}, 0, "rejected the API token (401 Unauthorized): Invalid token", 1},
		{"429, then served", []step{{status: 429, detail: "Throttled", header: map[string]string{"Retry-After": "0"}}, {text: good}}, 0, "", 2},
		{"429 twice", []step{{status: 429, detail: "Throttled", header: map[string]string{"Retry-After": "0"}}}, 0, "rate limit reached (429 Too Many Requests), retry after 0s: Throttled", 2},
		{"429 beyond the timeout", []step{{status: 429, detail: "Throttled", header: map[string]string{"Retry-After": "120"}}}, 2 * time.Second, "rate limit reached (429 Too Many Requests), retry after 2m0s: Throttled", 1},
		{"5xx", []step{{status: 503, detail: "Overloaded"}}, 0, "server error (503 Service Unavailable): Overloaded", 1},
		{"slow past the timeout", []step{{text: good, delay: 3 * time.Second}}, 150 * time.Millisecond, "did not answer within the 150ms timeout", 1},
	}
	for _, kind := range []string{"replicate", "openai"} {
		for _, tc := range tests {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				f := newFake(t, kind, tc.steps...)
				d, err := f.provider(t, tc.timeout).Decide(context.Background(), sampleRequest())
				checkOutcome(t, d, err, tc.wantErr)
				if got := f.calls(); got != tc.wantCalls {
					t.Errorf("calls = %d, want %d", got, tc.wantCalls)
				}
				if d.Prompt == "" || d.PromptHash != HashPrompt(d.Prompt) || d.TemplateVersion != TemplateVersion {
					t.Errorf("provenance missing: hash %q version %q", d.PromptHash, d.TemplateVersion)
				}
				if tc.wantCalls == 2 && tc.steps[0].status == 0 && !strings.Contains(d.Raw, repairMarker) {
					t.Errorf("raw %q does not hold both answers", d.Raw)
				}
			})
		}
	}
}

func checkOutcome(t *testing.T, d Decision, err error, wantErr string) {
	t.Helper()
	if wantErr == "" {
		if err != nil || d.Decision != "BUY" || d.Confidence != 0.8 || d.Reasoning != "SMA 10 above SMA 20" {
			t.Fatalf("got %+v, %v", d, err)
		}
		return
	}
	if err == nil || !strings.Contains(err.Error(), wantErr) {
		t.Fatalf("error %v, want it to contain %q", err, wantErr)
	}
	if d.Decision != "" {
		t.Errorf("a failed call answered %s", d.Decision)
	}
}

func TestRepairRetrySumsLatencyAndUsage(t *testing.T) {
	for _, kind := range []string{"replicate", "openai"} {
		t.Run(kind, func(t *testing.T) {
			f := newFake(t, kind, step{text: "Buy.", delay: 30 * time.Millisecond}, step{text: good, delay: 30 * time.Millisecond})
			d, err := f.provider(t, 0).Decide(context.Background(), sampleRequest())
			if err != nil {
				t.Fatal(err)
			}
			if d.Latency < 60*time.Millisecond || d.PromptTokens != 240 || d.CompletionTokens != 60 {
				t.Errorf("latency %s, tokens %d/%d: want both calls summed", d.Latency, d.PromptTokens, d.CompletionTokens)
			}
			repair := promptSent(f.request(1))
			if !strings.Contains(repair, "Your previous answer was:\nBuy.") || !strings.Contains(repair, "It could not be used: Model answer is not valid JSON") {
				t.Errorf("repair prompt:\n%s", repair)
			}
		})
	}
}

func TestAnswerErrorIsDistinct(t *testing.T) {
	f := newFake(t, "openai", step{text: "no"})
	_, err := f.provider(t, 0).Decide(context.Background(), sampleRequest())
	var bad *AnswerError
	if !errors.As(err, &bad) {
		t.Fatalf("%v is not an *AnswerError", err)
	}
	f = newFake(t, "openai", step{status: 500, detail: "boom"})
	if _, err = f.provider(t, 0).Decide(context.Background(), sampleRequest()); errors.As(err, &bad) {
		t.Fatalf("a provider failure must not be an *AnswerError: %v", err)
	}
}

// promptSent is the user prompt of a recorded request, in either API.
func promptSent(s seen) string {
	if in, ok := s.body["input"].(map[string]any); ok {
		p, _ := in["prompt"].(string)
		return p
	}
	msgs, _ := s.body["messages"].([]any)
	if len(msgs) < 2 {
		return ""
	}
	p, _ := msgs[1].(map[string]any)["content"].(string)
	return p
}
