package backtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"kestrel/domain"
	"kestrel/strategy"
)

// Keys an override may set are the ones a saved version may
// (strategy.CommonKeys, strategy.AIKeys): the sizing and timeframe always,
// the indicators on technical and hybrid instances, the model settings on
// AI-driven and hybrid ones. name and type are the instance's identity: a
// run of technical_strategy stays one.
var (
	commonKeys = strategy.CommonKeys
	aiKeys     = strategy.AIKeys
)

// applyParams overlays a run's parameter overrides on the instance's
// configuration (a copy): an unknown key, or one the instance does not use,
// is refused rather than silently ignored, and name and type cannot change.
func applyParams(cfg strategy.Config, raw json.RawMessage, symbols []string) (strategy.Config, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return cfg, nil
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil || keys == nil {
		return cfg, domain.FieldErrors(map[string]string{"params": "Parameter overrides must be a JSON object"}, "params")
	}
	allowed := append([]string(nil), commonKeys...)
	if cfg.Indicators != nil {
		allowed = append(allowed, "indicators")
	}
	if cfg.AIParams != nil {
		allowed = append(allowed, aiKeys...)
	}
	var bad []string
	f := map[string]string{}
	for k := range keys {
		switch {
		case k == "name" || k == "type":
			f["params."+k] = fmt.Sprintf("An override cannot change the strategy's %s: backtest another instance instead", k)
		case !contains(allowed, k):
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

// ApplyParams is the overlay of a run's overrides (see applyParams), for the
// command line's sweeps over a strategy's default settings.
func ApplyParams(cfg strategy.Config, raw json.RawMessage, symbols []string) (strategy.Config, error) {
	return applyParams(cfg, raw, symbols)
}
