package research

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"kestrel/backtest"
	"kestrel/strategy"
)

// configOnly is a Backtests that only knows one instance's configuration.
type configOnly struct{ cfg strategy.Config }

func (c configOnly) Start(context.Context, backtest.Ask, backtest.RunOptions) (backtest.Report, error) {
	return backtest.Report{}, nil
}
func (c configOnly) NewShared() *backtest.Shared { return nil }
func (c configOnly) Config(*backtest.Shared, string) (strategy.Config, error) {
	return c.cfg, nil
}

// The pinned configuration as PostgreSQL's jsonb gives it back (its own
// key order and spacing) is the same configuration; a changed setting is not.
func TestPinnedConfigurationIsComparedByValue(t *testing.T) {
	cfg := strategy.Config{Name: "technical_strategy", Type: "technical", Enabled: true, MinConfidence: 0.6, RiskMultiplier: 1,
		Symbols: []string{"BTC-USD"}, Timeframe: "ONE_HOUR", Indicators: strategy.DefaultIndicators(), Version: 3}
	bt := configOnly{cfg}
	a, err := Pinned(bt, Ask{Ask: backtest.Ask{StrategyName: cfg.Name}})
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(a.StrategyConfig, &v); err != nil {
		t.Fatal(err)
	}
	// jsonb: keys shortest first, ", " and ": " between them.
	reordered := `{"name": "technical_strategy", "type": "technical", "enabled": true, "symbols": ["BTC-USD"], "version": 3, ` +
		`"timeframe": "ONE_HOUR", "indicators": {"sma_long": 20, "macd_fast": 12, "macd_slow": 26, "sma_short": 10, "rsi_period": 14, ` +
		`"macd_signal": 9, "rsi_oversold": 30, "bollinger_std": 2, "rsi_overbought": 70, "bollinger_period": 20}, ` +
		`"min_confidence": 0.6, "risk_multiplier": 1, "max_position_size": 0}`
	var w map[string]any
	if err := json.Unmarshal([]byte(reordered), &w); err != nil || len(w) != len(v) {
		t.Fatalf("the reordered text is not the pinned configuration's fields: %v, %d vs %d (%s)", err, len(w), len(v), a.StrategyConfig)
	}
	a.StrategyConfig = json.RawMessage(reordered)
	if err := unchanged(bt, nil, a); err != nil {
		t.Fatalf("the same configuration in another key order: %v", err)
	}
	bt.cfg.MinConfidence = 0.7
	if err := unchanged(bt, nil, a); err == nil || !strings.Contains(err.Error(), "changed after the sweep was submitted") {
		t.Fatalf("a changed min_confidence: %v", err)
	}
}
