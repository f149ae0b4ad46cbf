package backtest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/ai"
	"kestrel/domain"
)

func aiRequest(close string) ai.Request {
	px := decimal.RequireFromString(close)
	c := domain.Candle{Open: px, High: px, Low: px, Close: px, Volume: decimal.NewFromInt(1)}
	return ai.Request{Symbol: "BTC-USD", Candles: []domain.Candle{c, c}, Price: px, Limits: "max trade 1000"}
}

func TestReplayByPromptHash(t *testing.T) {
	recorded := aiRequest("100")
	prompt, err := ai.RenderPrompt(recorded)
	if err != nil {
		t.Fatal(err)
	}
	store := map[string]domain.Evaluation{ai.HashPrompt(prompt): {Decision: ai.Buy, Confidence: 0.9, Reasoning: "r", Provider: "openai", Model: "m", Raw: "{}"}}
	run := &AIRun{Mode: AIRecorded, Models: map[string]int{}}
	p := replay{run: run, find: func(_ context.Context, h string) (domain.Evaluation, bool, error) {
		e, ok := store[h]
		return e, ok, nil
	}}

	d, err := p.Decide(context.Background(), recorded)
	if err != nil || d.Decision != ai.Buy || d.Confidence != 0.9 || d.Provider != "openai" || d.PromptHash != ai.HashPrompt(prompt) {
		t.Fatalf("recorded prompt: %+v, %v", d, err)
	}
	d, err = p.Decide(context.Background(), aiRequest("101")) // one price differs: another prompt
	if err != nil || d.Decision != ai.Hold || d.Confidence != 0 {
		t.Fatalf("unrecorded prompt: %+v, %v", d, err)
	}
	run.summarise()
	if run.Prompts != 2 || run.Recorded != 1 || run.Missing != 1 || run.Summary != "1 of 2 prompts had no recorded decision (counted as HOLD); 1 replayed from openai/m x1" {
		t.Fatalf("run %+v", run)
	}

	broken := replay{run: run, find: func(context.Context, string) (domain.Evaluation, bool, error) {
		return domain.Evaluation{}, false, errors.New("disk")
	}}
	if _, err := broken.Decide(context.Background(), recorded); err == nil {
		t.Fatal("a store failure must end the run, not pass as a missing recording")
	}
}

type failing struct{ ai.Builtin }

func (failing) Decide(context.Context, ai.Request) (ai.Decision, error) {
	return ai.Decision{Provider: "openai", Calls: 1}, errors.New("429 too many requests")
}

// answering is a live provider that answers every prompt (one call each).
type answering struct{ ai.Builtin }

func (answering) Decide(_ context.Context, r ai.Request) (ai.Decision, error) {
	cost := 0.5
	return ai.Decision{Decision: ai.Buy, Confidence: 0.9, Provider: "openai", Model: "m", Calls: 1, Cost: &cost, PromptHash: "h-" + r.Price.String()}, nil
}

// A live run stores each answer as it arrives and stops at its cap on
// model calls, before calling again.
func TestLiveAnswersAreStoredAndCapped(t *testing.T) {
	var saved []string
	run := &AIRun{Mode: AILive, Provider: "openai", Model: "m", CallCap: 2, save: func(_ context.Context, d ai.Decision) error {
		saved = append(saved, d.PromptHash)
		return nil
	}}
	p := counted{Provider: answering{}, run: run}
	for _, px := range []string{"100", "101"} {
		if _, err := p.Decide(context.Background(), aiRequest(px)); err != nil {
			t.Fatal(err)
		}
		if len(saved) != run.ModelCalls {
			t.Fatalf("%d answers stored after %d calls", len(saved), run.ModelCalls)
		}
	}
	if _, err := p.Decide(context.Background(), aiRequest("102")); err == nil || !strings.Contains(err.Error(), "cap of 2 model calls after 2 evaluations") {
		t.Fatalf("past the cap: %v", err)
	}
	run.summarise()
	if run.ModelCalls != 2 || run.Prompts != 2 || run.Saved != 2 || run.Cost == nil || *run.Cost != 1 || run.CostReported != 2 ||
		!strings.HasPrefix(run.Summary, "2 model calls to openai (m) for 2 evaluations; cost 1 as the provider reported it for 2 of them") {
		t.Fatalf("%+v", run)
	}
	run.save = func(context.Context, ai.Decision) error { return errors.New("disk full") }
	run.CallCap = 0
	if _, err := p.Decide(context.Background(), aiRequest("103")); err == nil {
		t.Fatal("an answer that cannot be stored must end the run")
	}
}

func TestLiveFailureIsAHold(t *testing.T) {
	run := &AIRun{Mode: AILive, Provider: "openai", Model: "m"}
	p := counted{Provider: failing{}, run: run}
	d, err := p.Decide(context.Background(), aiRequest("100"))
	if err != nil || d.Decision != ai.Hold || !strings.Contains(d.Reasoning, "429") {
		t.Fatalf("%+v %v", d, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Decide(ctx, aiRequest("100")); err == nil {
		t.Fatal("a cancelled run must stop")
	}
	run.summarise()
	if run.Failed != 1 || run.FirstFail != "429 too many requests" || run.Summary != "2 model calls to openai (m) for 2 evaluations; the provider reported no cost; 1 failed and counted as HOLD" {
		t.Fatalf("%+v", run)
	}
}

func TestCutoffWarnings(t *testing.T) {
	may := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	if c, w := cutoffWarnings("openai", "gpt-4.1-nano", may); c != "2024-06-01" || len(w) != 1 || !strings.Contains(w[0], "may remember") {
		t.Fatalf("before the cutoff: %q %q", c, w)
	}
	if c, w := cutoffWarnings("replicate", "openai/gpt-4.1-nano", may.AddDate(1, 0, 0)); c != "2024-06-01" || len(w) != 0 {
		t.Fatalf("after the cutoff: %q %q", c, w)
	}
	if c, w := cutoffWarnings("openai", "llama3.2", may); c != "" || len(w) != 1 || !strings.Contains(w[0], "unknown") {
		t.Fatalf("unknown model: %q %q", c, w)
	}
	if c, w := cutoffWarnings("builtin", ai.BuiltinLabel, may); c != "" || len(w) != 0 {
		t.Fatalf("the built-in analyst: %q %q", c, w)
	}
}
