package ai

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// step is one scripted answer of a fake provider: the model's text on
// success, or an error status with its detail.
type step struct {
	text   string
	status int // 0: success
	detail string
	header map[string]string
	delay  time.Duration
}

// seen is one request the fake received.
type seen struct {
	method, path string
	header       http.Header
	body         map[string]any
}

// fake speaks Replicate's predictions API or the OpenAI chat API, answering
// requests with its steps in order (the last one repeats).
type fake struct {
	kind  string // replicate | openai
	srv   *httptest.Server
	mu    sync.Mutex
	steps []step
	reqs  []seen
}

func newFake(t *testing.T, kind string, steps ...step) *fake {
	f := &fake{kind: kind, steps: steps}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fake) provider(t *testing.T, timeout time.Duration) Provider {
	t.Helper()
	cfg := Config{Provider: f.kind, APIToken: "tok-123", Timeout: timeout, ReplicateBaseURL: f.srv.URL,
		BaseURL: f.srv.URL + "/v1", Model: "llama3.2"}
	if f.kind == "replicate" {
		cfg.Model = "gpt-4.1-nano"
	}
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func (f *fake) calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.reqs)
}

func (f *fake) request(i int) seen {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reqs[i]
}

func (f *fake) next(r *http.Request) step {
	raw, _ := io.ReadAll(r.Body)
	s := seen{method: r.Method, path: r.URL.Path, header: r.Header.Clone()}
	json.Unmarshal(raw, &s.body)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs = append(f.reqs, s)
	st := f.steps[min(len(f.reqs), len(f.steps))-1]
	return st
}

func (f *fake) serve(w http.ResponseWriter, r *http.Request) {
	st := f.next(r)
	select {
	case <-time.After(st.delay):
	case <-r.Context().Done():
		return
	}
	for k, v := range st.header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	if st.status != 0 {
		w.WriteHeader(st.status)
		json.NewEncoder(w).Encode(f.errorBody(st.detail))
		return
	}
	if f.kind == "replicate" {
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(succeeded(st.text))
		return
	}
	json.NewEncoder(w).Encode(chatAnswer(st.text))
}

func (f *fake) errorBody(detail string) any {
	if f.kind == "replicate" { // problem JSON
		return map[string]any{"title": "Error", "detail": detail}
	}
	return map[string]any{"error": map[string]any{"message": detail, "type": "invalid_request_error"}}
}

func succeeded(output any) map[string]any {
	return map[string]any{"id": "p1", "status": "succeeded", "output": output,
		"metrics": map[string]any{"input_token_count": 120, "output_token_count": 30}}
}

func chatAnswer(text string) map[string]any {
	return map[string]any{"model": "llama3.2:latest",
		"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": text}}},
		"usage":   map[string]any{"prompt_tokens": 120, "completion_tokens": 30}}
}
