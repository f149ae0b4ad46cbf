package ai

import (
	"context"
	"fmt"
	"time"
)

// query is one model call: the rendered messages and sampling settings.
type query struct {
	System, Prompt string
	Temperature    float64
	MaxTokens      int
}

// completion is a model's raw answer with what the provider reported.
type completion struct {
	Text                           string
	Model                          string // the model the host says answered, when it says
	PromptTokens, CompletionTokens int
	Cost                           *float64
}

// complete sends one query to a hosted model.
type complete func(ctx context.Context, q query) (completion, error)

// repairMarker separates the first answer from the repaired one in Decision.Raw.
const repairMarker = "\n\n--- answer after the repair instruction ---\n\n"

// ask renders the prompt, calls the model, parses the answer and, when it is
// not usable, retries once with a repair instruction. Latency, tokens and
// cost add up over both calls.
func ask(ctx context.Context, r Request, d Decision, call complete) (Decision, error) {
	m, err := Render(r)
	if err != nil {
		return d, err
	}
	prompt := m.Prompt
	d.Prompt, d.PromptHash, d.TemplateVersion = prompt, m.Hash, m.Version
	q := query{System: m.System, Prompt: prompt, Temperature: r.Temperature, MaxTokens: r.MaxTokens}
	c, err := timed(ctx, &d, call, q)
	if err != nil {
		return d, err
	}
	a, bad := parseAnswer(c.Text)
	if bad != nil {
		q.Prompt = repairPrompt(prompt, c.Text, bad)
		d.Raw += repairMarker
		c, err = timed(ctx, &d, call, q)
		if err != nil {
			return d, fmt.Errorf("after an unusable answer (%v), the repair retry failed: %w", bad, err)
		}
		if a, bad = parseAnswer(c.Text); bad != nil {
			return d, bad
		}
	}
	d.Decision, d.Confidence, d.Reasoning = a.Decision, a.Confidence, a.Reasoning
	return d, nil
}

// timed makes one call and adds its latency, usage and answer to d.
func timed(ctx context.Context, d *Decision, call complete, q query) (completion, error) {
	start := time.Now()
	c, err := call(ctx, q)
	d.Calls++
	d.Latency += time.Since(start)
	d.PromptTokens += c.PromptTokens
	d.CompletionTokens += c.CompletionTokens
	if c.Cost != nil {
		sum := *c.Cost
		if d.Cost != nil {
			sum += *d.Cost
		}
		d.Cost = &sum
	}
	if c.Model != "" {
		d.Model = c.Model
	}
	d.Raw += c.Text
	return c, err
}
