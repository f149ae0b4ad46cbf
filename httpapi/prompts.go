package httpapi

import (
	"errors"
	"net/http"

	"kestrel/ai"
)

// checkPrompt renders a submitted, unsaved template {template, symbol}
// against live data for the instance, as the editor types: the messages,
// or where and why the template fails (answered 200 with valid false: the
// template is the thing being checked, not the request). An empty
// template renders the shipped one. Nothing is stored or audited.
func (s *Server) checkPrompt(w http.ResponseWriter, r *http.Request) {
	skipAudit(r.Context())
	var in struct {
		Template string `json:"template"`
		Symbol   string `json:"symbol"`
	}
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	c, sym, err := s.promptTarget(r, in.Symbol)
	if err != nil {
		fail(w, r, err)
		return
	}
	m, err := s.d.Strategies.Prompt(r.Context(), c.Name, sym, &in.Template)
	var te *ai.TemplateError
	if errors.As(err, &te) {
		ok(w, map[string]any{"strategy": c.Name, "symbol": sym, "valid": false, "error": te})
		return
	}
	if err != nil {
		fail(w, r, err)
		return
	}
	out := promptView(c.Name, sym, m)
	out["valid"] = true
	ok(w, out)
}

// promptVersions is an AI instance's prompt history: its strategy versions
// with the template each renders, newest first, with the shipped template
// (where an edit starts from: v3 with trade memory on), the fields a template can use and its size
// bound.
func (s *Server) promptVersions(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	vs, err := s.d.Strategies.PromptVersions(r.Context(), name)
	if err != nil {
		fail(w, r, err)
		return
	}
	c, err := s.d.Strategies.Get(name)
	if err != nil {
		fail(w, r, err)
		return
	}
	def := ai.TemplateVersion
	if c.MemoryTrades() > 0 {
		def = ai.MemoryVersion // an edit starts from the text with the memory section
	}
	text, err := ai.ShippedTemplate(def)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, map[string]any{"strategy": name, "active_version": c.Version, "versions": vs, "count": len(vs),
		"default": map[string]string{"template_version": def, "template": text},
		"fields":  ai.TemplateFields, "max_template_bytes": ai.MaxTemplateBytes})
}
