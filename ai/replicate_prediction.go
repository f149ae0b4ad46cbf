package ai

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// prediction is the part of Replicate's prediction object Kestrel reads.
type prediction struct {
	ID     string          `json:"id"`
	Status string          `json:"status"` // starting | processing | succeeded | failed | canceled
	Output json.RawMessage `json:"output"`
	Error  json.RawMessage `json:"error"`
	URLs   struct {
		Get string `json:"get"`
	} `json:"urls"`
	Metrics struct {
		InputTokens  int `json:"input_token_count"`
		OutputTokens int `json:"output_token_count"`
	} `json:"metrics"`
}

func decodePrediction(body []byte) (prediction, error) {
	var pr prediction
	if err := json.Unmarshal(body, &pr); err != nil {
		return pr, fmt.Errorf("Replicate: unreadable prediction: %w", err)
	}
	return pr, nil
}

func (pr prediction) finished() bool {
	return pr.Status == "succeeded" || pr.Status == "failed" || pr.Status == "canceled"
}

// Polling backs off from the first interval to the longest.
const (
	firstPoll   = 200 * time.Millisecond
	longestPoll = 2 * time.Second
)

// poll reads urls.get until the prediction finishes or ctx ends. It sends the
// token only to the API's own host.
func (p *replicate) poll(ctx context.Context, pr prediction) (prediction, error) {
	get, err := url.Parse(pr.URLs.Get)
	if err != nil || get.Host != p.base.Host || get.Scheme != p.base.Scheme {
		return pr, fmt.Errorf("Replicate: prediction %s is %s with no usable urls.get (%q)", pr.ID, pr.Status, pr.URLs.Get)
	}
	for every := firstPoll; !pr.finished(); every = min(2*every, longestPoll) {
		if err := sleep(ctx, every); err != nil {
			return pr, fmt.Errorf("Replicate prediction %s still %s: %w", pr.ID, pr.Status, p.http.timeoutError())
		}
		rep, err := p.http.do(ctx, http.MethodGet, get.String(), nil, nil)
		if err != nil {
			return pr, err
		}
		if pr, err = decodePrediction(rep.Body); err != nil {
			return pr, err
		}
	}
	return pr, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// completion reads a finished prediction: a failure's error, or the output
// as a string or an array of string chunks (concatenated).
func (pr prediction) completion(model string) (completion, error) {
	c := completion{Model: model, PromptTokens: pr.Metrics.InputTokens, CompletionTokens: pr.Metrics.OutputTokens}
	if pr.Status != "succeeded" {
		reason := errorMessage(pr.Error)
		if reason == "" {
			reason = "no error given"
		}
		return c, fmt.Errorf("Replicate prediction %s %s: %s", pr.ID, pr.Status, reason)
	}
	var s string
	if json.Unmarshal(pr.Output, &s) == nil {
		c.Text = s
		return c, nil
	}
	var chunks []string
	if err := json.Unmarshal(pr.Output, &chunks); err != nil {
		return c, fmt.Errorf("Replicate prediction %s: output is neither text nor text chunks: %s", pr.ID, clip(string(pr.Output), 80))
	}
	c.Text = strings.Join(chunks, "")
	return c, nil
}
