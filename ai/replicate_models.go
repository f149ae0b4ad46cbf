package ai

import (
	"fmt"
	"slices"
	"strings"
)

// ReplicateModel is how one of the spec's model options runs on Replicate:
// the real model and the names its input schema uses.
type ReplicateModel struct {
	Ref            string // owner/name
	TokensInput    string // max_completion_tokens | max_tokens | max_new_tokens
	MinTokens      int    // the schema's minimum, if any (requests are raised to it)
	HasTemperature bool
	MinTemperature float64 // the schema's minimum, if above 0
}

// ReplicateModels maps the spec's model options to real Replicate models.
//
//	option           Replicate model            tokens input            temperature
//	gpt-4.1-nano     openai/gpt-4.1-nano        max_completion_tokens   temperature
//	gpt-4-turbo      openai/gpt-4.1             max_completion_tokens   temperature
//	claude-3-sonnet  anthropic/claude-4-sonnet  max_tokens (min 1024)   (none: the model's default)
//	llama-2-70b      meta/llama-2-70b-chat      max_new_tokens          temperature (min 0.01)
//
// All four take prompt and system_prompt. gpt-4-turbo and claude-3-sonnet are
// not served on Replicate any more; their successors answer, and the UI shows
// the model that really answered.
var ReplicateModels = map[string]ReplicateModel{
	"gpt-4.1-nano":    {Ref: "openai/gpt-4.1-nano", TokensInput: "max_completion_tokens", HasTemperature: true},
	"gpt-4-turbo":     {Ref: "openai/gpt-4.1", TokensInput: "max_completion_tokens", HasTemperature: true},
	"claude-3-sonnet": {Ref: "anthropic/claude-4-sonnet", TokensInput: "max_tokens", MinTokens: 1024},
	"llama-2-70b":     {Ref: "meta/llama-2-70b-chat", TokensInput: "max_new_tokens", HasTemperature: true, MinTemperature: 0.01},
}

func replicateModelFor(option string) (ReplicateModel, error) {
	m, ok := ReplicateModels[option]
	if !ok {
		names := make([]string, 0, len(ReplicateModels))
		for k := range ReplicateModels {
			names = append(names, k)
		}
		slices.Sort(names)
		return m, fmt.Errorf("unknown Replicate model option %q (choose %s)", option, strings.Join(names, ", "))
	}
	return m, nil
}

// input builds the prediction input for q.
func (m ReplicateModel) input(q query) map[string]any {
	in := map[string]any{"prompt": q.Prompt, "system_prompt": q.System}
	if q.MaxTokens > 0 {
		in[m.TokensInput] = max(q.MaxTokens, m.MinTokens)
	}
	if m.HasTemperature {
		in["temperature"] = max(q.Temperature, m.MinTemperature)
	}
	return in
}
