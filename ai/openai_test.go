package ai

import (
	"context"
	"strings"
	"testing"
)

func TestOpenAIRequest(t *testing.T) {
	f := newFake(t, "openai", step{text: good})
	d, err := f.provider(t, 0).Decide(context.Background(), sampleRequest())
	if err != nil {
		t.Fatal(err)
	}
	s := f.request(0)
	if s.method != "POST" || s.path != "/v1/chat/completions" || s.header.Get("Authorization") != "Bearer tok-123" {
		t.Errorf("%s %s %v", s.method, s.path, s.header)
	}
	rf, _ := s.body["response_format"].(map[string]any)
	if s.body["model"] != "llama3.2" || rf["type"] != "json_object" || s.body["max_tokens"] != 500.0 || s.body["temperature"] != 0.3 {
		t.Errorf("body %v", s.body)
	}
	if promptSent(s) != d.Prompt {
		t.Error("the recorded prompt is not the one sent")
	}
	if d.Provider != "openai" || d.Model != "llama3.2:latest" || d.PromptTokens != 120 || d.CompletionTokens != 30 {
		t.Errorf("provenance %+v", d)
	}
}

func TestOpenAIWithoutToken(t *testing.T) {
	f := newFake(t, "openai", step{text: good})
	p, err := New(Config{Provider: "openai", BaseURL: f.srv.URL + "/v1/", Model: "qwen2.5:0.5b"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Decide(context.Background(), sampleRequest()); err != nil {
		t.Fatal(err)
	}
	if s := f.request(0); s.header.Get("Authorization") != "" || s.path != "/v1/chat/completions" || p.ModelLabel("gpt-4.1-nano") != "qwen2.5:0.5b" {
		t.Errorf("auth %q path %s", s.header.Get("Authorization"), s.path)
	}
}

func TestOpenAIServerRejectingResponseFormat(t *testing.T) {
	f := newFake(t, "openai", step{status: 400, detail: "response_format is not supported by this model"}, step{text: good})
	p := f.provider(t, 0)
	d, err := p.Decide(context.Background(), sampleRequest())
	checkOutcome(t, d, err, "")
	if f.calls() != 2 || f.request(1).body["response_format"] != nil {
		t.Fatalf("calls %d, retry body %v", f.calls(), f.request(1).body)
	}
	// The provider remembers and no longer asks for it.
	if _, err := p.Decide(context.Background(), sampleRequest()); err != nil || f.request(2).body["response_format"] != nil {
		t.Errorf("third call: %v %v", err, f.request(2).body["response_format"])
	}
}

func TestOpenAIOtherBadRequestIsNotRetried(t *testing.T) {
	f := newFake(t, "openai", step{status: 400, detail: "model 'x' not found"})
	_, err := f.provider(t, 0).Decide(context.Background(), sampleRequest())
	if err == nil || !strings.Contains(err.Error(), "refused the request (400 Bad Request): model 'x' not found") || f.calls() != 1 {
		t.Fatalf("%v after %d calls", err, f.calls())
	}
}

func TestOpenAIConfig(t *testing.T) {
	for _, cfg := range []Config{
		{Provider: "openai", BaseURL: "localhost:11434", Model: "m"},
		{Provider: "openai", BaseURL: "http://localhost:11434/v1", Model: " "},
		{Provider: "mystery"},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("%+v: want an error", cfg)
		}
	}
}

func TestConnectionTest(t *testing.T) {
	f := newFake(t, "openai", step{text: `{"decision":"HOLD","confidence":1,"reasoning":"test"}`})
	cfg := Config{Provider: "openai", BaseURL: f.srv.URL + "/v1", Model: "m"}
	if err := Test(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	f = newFake(t, "openai", step{text: "Hello! How can I help?"})
	cfg.BaseURL = f.srv.URL + "/v1"
	if err := Test(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "the model answered, but not with the JSON decision") {
		t.Errorf("prose: %v", err)
	}
}
