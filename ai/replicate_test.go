package ai

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestReplicateRequest(t *testing.T) {
	f := newFake(t, "replicate", step{text: good})
	d, err := f.provider(t, 30*time.Second).Decide(context.Background(), sampleRequest())
	if err != nil {
		t.Fatal(err)
	}
	s := f.request(0)
	if s.method != "POST" || s.path != "/v1/models/openai/gpt-4.1-nano/predictions" {
		t.Errorf("%s %s", s.method, s.path)
	}
	if s.header.Get("Authorization") != "Bearer tok-123" || s.header.Get("Prefer") != "wait=30" {
		t.Errorf("headers %v", s.header)
	}
	in := s.body["input"].(map[string]any)
	if in["max_completion_tokens"] != 500.0 || in["temperature"] != 0.3 || !strings.HasPrefix(in["system_prompt"].(string), "You are a cautious") {
		t.Errorf("input %v", in)
	}
	if in["prompt"] != d.Prompt {
		t.Error("the recorded prompt is not the one sent")
	}
	if d.Provider != "replicate" || d.Model != "openai/gpt-4.1-nano" || d.PromptTokens != 120 || d.CompletionTokens != 30 || d.Cost != nil {
		t.Errorf("provenance %+v", d)
	}
}

func TestReplicateModelTable(t *testing.T) {
	tests := []struct{ option, path, tokens, absent string }{
		{"gpt-4.1-nano", "/v1/models/openai/gpt-4.1-nano/predictions", "max_completion_tokens", "max_tokens"},
		{"gpt-4-turbo", "/v1/models/openai/gpt-4.1/predictions", "max_completion_tokens", "max_new_tokens"},
		{"claude-3-sonnet", "/v1/models/anthropic/claude-4-sonnet/predictions", "max_tokens", "temperature"},
		{"llama-2-70b", "/v1/models/meta/llama-2-70b-chat/predictions", "max_new_tokens", "max_tokens"},
	}
	for _, tc := range tests {
		t.Run(tc.option, func(t *testing.T) {
			f := newFake(t, "replicate", step{text: good})
			r := sampleRequest()
			r.Model, r.Temperature = tc.option, 0
			d, err := f.provider(t, 0).Decide(context.Background(), r)
			if err != nil {
				t.Fatal(err)
			}
			s := f.request(0)
			in := s.body["input"].(map[string]any)
			if s.path != tc.path || in[tc.tokens] == nil || in[tc.absent] != nil {
				t.Errorf("%s %v", s.path, in)
			}
			if want := strings.Split(tc.path, "/")[3] + "/" + strings.Split(tc.path, "/")[4]; d.Model != want {
				t.Errorf("model %q, want %q", d.Model, want)
			}
		})
	}
	// Claude's schema wants at least 1024 tokens; Llama's temperature must be above 0.
	if in := ReplicateModels["claude-3-sonnet"].input(query{MaxTokens: 500}); in["max_tokens"] != 1024 {
		t.Errorf("claude %v", in)
	}
	if in := ReplicateModels["llama-2-70b"].input(query{MaxTokens: 500}); in["temperature"] != 0.01 || in["max_new_tokens"] != 500 {
		t.Errorf("llama %v", in)
	}
	if _, err := New(Config{Provider: "replicate", Model: "gpt-5"}); err == nil || !strings.Contains(err.Error(), `unknown Replicate model option "gpt-5"`) {
		t.Errorf("unknown option: %v", err)
	}
}

// asyncReplicate answers "starting", then "processing" for the given number
// of polls, then the output.
func asyncReplicate(t *testing.T, polls int, output any) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		pending := map[string]any{"id": "p9", "status": "starting", "urls": map[string]any{"get": srv.URL + "/v1/predictions/p9"}}
		if r.Method == "POST" {
			w.WriteHeader(http.StatusCreated)
			json.NewEncoder(w).Encode(pending)
			return
		}
		if r.URL.Path != "/v1/predictions/p9" || r.Header.Get("Authorization") != "Bearer tok-123" {
			t.Errorf("poll %s with %q", r.URL.Path, r.Header.Get("Authorization"))
		}
		if int(n.Add(1)) <= polls {
			pending["status"] = "processing"
			json.NewEncoder(w).Encode(pending)
			return
		}
		json.NewEncoder(w).Encode(output)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func replicateAt(t *testing.T, url string, timeout time.Duration) Provider {
	t.Helper()
	p, err := New(Config{Provider: "replicate", APIToken: "tok-123", Model: "gpt-4.1-nano", ReplicateBaseURL: url, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReplicatePollsAndJoinsChunks(t *testing.T) {
	chunks := []string{`{"decision":"BUY",`, `"confidence":0.8,`, `"reasoning":"SMA 10 above SMA 20"}`}
	srv, polls := asyncReplicate(t, 2, succeeded(chunks))
	d, err := replicateAt(t, srv.URL, 10*time.Second).Decide(context.Background(), sampleRequest())
	checkOutcome(t, d, err, "")
	if polls.Load() != 3 {
		t.Errorf("polls = %d, want 3", polls.Load())
	}
}

func TestReplicatePollingStopsAtTheTimeout(t *testing.T) {
	srv, _ := asyncReplicate(t, 1000, nil)
	start := time.Now()
	_, err := replicateAt(t, srv.URL, 700*time.Millisecond).Decide(context.Background(), sampleRequest())
	if err == nil || !strings.Contains(err.Error(), "prediction p9 still processing: Replicate did not answer within the 700ms timeout") {
		t.Fatalf("error %v", err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("took %s", took)
	}
}

func TestReplicateFailedPrediction(t *testing.T) {
	srv, _ := asyncReplicate(t, 0, map[string]any{"id": "p9", "status": "failed", "error": "CUDA out of memory"})
	_, err := replicateAt(t, srv.URL, 0).Decide(context.Background(), sampleRequest())
	if err == nil || err.Error() != "Replicate prediction p9 failed: CUDA out of memory" {
		t.Fatalf("error %v", err)
	}
}

func TestReplicateRefusals(t *testing.T) {
	f := newFake(t, "replicate", step{text: good})
	p, _ := New(Config{Provider: "replicate", Model: "gpt-4.1-nano", ReplicateBaseURL: f.srv.URL})
	if _, err := p.Decide(context.Background(), sampleRequest()); err == nil || err.Error() != "Replicate API token is required" {
		t.Errorf("no token: %v", err)
	}
	// The token is never sent to a host other than the API's.
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated)
		w.Write([]byte(`{"id":"p1","status":"starting","urls":{"get":"http://elsewhere.example/v1/predictions/p1"}}`))
	}))
	defer other.Close()
	if _, err := replicateAt(t, other.URL, 0).Decide(context.Background(), sampleRequest()); err == nil || !strings.Contains(err.Error(), "no usable urls.get") {
		t.Errorf("foreign urls.get: %v", err)
	}
}
