package backtest

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"kestrel/ai"
	"kestrel/domain"
)

// AI modes of a run of an AI-driven or hybrid strategy.
const (
	// AIBuiltin asks the built-in analyst: offline, free, deterministic (the default).
	AIBuiltin = "builtin"
	// AIRecorded replays decisions recorded live, matched by the hash of the
	// prompt the strategy would send; a prompt never recorded counts as HOLD.
	AIRecorded = "recorded"
	// AILive asks the configured provider once per evaluation: only on
	// explicit request, after an estimate, with confirm_live.
	AILive = "live"
)

// AIModes lists the modes in the order the screen offers them.
var AIModes = []string{AIBuiltin, AIRecorded, AILive}

// AIRun is what a report says about the model side of a run.
type AIRun struct {
	Mode     string `json:"mode"`
	Provider string `json:"provider"`
	Model    string `json:"model,omitempty"`
	// TemplateVersion is the prompt template the run's prompts were
	// rendered with (v2, custom:<hash>, ...), even where no model was asked.
	TemplateVersion string `json:"template_version,omitempty"`
	// Prompts is how many decisions the strategy asked for (one per evaluation).
	Prompts int `json:"prompts"`
	// Recorded is how many were answered from a recording, Missing how many
	// had none (counted as HOLD), Failed how many live calls failed (HOLD too).
	Recorded int `json:"recorded"`
	Missing  int `json:"missing"`
	Failed   int `json:"failed"`
	// NotAsked is how many of a hybrid's evaluations did not ask the model
	// because the rules said HOLD (no answer could have made it trade).
	NotAsked int `json:"not_asked,omitempty"`
	// Models counts the replayed answers by the provider/model that gave them.
	Models map[string]int `json:"models,omitempty"`
	// Saved is how many of a live run's answers were recorded for replay
	// (each as it arrived, so a run that fails or is cancelled keeps them).
	Saved int `json:"saved,omitempty"`
	// ModelCalls is how many calls a live run made (a repair retry is a
	// second call), failed ones included; the tokens and the cost are the
	// providers' figures, the cost summed over the CostReported answers
	// whose provider reported one (nil when none did).
	ModelCalls       int      `json:"model_calls"`
	PromptTokens     int      `json:"prompt_tokens,omitempty"`
	CompletionTokens int      `json:"completion_tokens,omitempty"`
	Cost             *float64 `json:"cost,omitempty"`
	CostReported     int      `json:"cost_reported,omitempty"`
	// CallCap is the most model calls the run may make (live runs).
	CallCap   int      `json:"model_call_cap,omitempty"`
	FirstFail string   `json:"first_failure,omitempty"`
	Summary   string   `json:"summary"`
	Warnings  []string `json:"warnings,omitempty"`
	// save records a live run's usable answer as it arrives.
	save func(ctx context.Context, d ai.Decision) error
	// replayed pins a recorded run's answers (Assumptions.ReplayedAnswers).
	replayed answerHash
}

// Estimate is what a live run will do, shown before it runs.
type Estimate struct {
	Status   string `json:"status"` // confirmation_required
	Strategy string `json:"strategy_name"`
	Symbol   string `json:"symbol"`
	Provider string `json:"provider"`
	Model    string `json:"model"`
	// ModelCalls is one per evaluation the run makes; an unusable answer
	// costs one more call (the repair retry), so at most twice this.
	ModelCalls     int      `json:"model_calls"`
	MaxModelCalls  int      `json:"max_model_calls"`
	CallCap        int      `json:"model_call_cap"`            // the most calls the run may make (api.ai.backtestMaxModelCalls)
	TrainingCutoff string   `json:"training_cutoff,omitempty"` // YYYY-MM-DD, empty when unknown
	Warnings       []string `json:"warnings"`
	Message        string   `json:"message"`
}

// ConfirmLive is the answer to a live run asked without confirm_live: the
// estimate, to show the trader before any model is called.
type ConfirmLive struct{ Estimate Estimate }

func (c *ConfirmLive) Error() string { return c.Estimate.Message }

// cutoffWarnings warns when the real data of the period (from start) lies
// before the model's training cutoff, or when the cutoff is unknown.
func cutoffWarnings(provider, model string, start time.Time) (string, []string) {
	if provider == ai.ProviderBuiltin {
		return "", nil // rules, not a trained model: nothing to remember
	}
	cut, ok := ai.TrainingCutoff(model)
	if !ok {
		return "", []string{fmt.Sprintf("The training cutoff of %s is unknown: it may have been trained on this period and remember the prices.", model)}
	}
	c := cut.Format(time.DateOnly)
	if start.Before(cut) {
		return c, []string{fmt.Sprintf("These candles are real prices from %s on, before %s's training cutoff (%s): the model may remember them, so its results can look better than it would trade.",
			start.Format(time.DateOnly), model, c)}
	}
	return c, nil
}

// replay answers from recorded decisions, matched by prompt hash.
type replay struct {
	find func(ctx context.Context, hash string) (domain.Evaluation, bool, error)
	run  *AIRun
}

func (replay) Name() string             { return AIRecorded }
func (replay) ModelLabel(string) string { return "recorded decisions" }

