package ai

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// DefaultReplicateBaseURL is Replicate's API host.
const DefaultReplicateBaseURL = "https://api.replicate.com"

// maxPreferWait is the longest synchronous wait Replicate allows (seconds).
const maxPreferWait = 60

// replicate runs the spec's model options on Replicate's official models.
type replicate struct {
	cfg  Config
	base *url.URL
	http caller
}

func newReplicate(cfg Config) (Provider, error) {
	if cfg.ReplicateBaseURL == "" {
		cfg.ReplicateBaseURL = DefaultReplicateBaseURL
	}
	base, err := parseBase(cfg.ReplicateBaseURL)
	if err != nil {
		return nil, fmt.Errorf("Replicate base URL: %w", err)
	}
	if cfg.Model != "" {
		if _, err := replicateModelFor(cfg.Model); err != nil {
			return nil, err
		}
	}
	return &replicate{cfg: cfg, base: base,
		http: caller{name: "Replicate", client: cfg.client(), token: cfg.APIToken, timeout: cfg.timeout()}}, nil
}

func (p *replicate) Name() string { return ProviderReplicate }

// ModelLabel is the Replicate model an option runs on (the option itself when unknown).
func (p *replicate) ModelLabel(option string) string {
	if m, err := replicateModelFor(p.option(option)); err == nil {
		return m.Ref
	}
	return option
}

// option is the request's model option, or the configured one.
func (p *replicate) option(model string) string {
	if model != "" {
		return model
	}
	return p.cfg.Model
}

// Decide runs one prediction (and one repair prediction if needed).
func (p *replicate) Decide(ctx context.Context, r Request) (Decision, error) {
	d := Decision{Provider: ProviderReplicate, Model: p.ModelLabel(r.Model)}
	m, err := replicateModelFor(p.option(r.Model))
	if err != nil {
		return d, err
	}
	if strings.TrimSpace(p.cfg.APIToken) == "" {
		return d, fmt.Errorf("Replicate API token is required")
	}
	return ask(ctx, r, d, func(ctx context.Context, q query) (completion, error) {
		return p.predict(ctx, m, q)
	})
}

// predict creates a prediction, waiting up to 60 s for it, then polls until
// it finishes or the timeout passes.
func (p *replicate) predict(ctx context.Context, m ReplicateModel, q query) (completion, error) {
	ctx, cancel := context.WithTimeout(ctx, p.http.timeout)
	defer cancel()
	wait := min(maxPreferWait, max(1, int(p.http.timeout/time.Second)))
	h := http.Header{"Prefer": {fmt.Sprintf("wait=%d", wait)}}
	u := p.base.JoinPath("v1", "models", m.Ref, "predictions").String()
	rep, err := p.http.do(ctx, http.MethodPost, u, map[string]any{"input": m.input(q)}, h)
	if err != nil {
		return completion{}, err
	}
	pr, err := decodePrediction(rep.Body)
	if err != nil {
		return completion{}, err
	}
	if !pr.finished() {
		if pr, err = p.poll(ctx, pr); err != nil {
			return completion{}, err
		}
	}
	return pr.completion(m.Ref)
}
