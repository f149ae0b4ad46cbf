package strategy

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"kestrel/ai"
)

// ShadowModel is a model asked the live model's prompt at each decision,
// recorded and never traded (see shadow.go). It takes the provider's
// credentials from api.ai only when it talks to the same host: the token
// is never sent to another endpoint.
type ShadowModel struct {
	Provider string `json:"provider"` // builtin | openai | replicate
	Model    string `json:"model"`    // the model option sent to the provider ("" for builtin)
	// BaseURL is an OpenAI-compatible endpoint of the shadow's own (empty:
	// api.ai.baseUrl); only for provider openai.
	BaseURL string `json:"base_url,omitempty"`
}

// MaxShadowModels bounds the shadows of one strategy: each is a paid call
// at every decision.
const MaxShadowModels = 3

// Label names a shadow in the leaderboard and the decisions view.
func (m ShadowModel) Label() string {
	if m.Provider == ai.ProviderBuiltin {
		return ai.ProviderBuiltin
	}
	return m.Provider + "/" + m.Model
}

// normalizeShadows trims the entries and lower-cases the provider names.
func (a *AIParams) normalizeShadows() {
	for i := range a.ShadowModels {
		m := &a.ShadowModels[i]
		m.Provider = strings.ToLower(strings.TrimSpace(m.Provider))
		m.Model, m.BaseURL = strings.TrimSpace(m.Model), strings.TrimSpace(m.BaseURL)
		if m.Provider == ai.ProviderBuiltin {
			m.Model, m.BaseURL = "", ""
		}
	}
}

// validateShadows checks the shadow list: a known provider, a model, at
// most MaxShadowModels, no repeats and none equal to the live model
// (liveProvider: api.ai.provider, "" when unknown).
func (a *AIParams) validateShadows(v *fields, liveProvider string) {
	if len(a.ShadowModels) > MaxShadowModels {
		v.add("shadow_models", fmt.Sprintf("At most %d shadow models", MaxShadowModels))
		return
	}
	live := ShadowModel{Provider: liveProvider, Model: a.Model}
	if liveProvider == "" || liveProvider == ai.ProviderBuiltin {
		live = ShadowModel{Provider: ai.ProviderBuiltin}
	}
	var seen []string
	for i, m := range a.ShadowModels {
		f := fmt.Sprintf("shadow_models.%d", i)
		switch {
		case !slices.Contains([]string{ai.ProviderBuiltin, ai.ProviderOpenAI, ai.ProviderReplicate}, m.Provider):
			v.add(f+".provider", fmt.Sprintf("Unknown AI provider %q (want builtin, openai or replicate)", m.Provider))
			continue
		case m.Provider != ai.ProviderBuiltin && m.Model == "":
			v.add(f+".model", "Model is required")
			continue
		case m.BaseURL != "" && m.Provider != ai.ProviderOpenAI:
			v.add(f+".base_url", "Only an OpenAI-compatible shadow has its own base URL")
		case m.BaseURL != "" && !httpURL(m.BaseURL):
			v.add(f+".base_url", "Base URL must be an http(s) URL")
		case m.Provider == ai.ProviderReplicate:
			if _, err := ai.New(ai.Config{Provider: m.Provider, Model: m.Model}); err != nil {
				v.add(f+".model", err.Error())
			}
		}
		if liveProvider != "" && m.Label() == live.Label() && (m.BaseURL == "" || m.Provider != ai.ProviderOpenAI) {
			v.add(f+".model", "A shadow model must differ from the live model ("+live.Label()+")")
		}
		if slices.Contains(seen, m.Label()+" "+m.BaseURL) {
			v.add(f+".model", "This shadow model is listed twice")
		}
		seen = append(seen, m.Label()+" "+m.BaseURL)
	}
}

func httpURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
