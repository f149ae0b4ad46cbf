package app_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"kestrel/ai/aifake"
)

// A template the fake model can answer (it reads "return X%").
const customPrompt = `{{define "system"}}You are a terse analyst of {{.Base}}.{{end}}Custom prompt for {{.Symbol}}: return {{.ReturnPct}}%, ` +
	`{{if .Held}}holding {{.Position}}{{else}}nothing held{{end}}.
Answer {"decision":"BUY|SELL|HOLD","confidence":0.0-1.0,"reasoning":"why"}`

func customID(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "custom:" + hex.EncodeToString(sum[:])[:12]
}

type promptVersions struct {
	ActiveVersion int `json:"active_version"`
	Versions      []struct {
		Version, Parent int
		Note            string
		CreatedBy       string `json:"created_by"`
		Active, Custom  bool
		Changed         bool
		Template        string
		TemplateVersion string `json:"template_version"`
	}
	Default struct {
		TemplateVersion string `json:"template_version"`
		Template        string
	}
	Fields           []struct{ Name, Description string }
	MaxTemplateBytes int `json:"max_template_bytes"`
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// Saving a prompt template is checked with the shipped parser: a template
// that does not parse or render is a 400 with a field error naming the
// line, and nothing is saved.
func TestPromptTemplateIsCheckedOnSave(t *testing.T) {
	s := start(t, t.TempDir())
	op, _ := s.accounts()
	const base = "/api/strategy/versions/ai_strategy"
	sys := `{{define "system"}}s{{end}}`
	for name, c := range map[string]struct{ template, want string }{
		"syntax":        {sys + "\nok\n{{.Symbol", "Line 3: unclosed action"},
		"unknown key":   {sys + "\n{{.NoSuchField}}", "Line 2, column 3: <.NoSuchField>: can't evaluate field NoSuchField in the prompt data"},
		"no system":     {"{{.Symbol}}", "No system block"},
		"range":         {sys + "{{range 1000000}}{{end}}x", "only go over one of the data's lists"},
		"too long":      {sys + strings.Repeat("x", 16<<10), "at most 16384"},
		"with a pinned": {"", ""},
	} {
		t.Run(name, func(t *testing.T) {
			params := map[string]any{"prompt_template": c.template}
			if name == "with a pinned" {
				params = map[string]any{"prompt_template": customPrompt, "prompt_version": "v1"}
				c.want = "either a prompt version or a custom template"
			}
			body := mustJSON(map[string]any{"params": params, "note": "bad"})
			r := s.do("POST", base, op, body)
			if got := r.Error.Fields["prompt_template"]; r.Status != 400 || !strings.Contains(got, c.want) {
				t.Errorf("POST version: %d %q, want 400 with %q on prompt_template", r.Status, got, c.want)
			}
			r = s.do("PUT", "/api/strategy/config/ai_strategy", op, mustJSON(params))
			if r.Status != 400 || !strings.Contains(r.Error.Fields["prompt_template"], c.want) {
				t.Errorf("PUT config: %+v", r)
			}
		})
	}
	var l versionList
	s.into(s.do("GET", base, op, ""), &l)
	if len(l.Versions) != 1 || l.ActiveVersion != 1 {
		t.Fatalf("a refused template was saved: %+v", l)
	}
}

// A saved template is a new strategy version; the next decision sends it
// (system and user messages), records its identity and version; the
// preview renders it, a draft renders without being saved, the prompt
// history lists it, and rolling back brings the shipped template back.
func TestSavedPromptTemplateDrivesDecisions(t *testing.T) {
	fake := &aifake.Server{}
	s, op, trader := liveServer(t, fake)
	const base = "/api/strategy/versions/ai_strategy"

	r := s.do("POST", base, op, mustJSON(map[string]any{"params": map[string]any{"prompt_template": customPrompt}, "note": "terse prompt"}))
	if r.Status != 201 {
		t.Fatalf("save: %+v", r)
	}
	var saved struct{ Version struct{ Version int } }
	s.into(r, &saved)
	v := saved.Version.Version

	var ev struct {
		Prompt          string
		TemplateVersion string `json:"template_version"`
		StrategyVersion int    `json:"strategy_version"`
		PromptHash      string `json:"prompt_hash"`
	}
	s.into(s.do("POST", "/api/strategy/ai-analyze/BTC-USD", op, ""), &ev)
	if !strings.HasPrefix(ev.Prompt, "Custom prompt for BTC-USD: return ") || ev.TemplateVersion != customID(customPrompt) || ev.StrategyVersion != v {
		t.Fatalf("decision %+v, want the custom prompt of version %d", ev, v)
	}
	if fake.Last("system") != "You are a terse analyst of BTC.\n" || fake.Last("user") != ev.Prompt {
		t.Fatalf("the model was sent system %q, user %q", fake.Last("system"), fake.Last("user"))
	}
	var decisions struct {
		Decisions []struct {
			TemplateVersion string `json:"template_version"`
		}
	}
	s.into(s.do("GET", "/api/strategy/ai-decisions?limit=1", trader, ""), &decisions)
	if len(decisions.Decisions) != 1 || decisions.Decisions[0].TemplateVersion != ev.TemplateVersion {
		t.Fatalf("stored decision %+v", decisions)
	}

	var preview struct {
		TemplateVersion string `json:"template_version"`
		System, Prompt  string
		PromptHash      string `json:"prompt_hash"`
		Valid           bool
		Error           *struct {
			Line, Column int
			Message      string
		}
	}
	s.into(s.do("GET", "/api/strategy/prompt/ai_strategy?symbol=BTC-USD", trader, ""), &preview)
	if preview.TemplateVersion != ev.TemplateVersion || !strings.HasPrefix(preview.Prompt, "Custom prompt for BTC-USD") || preview.System == "" {
		t.Fatalf("preview %+v", preview)
	}

	// A draft renders against live data; nothing is saved or audited.
	draft := func(tok, text string) reply {
		return s.do("POST", "/api/strategy/prompt/ai_strategy", tok, mustJSON(map[string]string{"template": text, "symbol": "ETH-USD"}))
	}
	preview.Error = nil
	s.into(draft(op, `{{define "system"}}S{{end}}Draft {{.Symbol}} at {{.Price}}`), &preview)
	if !preview.Valid || !strings.HasPrefix(preview.Prompt, "Draft ETH-USD at ") || preview.System != "S\n" || !strings.HasPrefix(preview.TemplateVersion, "custom:") {
		t.Fatalf("draft %+v", preview)
	}
	s.into(draft(op, "{{define \"system\"}}S{{end}}\n\n{{.Nope}}"), &preview)
	if preview.Valid || preview.Error == nil || preview.Error.Line != 3 || !strings.Contains(preview.Error.Message, "Nope") {
		t.Fatalf("bad draft %+v", preview)
	}
	s.into(draft(op, ""), &preview)
	if !preview.Valid || preview.TemplateVersion != "v2" {
		t.Fatalf("an empty draft is the shipped template: %+v", preview)
	}
	if r := draft(trader, "x"); r.Status != 403 {
		t.Fatalf("a trader checked a draft: %+v", r)
	}
	if r := s.do("POST", "/api/strategy/prompt/ai_strategy", op, `{"template":"x","symbol":"NOPE-USD"}`); r.Status != 400 || r.Error.Fields["symbol"] == "" {
		t.Fatalf("unknown symbol: %+v", r)
	}

	var pv promptVersions
	s.into(s.do("GET", "/api/strategy/prompt-versions/ai_strategy", trader, ""), &pv)
	if len(pv.Versions) != 2 || pv.ActiveVersion != v || pv.Default.TemplateVersion != "v2" || !strings.HasPrefix(pv.Default.Template, `{{define "system"`) ||
		len(pv.Fields) == 0 || pv.MaxTemplateBytes != 16384 {
		t.Fatalf("prompt versions %+v", pv)
	}
	// The shipped template the editor starts from, checked untouched, is
	// that version, not a custom one.
	s.into(draft(op, pv.Default.Template), &preview)
	if !preview.Valid || preview.TemplateVersion != pv.Default.TemplateVersion {
		t.Fatalf("the untouched shipped template checks as %q, want %q", preview.TemplateVersion, pv.Default.TemplateVersion)
	}
	if n := pv.Versions[0]; n.Version != v || !n.Custom || !n.Changed || !n.Active || n.Template != customPrompt || n.TemplateVersion != ev.TemplateVersion ||
		n.Note != "terse prompt" || n.CreatedBy == "" || n.Parent != 1 {
		t.Fatalf("newest %+v", n)
	}
	if o := pv.Versions[1]; o.Version != 1 || o.Custom || o.Changed || o.Template != "" || o.TemplateVersion != "v2" {
		t.Fatalf("oldest %+v", o)
	}
	// A change elsewhere is a version whose prompt did not change.
	if r := s.do("PUT", "/api/strategy/config/ai_strategy", op, `{"min_confidence":0.8}`); r.Status != 200 {
		t.Fatalf("PUT config: %+v", r)
	}
	s.into(s.do("GET", "/api/strategy/prompt-versions/ai_strategy", trader, ""), &pv)
	if n := pv.Versions[0]; n.Changed || !n.Custom || n.Template != customPrompt {
		t.Fatalf("after a min_confidence change %+v", n)
	}
	if r := s.do("GET", "/api/strategy/prompt-versions/technical_strategy", trader, ""); r.Status != 409 {
		t.Fatalf("a technical strategy's prompts: %+v", r)
	}

	// Rolling back to version 1 sends the shipped template again.
	if r := s.do("POST", base+"/1/activate", op, ""); r.Status != 200 {
		t.Fatalf("activate: %+v", r)
	}
	s.into(s.do("POST", "/api/strategy/ai-analyze/BTC-USD", op, ""), &ev)
	if ev.TemplateVersion != "v2" || ev.StrategyVersion != 1 || strings.Contains(ev.Prompt, "Custom prompt") {
		t.Fatalf("after rolling back %+v", ev)
	}
}

// "Backtest this prompt": a stored version runs (not the active one); a
// live run records its answers under the custom prompt, a recorded run of
// the same version replays every one, and the shipped template's version
// finds none of them.
func TestBacktestAStoredPromptVersion(t *testing.T) {
	fake := &aifake.Server{}
	s, op, trader := liveServer(t, fake)
	r := s.do("POST", "/api/strategy/versions/ai_strategy", op, mustJSON(map[string]any{"params": map[string]any{"prompt_template": customPrompt}}))
	if r.Status != 201 {
		t.Fatalf("save: %+v", r)
	}
	// Back to version 1: the custom prompt is stored, not running.
	if r := s.do("POST", "/api/strategy/versions/ai_strategy/1/activate", op, ""); r.Status != 200 {
		t.Fatalf("activate: %+v", r)
	}
	ask := func(mode string, version int, extra string) string {
		return `{"strategy_name":"ai_strategy","symbol":"BTC-USD","start_date":"2026-01-01","end_date":"2026-01-08","initial_capital":10000,` +
			`"ai_mode":"` + mode + `","strategy_version":` + mustJSON(version) + extra + `}`
	}
	// run is a finished run's report, the version it ran and its template.
	run := func(tok, body string) (rep aiReport, version int, template string) {
		t.Helper()
		r := s.backtest(tok, body)
		var more struct {
			StrategyVersion int `json:"strategy_version"`
			AI              struct {
				TemplateVersion string `json:"template_version"`
			}
		}
		s.into(r, &rep)
		s.into(r, &more)
		return rep, more.StrategyVersion, more.AI.TemplateVersion
	}
	live, v, tmpl := run(op, ask("live", 2, `,"confirm_live":true`))
	if v != 2 || tmpl != customID(customPrompt) || live.AI.Saved == 0 || live.AI.Saved != live.AI.Prompts {
		t.Fatalf("live run of version 2: version %d, template %s, %+v", v, tmpl, live.AI)
	}
	if !strings.HasPrefix(fake.Last("user"), "Custom prompt for BTC-USD") {
		t.Fatalf("the live run sent %q", fake.Last("user"))
	}
	calls := fake.Calls()
	replay, _, _ := run(trader, ask("recorded", 2, ""))
	if replay.AI.Recorded != live.AI.Prompts || replay.AI.Missing != 0 || fake.Calls() != calls || replay.FinalEquity != live.FinalEquity {
		t.Fatalf("recorded run of version 2: %+v (live %+v)", replay.AI, live.AI)
	}
	shipped, v, tmpl := run(trader, ask("recorded", 1, ""))
	if v != 1 || tmpl != "v2" || shipped.AI.Recorded != 0 || shipped.AI.Missing != shipped.AI.Prompts {
		t.Fatalf("recorded run of version 1: version %d, template %s, %+v", v, tmpl, shipped.AI)
	}
	if r := s.do("POST", "/api/backtests", trader, ask("recorded", 9, "")); r.Status != 400 || !strings.Contains(r.Error.Fields["strategy_version"], "no version 9") {
		t.Fatalf("an unknown version: %+v", r)
	}
}
