package backtest

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"kestrel/domain"
	"kestrel/strategy"
)

// A run's overrides follow a saved version's rules (strategy.OverlayAs),
// and their refusals speak of overrides, as the API has always answered.
func TestOverridesFollowTheVersionRulesWordedAsOverrides(t *testing.T) {
	cfg := strategy.Default(domain.StrategyTechnical, "technical")
	symbols := []string{"BTC-USD", "ETH-USD", "SOL-USD", "ADA-USD"}
	for _, c := range []struct{ raw, field, msg string }{
		{`[1]`, "params", "Parameter overrides must be a JSON object"},
		{`{"name":"x"}`, "params.name", "An override cannot change the strategy's name: backtest another instance instead"},
		{`{"model":"m"}`, "params", "Unknown parameter for a technical strategy: model"},
	} {
		_, err := applyParams(cfg, json.RawMessage(c.raw), symbols)
		var e *domain.Error
		if !errors.As(err, &e) {
			t.Fatalf("%s: %v, want a field error", c.raw, err)
		}
		if got := e.Fields[c.field]; !strings.HasPrefix(got, c.msg) {
			t.Errorf("%s: %s = %q, want %q", c.raw, c.field, got, c.msg)
		}
	}
	out, err := applyParams(cfg, json.RawMessage(`{"min_confidence":0.9}`), symbols)
	if err != nil || out.MinConfidence != 0.9 {
		t.Fatalf("override = %v, %v", out.MinConfidence, err)
	}
}
