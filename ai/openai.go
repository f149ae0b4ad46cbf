package ai

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync/atomic"
)

// openAI speaks the OpenAI chat-completions API (Ollama, llama.cpp server,
// vLLM, OpenAI). It asks for a JSON object where the server supports it and
// never relies on it: the answer is parsed the same way either way.
type openAI struct {
	cfg  Config
	base *url.URL
	http caller
	// noJSONMode is set once the server refused response_format.
	noJSONMode atomic.Bool
}

func newOpenAI(cfg Config) (Provider, error) {
	base, err := parseBase(cfg.BaseURL)
	if err != nil {
		return nil, fmt.Errorf("AI endpoint base URL: %w", err)
	}
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, fmt.Errorf("AI model is required")
	}
	return &openAI{cfg: cfg, base: base,
		http: caller{name: "OpenAI-compatible endpoint", client: cfg.client(), token: cfg.APIToken, timeout: cfg.timeout()}}, nil
}

func (p *openAI) Name() string { return ProviderOpenAI }

// ModelLabel is the configured model name: this provider's model is free
// text, so the spec's option names do not apply.
func (p *openAI) ModelLabel(string) string { return strings.TrimSpace(p.cfg.Model) }

// Decide asks the configured model (Request.Model is ignored).
func (p *openAI) Decide(ctx context.Context, r Request) (Decision, error) {
	d := Decision{Provider: ProviderOpenAI, Model: p.ModelLabel("")}
	return ask(ctx, r, d, p.chat)
}

// parseBase accepts an absolute http(s) URL and drops a trailing slash.
func parseBase(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimRight(strings.TrimSpace(raw), "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%q is not an http(s) URL", raw)
	}
	return u, nil
}
