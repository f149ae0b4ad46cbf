package app_test

import (
	"strings"
	"testing"
)

// Trade memory is a setting of the AI configuration: out-of-range values
// are 400s with field errors and nothing is saved; turned on, the preview
// renders v3 with its memory section, the prompt history marks the change
// and an edit starts from v3's text.
func TestTradeMemorySettings(t *testing.T) {
	s := start(t, t.TempDir())
	op, trader := s.accounts()
	const cfg = "/api/strategy/config/ai_strategy"
	for name, c := range map[string]struct{ body, field, want string }{
		"trades":  {`{"memory":{"trades":51,"max_tokens":600}}`, "memory.trades", "Memory trades must be between 0 and 50"},
		"budget":  {`{"memory":{"trades":5,"max_tokens":20}}`, "memory.max_tokens", "Memory token budget must be between 100 and 4000"},
		"pinned":  {`{"memory":{"trades":5},"prompt_version":"v2"}`, "prompt_version", "Prompt v2 has no trade memory section"},
		"a type":  {`{"memory":{"trades":"five"}}`, "", ""},
		"unknown": {`{"memory":{"trades":5,"budget":9}}`, "", ""},
	} {
		t.Run(name, func(t *testing.T) {
			r := s.do("PUT", cfg, op, c.body)
			if r.Status != 400 || !strings.HasPrefix(r.Error.Fields[c.field], c.want) {
				t.Errorf("%s: %d %+v, want 400 with %q on %s", c.body, r.Status, r.Error, c.want, c.field)
			}
		})
	}
	var l versionList
	s.into(s.do("GET", "/api/strategy/versions/ai_strategy", op, ""), &l)
	if len(l.Versions) != 1 {
		t.Fatalf("a refused memory setting was saved: %+v", l)
	}

	if r := s.do("PUT", cfg, op, `{"memory":{"trades":5}}`); r.Status != 200 || !strings.Contains(string(r.Data), `"memory":{"trades":5,"max_tokens":600}`) {
		t.Fatalf("turning memory on: %d %s", r.Status, r.Data)
	}
	var preview struct {
		TemplateVersion string `json:"template_version"`
		Prompt          string
	}
	s.into(s.do("GET", "/api/strategy/prompt/ai_strategy?symbol=BTC-USD", trader, ""), &preview)
	if preview.TemplateVersion != "v3" || !strings.Contains(preview.Prompt, "Your own recent closed trades in BTC-USD") ||
		!strings.Contains(preview.Prompt, "- none yet") {
		t.Fatalf("preview with memory on: %+v", preview)
	}
	var pv promptVersions
	s.into(s.do("GET", "/api/strategy/prompt-versions/ai_strategy", trader, ""), &pv)
	if n := pv.Versions[0]; n.TemplateVersion != "v3" || !n.Changed || pv.Default.TemplateVersion != "v3" || !strings.Contains(pv.Default.Template, ".MemoryOn") {
		t.Fatalf("prompt history with memory on: %+v", pv)
	}
	found := false
	for _, f := range pv.Fields {
		found = found || f.Name == ".Memory"
	}
	if !found {
		t.Error("the editor's fields do not list .Memory")
	}
}
