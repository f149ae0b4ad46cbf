package ai

import (
	"testing"
	"time"
)

func TestTrainingCutoff(t *testing.T) {
	for _, c := range []struct {
		model string
		want  time.Time
		ok    bool
	}{
		{"openai/gpt-4.1-nano", day(2024, 6), true},
		{"GPT-4.1-nano", day(2024, 6), true},
		{"anthropic/claude-4-sonnet", day(2025, 3), true},
		{"meta/llama-2-70b-chat", day(2023, 7), true},
		{"llama3.2", time.Time{}, false},
		{"", time.Time{}, false},
	} {
		got, ok := TrainingCutoff(c.model)
		if ok != c.ok || !got.Equal(c.want) {
			t.Errorf("%q: %v %v, want %v %v", c.model, got, ok, c.want, c.ok)
		}
	}
	// Every model option the settings offer resolves, on Replicate, to a model with a known cutoff.
	for opt, m := range ReplicateModels {
		if _, ok := TrainingCutoff(opt); !ok {
			t.Errorf("option %s has no cutoff", opt)
		}
		if _, ok := TrainingCutoff(m.Ref); !ok {
			t.Errorf("%s (for %s) has no cutoff", m.Ref, opt)
		}
	}
}