// Decide renders the prompt exactly as a live provider would and looks its
// hash up; no recording is a HOLD with confidence 0.
func (p replay) Decide(ctx context.Context, r ai.Request) (ai.Decision, error) {
	m, err := ai.Render(r)
	if err != nil {
		return ai.Decision{}, err
	}
	prompt, hash := m.Prompt, m.Hash
	p.run.Prompts++
	e, ok, err := p.find(ctx, hash)
	if err != nil {
		return ai.Decision{}, fmt.Errorf("recorded decisions: %w", err)
	}
	if !ok {
		p.run.Missing++
		p.run.replayed.add(hash, "", "", "", 0, "")
		return ai.Decision{Decision: ai.Hold, Reasoning: "No recorded decision for this prompt", Provider: AIRecorded,
			Prompt: prompt, PromptHash: hash, TemplateVersion: m.Version}, nil
	}
	p.run.Recorded++
	p.run.Models[e.Provider+"/"+e.Model]++
	p.run.replayed.add(hash, e.Provider, e.Model, e.Decision, e.Confidence, e.Reasoning)
	return ai.Decision{Decision: e.Decision, Confidence: e.Confidence, Reasoning: e.Reasoning, Provider: e.Provider, Model: e.Model,
		Prompt: prompt, PromptHash: hash, Raw: e.Raw, TemplateVersion: m.Version}, nil
}

// counted asks a live provider and counts the calls; a failed call is a
// HOLD (counted and reported), so one timeout does not end a long run. A
// live run stops with an error once its calls reach the cap, and stores
// each usable answer as it arrives.
type counted struct {
	ai.Provider
	run *AIRun
}

func (p counted) Decide(ctx context.Context, r ai.Request) (ai.Decision, error) {
	if p.run.CallCap > 0 && p.run.ModelCalls >= p.run.CallCap {
		return ai.Decision{}, domain.Errorf(domain.EInvalid, "The run reached its cap of %d model calls after %d evaluations (repair retries count as calls); the answers so far are stored",
			p.run.CallCap, p.run.Prompts)
	}
	p.run.Prompts++
	d, err := p.Provider.Decide(ctx, r)
	p.run.usage(d, err)
	if err != nil {
		if ctx.Err() != nil {
			return d, ctx.Err()
		}
		p.run.Failed++
		if p.run.FirstFail == "" {
			p.run.FirstFail = err.Error()
		}
		d.Decision, d.Confidence, d.Reasoning = ai.Hold, 0, "Model call failed: "+err.Error()
		return d, nil
	}
	if d.PromptHash != "" && p.run.save != nil { // the built-in analyst has no prompt to replay by
		if err := p.run.save(ctx, d); err != nil {
			return d, fmt.Errorf("store the model's answer: %w", err)
		}
		p.run.Saved++
	}
	return d, nil
}

// usage adds one answer's calls, tokens and cost. A provider that makes
// no HTTP call (the built-in analyst) was still asked once.
func (a *AIRun) usage(d ai.Decision, err error) {
	calls := d.Calls
	if calls == 0 && err == nil {
		calls = 1
	}
	a.ModelCalls += calls
	a.PromptTokens += d.PromptTokens
	a.CompletionTokens += d.CompletionTokens
	if d.Cost != nil {
		sum := *d.Cost
		if a.Cost != nil {
			sum += *a.Cost
		}
		a.Cost = &sum
		a.CostReported++
	}
}

// summarise writes the run's one-line account of its AI side.
func (a *AIRun) summarise() {
	defer func() {
		if a.NotAsked > 0 {
			a.Summary += fmt.Sprintf("; %d evaluations with the rules at HOLD did not ask the model", a.NotAsked)
		}
	}()
	switch a.Mode {
	case AIRecorded:
		a.Summary = fmt.Sprintf("%d of %d prompts had no recorded decision (counted as HOLD); %d replayed", a.Missing, a.Prompts, a.Recorded)
		if len(a.Models) > 0 {
			names := make([]string, 0, len(a.Models))
			for k := range a.Models {
				names = append(names, k)
			}
			sort.Strings(names)
			parts := make([]string, len(names))
			for i, k := range names {
				parts[i] = fmt.Sprintf("%s x%d", k, a.Models[k])
			}
			a.Summary += " from " + strings.Join(parts, ", ")
		}
	case AILive:
		a.Summary = fmt.Sprintf("%d model calls to %s (%s) for %d evaluations", a.ModelCalls, a.Provider, a.Model, a.Prompts)
		if a.Cost != nil {
			a.Summary += fmt.Sprintf("; cost %.6g as the provider reported it for %d of them", *a.Cost, a.CostReported)
		} else if a.ModelCalls > 0 {
			a.Summary += "; the provider reported no cost"
		}
		if a.Failed > 0 {
			a.Summary += fmt.Sprintf("; %d failed and counted as HOLD", a.Failed)
		}
		if a.Saved > 0 {
			a.Summary += fmt.Sprintf("; %d answers recorded, so a recorded run replays them", a.Saved)
		}
	default:
		a.Summary = fmt.Sprintf("%d decisions from the built-in analyst", a.Prompts)
	}
}

// recording is a live run's answer as the store keeps it.
func recording(d ai.Decision, source string, at time.Time) domain.AIRecording {
	return domain.AIRecording{PromptHash: d.PromptHash, At: at, Source: source, Provider: d.Provider, Model: d.Model,
		Decision: d.Decision, Confidence: d.Confidence, Reasoning: d.Reasoning, Prompt: d.Prompt, Raw: d.Raw}
}
