package strategy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"kestrel/domain"
)

// Versions: every saved configuration of an instance is an immutable,
// numbered version (domain.StrategyVersion). Saving a configuration stores
// a new version and activates it; activating an older one rolls back
// without rewriting anything. The instance runs its active version, and its
// evaluations and orders carry that number. A version's params are the
// configuration without the instance's identity (name, type) and running
// state (enabled): turning an instance on or off is not a new version.

// Meta says who saved a version, why, and what it was derived from.
type Meta struct {
	By     string // the user's email ("" when the platform saved it)
	Note   string
	Parent int // the version it was derived from (0: none)
}

// Version is a stored version as the API shows it: its params in the
// configuration's own shape, and whether the instance runs it.
type Version struct {
	domain.StrategyVersion
	Active bool `json:"active"`
}

// identity lists the keys a version's params leave out.
var identity = []string{"name", "type", "enabled", "version"}

// paramsOf is c's params: its JSON without identity and running state.
func paramsOf(c Config) (json.RawMessage, error) {
	raw, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	for _, k := range identity {
		delete(m, k)
	}
	return json.Marshal(m)
}

// commit stores c as the instance's next version and makes it the running
// configuration. Callers hold e.mu (or own e alone, in New).
func (e *Engine) commit(ctx context.Context, c Config, m Meta) (Config, error) {
	params, err := paramsOf(c)
	if err != nil {
		return Config{}, err
	}
	v, err := e.d.Store.AddStrategyVersion(ctx, domain.StrategyVersion{Strategy: c.Name, Params: params, Parent: m.Parent,
		Note: strings.TrimSpace(m.Note), CreatedBy: m.By, CreatedAt: e.d.Clock.Now()})
	if err != nil {
		return Config{}, err
	}
	c.Version = v.Version
	if err := e.save(ctx, c); err != nil {
		return Config{}, err
	}
	return c, nil
}

// configOf is the configuration a stored version holds, for the instance
// cur (name, type and enabled are the instance's).
func configOf(cur Config, v domain.StrategyVersion) (Config, error) {
	c := Config{}
	if err := json.Unmarshal(v.Params, &c); err != nil {
		return Config{}, fmt.Errorf("version %d of %s: %w", v.Version, cur.Name, err)
	}
	c.Name, c.Type, c.Enabled, c.Version = cur.Name, cur.Type, cur.Enabled, v.Version
	c.Normalize()
	return c, nil
}

// view is a stored version with its params shown as its configuration's
// params (a version stored before versions holds the whole record).
func view(cur Config, v domain.StrategyVersion) (Version, error) {
	c, err := configOf(cur, v)
	if err != nil {
		return Version{}, err
	}
	if v.Params, err = paramsOf(c); err != nil {
		return Version{}, err
	}
	return Version{StrategyVersion: v, Active: v.Version == cur.Version}, nil
}

