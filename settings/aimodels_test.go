package settings

import (
	"testing"

	"kestrel/ai"
)

// Every model option the settings offer runs on Replicate, and the reverse.
func TestAIModelsMatchTheReplicateTable(t *testing.T) {
	if len(AIModels) != len(ai.ReplicateModels) {
		t.Errorf("%d options, %d Replicate models", len(AIModels), len(ai.ReplicateModels))
	}
	for _, m := range AIModels {
		if _, ok := ai.ReplicateModels[m]; !ok {
			t.Errorf("option %s has no Replicate model", m)
		}
	}
}

// The model is free text for an OpenAI-compatible endpoint.
func TestOpenAIModelIsFreeText(t *testing.T) {
	s := Defaults()
	s.API.AI = AIProvider{Provider: "openai", BaseURL: "http://localhost:11434/v1", Model: "qwen2.5:0.5b", Timeout: 60000}
	if r := Validate(&s); !r.IsValid {
		t.Errorf("%+v", r.Errors)
	}
}
