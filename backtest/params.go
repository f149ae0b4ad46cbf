package backtest

import (
	"encoding/json"

	"kestrel/strategy"
)

// applyParams overlays a run's parameter overrides on the instance's
// configuration (a copy) by the rules a saved version's parameters follow
// (strategy.OverlayAs): the same keys (the sizing and timeframe always, the
// indicators on technical and hybrid instances, the model settings on
// AI-driven and hybrid ones), an unknown or unused key refused rather than
// silently ignored, name and type unchangeable; only the refusals speak of
// overrides.
func applyParams(cfg strategy.Config, raw json.RawMessage, symbols []string) (strategy.Config, error) {
	return strategy.OverlayAs(strategy.RunOverrides, cfg, raw, symbols)
}

// ApplyParams is the overlay of a run's overrides (see applyParams), for the
// command line's sweeps over a strategy's default settings.
func ApplyParams(cfg strategy.Config, raw json.RawMessage, symbols []string) (strategy.Config, error) {
	return applyParams(cfg, raw, symbols)
}
