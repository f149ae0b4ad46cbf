package strategy

import (
	"bytes"
	"encoding/json"
	"testing"

	"kestrel/domain"
)

// FuzzConfigValidate: any configuration document decoded over a default
// instance (as PUT /api/strategy/config/{name} does) normalises and
// validates without panicking, and a configuration that validates is within
// the documented bounds.
func FuzzConfigValidate(f *testing.F) {
	for _, kind := range []string{domain.StrategyTechnical, domain.StrategyAI, domain.StrategyHybrid} {
		b, _ := json.Marshal(Default(kind, "x"))
		f.Add(uint8(0), b)
	}
	for _, s := range []string{
		`{"min_confidence":1.5,"symbols":["btc-usd"," ","BTC-USD"]}`,
		`{"indicators":{"sma_short":50,"sma_long":20,"rsi_period":0}}`,
		`{"temperature":-1,"max_tokens":0,"model":""}`,
		`{"timeframe":"FORTNIGHT","risk_multiplier":1e309}`,
		`{"symbols":null,"indicators":null}`,
	} {
		f.Add(uint8(1), []byte(s))
	}
	f.Add(uint8(0), []byte(`{"temperature":9,"max_tokens":1,"model":""}`)) // AI keys on a technical instance
	known := []string{"BTC-USD", "ETH-USD", "SOL-USD", "ADA-USD"}
	kinds := []string{domain.StrategyTechnical, domain.StrategyAI, domain.StrategyHybrid}
	f.Fuzz(func(t *testing.T, kind uint8, raw []byte) {
		c := Default(kinds[int(kind)%len(kinds)], "fuzz")
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if dec.Decode(&c) != nil {
			return
		}
		c.Normalize()
		if (c.Type == domain.StrategyTechnical && c.AIParams != nil) || (c.Type == domain.StrategyAI && c.Indicators != nil) {
			t.Fatalf("a %s instance kept parameters of another kind, unvalidated: %+v", c.Type, c)
		}
		if c.Validate(known) != nil {
			return
		}
		if !(c.MinConfidence >= 0 && c.MinConfidence <= 1) || !(c.MaxPositionSize > 0 && c.MaxPositionSize <= 1) {
			t.Fatalf("accepted out-of-bounds confidence or size: %+v", c)
		}
		if len(c.Symbols) == 0 || domain.Granularity(c.Timeframe).Duration() == 0 {
			t.Fatalf("accepted no symbols or an unknown timeframe: %+v", c)
		}
		if ind := c.Indicators; ind != nil && (c.Type == domain.StrategyTechnical || c.Type == domain.StrategyHybrid) && ind.SMAShort >= ind.SMALong {
			t.Fatalf("accepted SMA short %v >= long %v", ind.SMAShort, ind.SMALong)
		}
	})
}