// Versions lists an instance's versions, newest first, the running one
// marked active.
func (e *Engine) Versions(ctx context.Context, name string) ([]Version, error) {
	cur, err := e.Get(name)
	if err != nil {
		return nil, err
	}
	vs, err := e.d.Store.StrategyVersions(ctx, name)
	if err != nil {
		return nil, err
	}
	out := make([]Version, 0, len(vs))
	for _, v := range vs {
		w, err := view(cur, v)
		if err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, nil
}

// VersionOf returns one version of an instance, or not_found.
func (e *Engine) VersionOf(ctx context.Context, name string, version int) (Version, error) {
	cur, err := e.Get(name)
	if err != nil {
		return Version{}, err
	}
	v, err := e.d.Store.StrategyVersion(ctx, name, version)
	if err != nil {
		return Version{}, err
	}
	return view(cur, v)
}

// SaveVersion stores a new version: params (the configuration's own shape,
// e.g. {"indicators":{"rsi_period":7}}) laid over the parent version's
// configuration (the running one when m.Parent is 0), validated like any
// configuration, then activated. Nothing is overwritten.
func (e *Engine) SaveVersion(ctx context.Context, name string, params json.RawMessage, m Meta) (Config, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	in, ok := e.inst[name]
	if !ok {
		return Config{}, domain.Errorf(domain.ENotFound, "Strategy not found: %s", name)
	}
	base := in.cfg.Clone()
	switch {
	case m.Parent < 0:
		return Config{}, domain.FieldErrors(map[string]string{"parent": "Parent must be a version number"}, "parent")
	case m.Parent == 0:
		m.Parent = base.Version
	case m.Parent != base.Version:
		v, err := e.d.Store.StrategyVersion(ctx, name, m.Parent)
		if domain.ErrorCode(err) == domain.ENotFound {
			return Config{}, domain.FieldErrors(map[string]string{"parent": fmt.Sprintf("%s has no version %d", name, m.Parent)}, "parent")
		}
		if err != nil {
			return Config{}, err
		}
		if base, err = configOf(base, v); err != nil {
			return Config{}, err
		}
	}
	if len(m.Note) > 500 {
		return Config{}, domain.FieldErrors(map[string]string{"note": "Note must be at most 500 characters"}, "note")
	}
	c, err := Overlay(base, params, e.d.Market.Symbols())
	if err != nil {
		return Config{}, err
	}
	c.Enabled = in.cfg.Enabled
	return e.commit(ctx, c, m)
}

// Activate makes a stored version the running configuration (roll back or
// forward); the instance keeps running or not as it was. A version that no
// longer validates (a symbol since removed) is refused with the reason.
func (e *Engine) Activate(ctx context.Context, name string, version int) (Config, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	in, ok := e.inst[name]
	if !ok {
		return Config{}, domain.Errorf(domain.ENotFound, "Strategy not found: %s", name)
	}
	v, err := e.d.Store.StrategyVersion(ctx, name, version)
	if err != nil {
		return Config{}, err
	}
	c, err := configOf(in.cfg, v)
	if err != nil {
		return Config{}, err
	}
	if err := c.Validate(e.d.Market.Symbols()); err != nil {
		return Config{}, err
	}
	if err := e.save(ctx, c); err != nil {
		return Config{}, err
	}
	return c, nil
}

// Keys params may set, by what the instance carries: the sizing and
// timeframe always (CommonKeys), the indicators on technical and hybrid
// instances, the model settings on AI-driven and hybrid ones (AIKeys).
// Backtest overrides allow the same keys.
var (
	CommonKeys = []string{"min_confidence", "max_position_size", "risk_multiplier", "symbols", "timeframe"}
	AIKeys     = []string{"model", "max_tokens", "temperature", "context_length", "parameters", "prompt_version", "prompt_template", "memory"}
)

// OverlayWording words the two refusals of an overlay that name what the
// caller was doing: saving a version's parameters or overriding a
// backtest run's. The rules themselves are one (OverlayAs).
type OverlayWording struct {
	NotObject string // params is not a JSON object
	Identity  string // params sets name or type; %s is the key
}

var (
	// VersionParams words Overlay: a version's or an instance's parameters.
	VersionParams = OverlayWording{
		NotObject: "Parameters must be a JSON object",
		Identity:  "Parameters cannot change the strategy's %s: use another instance instead",
	}
	// RunOverrides words a backtest run's parameter overrides.
	RunOverrides = OverlayWording{
		NotObject: "Parameter overrides must be a JSON object",
		Identity:  "An override cannot change the strategy's %s: backtest another instance instead",
	}
)

// Overlay lays params (the configuration's own shape) over a copy of cfg:
// an unknown key, or one the instance does not use, is refused rather than
// silently ignored, and name and type cannot change. The result is
// normalized and validated against the tradable symbols. Field errors are
// named params.<key>.
func Overlay(cfg Config, raw json.RawMessage, symbols []string) (Config, error) {
	return OverlayAs(VersionParams, cfg, raw, symbols)
}

// OverlayAs is Overlay with its refusals worded by w.
func OverlayAs(w OverlayWording, cfg Config, raw json.RawMessage, symbols []string) (Config, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return cfg, nil
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil || keys == nil {
		return cfg, domain.FieldErrors(map[string]string{"params": w.NotObject}, "params")
	}
	allowed := slices.Clone(CommonKeys)
	if cfg.Indicators != nil {
		allowed = append(allowed, "indicators")
	}
	if cfg.AIParams != nil {
		allowed = append(allowed, AIKeys...)
	}
	var bad []string
	f := map[string]string{}
	for k := range keys {
		switch {
		case k == "name" || k == "type":
			f["params."+k] = fmt.Sprintf(w.Identity, k)
		case !slices.Contains(allowed, k):
			bad = append(bad, k)
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		f["params"] = fmt.Sprintf("Unknown parameter for a %s strategy: %s (allowed: %s)", cfg.Type, strings.Join(bad, ", "), strings.Join(allowed, ", "))
	}
	if len(f) > 0 {
		return cfg, domain.FieldErrors(f, "params.name", "params.type", "params")
	}
	out := cfg.Clone()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields() // inside indicators too
	if err := dec.Decode(&out); err != nil {
		return cfg, domain.FieldErrors(map[string]string{"params": "Invalid parameters: " + err.Error()}, "params")
	}
	out.Normalize()
	if err := out.Validate(symbols); err != nil {
		return cfg, err
	}
	return out, nil
}
