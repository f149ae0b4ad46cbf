package strategy

import (
	"context"
	"time"

	"kestrel/domain"
)

// PromptVersion is one strategy version as the prompt history shows it:
// which template it renders with, and whether that changed from the
// version it was derived from. Prompt versions are strategy versions: a
// template is saved, activated and rolled back with the configuration.
type PromptVersion struct {
	Version   int       `json:"version"`
	Parent    int       `json:"parent,omitempty"`
	Note      string    `json:"note"`
	CreatedBy string    `json:"created_by"`
	CreatedAt time.Time `json:"created_at"`
	Active    bool      `json:"active"`
	// TemplateVersion is v1, v2 or custom:<hash>, as decisions record it.
	TemplateVersion string `json:"template_version"`
	// Custom says the version has its own template, Template (empty for
	// a shipped one, which TemplateVersion names).
	Custom   bool   `json:"custom"`
	Template string `json:"template,omitempty"`
	// Changed says the template differs from the parent version's (a
	// first version: whether it has its own).
	Changed bool `json:"changed"`
}

// PromptVersions is the prompt history of an AI-driven or hybrid instance,
// newest first, derived from its strategy versions.
func (e *Engine) PromptVersions(ctx context.Context, name string) ([]PromptVersion, error) {
	vs, err := e.Versions(ctx, name)
	if err != nil {
		return nil, err
	}
	cur, err := e.Get(name)
	if err != nil {
		return nil, err
	}
	if cur.AIParams == nil {
		return nil, domain.Errorf(domain.EConflict, "%s does not ask a model: it has no prompt", name)
	}
	ident := map[int]string{}
	out := make([]PromptVersion, 0, len(vs))
	for _, v := range vs {
		c, err := configOf(cur, v.StrategyVersion)
		if err != nil {
			return nil, err
		}
		id := c.PromptIdentity()
		ident[v.Version] = id
		out = append(out, PromptVersion{Version: v.Version, Parent: v.Parent, Note: v.Note, CreatedBy: v.CreatedBy, CreatedAt: v.CreatedAt,
			Active: v.Active, TemplateVersion: id, Custom: c.PromptTemplate != "", Template: c.PromptTemplate})
	}
	for i, p := range out {
		parent, ok := ident[p.Parent]
		out[i].Changed = (ok && parent != p.TemplateVersion) || (!ok && p.Custom)
	}
	return out, nil
}

// ConfigAt is the configuration a stored version of an instance holds (a
// backtest of that version), or not_found.
func (e *Engine) ConfigAt(ctx context.Context, name string, version int) (Config, error) {
	cur, err := e.Get(name)
	if err != nil {
		return Config{}, err
	}
	v, err := e.d.Store.StrategyVersion(ctx, name, version)
	if err != nil {
		return Config{}, err
	}
	return configOf(cur, v)
}
