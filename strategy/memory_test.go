package strategy_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"kestrel/ai"
	"kestrel/domain"
	"kestrel/strategy"
)

// Live trading remembers the instance's own closed trades in the symbol:
// the last memory.trades of them, each with the order that opened it and
// the reasoning of the decision that placed that order. A trader's own
// round trip in the same symbol is not the strategy's and is left out.
func TestLiveMemoryIsTheStrategysOwnTrades(t *testing.T) {
	ctx := context.Background()
	m := &model{}
	r := aiRig(t, m, nil)
	r.enable(t, strategy.AIName, "BTC-USD")
	c, _ := r.eng.Get(strategy.AIName)
	c.Memory = &strategy.MemoryParams{Trades: 2, MaxTokens: 1000}
	if _, err := r.eng.Configure(ctx, strategy.AIName, c); err != nil {
		t.Fatal(err)
	}
	for _, side := range []domain.Side{domain.Buy, domain.Sell} { // a trader's round trip
		if _, _, err := r.gw.Place(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: side, Type: domain.Market, Quantity: decimal.RequireFromString("0.01")}); err != nil {
			t.Fatal(err)
		}
	}
	step := func(decision, reasoning string) domain.Evaluation {
		t.Helper()
		m.d = ai.Decision{Decision: decision, Confidence: 0.9, Reasoning: reasoning}
		r.mkt.push("BTC-USD", 45000) // a new candle each round
		evs := r.eng.Step(ctx)
		if len(evs) != 1 || (decision != ai.Hold && !evs[0].Executed) {
			t.Fatalf("%s: %+v", decision, evs)
		}
		return evs[0]
	}
	var opened []string
	for i := 1; i <= 3; i++ {
		opened = append(opened, step(ai.Buy, fmt.Sprintf("buy number %d", i)).OrderID)
		if m.got.Memory == nil || len(m.got.Memory.Trades) != min(i-1, 2) {
			t.Fatalf("round %d remembered %+v", i, m.got.Memory)
		}
		step(ai.Sell, "take the profit")
	}
	step(ai.Hold, "wait")
	got := m.got.Memory
	if got == nil || got.MaxTokens != 1000 || len(got.Trades) != 2 {
		t.Fatalf("memory %+v", got)
	}
	for i, tr := range got.Trades {
		n := i + 2 // the last two of three
		if tr.ID != opened[n-1] || tr.Reasoning != fmt.Sprintf("buy number %d", n) || tr.Symbol != "BTC-USD" || tr.Side != domain.Buy ||
			!tr.PnL.IsNegative() || !tr.EntryPrice.IsPositive() || tr.ExitTime.Before(tr.EntryTime) {
			t.Errorf("trade %d: %+v (opened by %s)", n, tr, opened[n-1])
		}
	}
	p, err := r.eng.Prompt(ctx, strategy.AIName, "BTC-USD", nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Version != "v3" || !strings.Contains(p.Prompt, "- "+opened[2]+": BUY ") || !strings.Contains(p.Prompt, `reasoning: "buy number 3"`) ||
		strings.Contains(p.Prompt, opened[0]) {
		t.Errorf("the preview's memory:\n%s", p.Prompt)
	}
}

// With memory off (the default) the model is asked exactly as before.
func TestMemoryOffAsksWithoutMemory(t *testing.T) {
	m := &model{d: ai.Decision{Decision: ai.Hold, Confidence: 0.5, Reasoning: "r"}}
	r := aiRig(t, m, nil)
	r.enable(t, strategy.AIName, "BTC-USD")
	r.eng.Step(context.Background())
	if m.got.Memory != nil || m.got.Symbol != "BTC-USD" {
		t.Fatalf("asked %+v", m.got)
	}
	c, _ := r.eng.Get(strategy.AIName)
	if c.PromptIdentity() != "v2" {
		t.Errorf("identity %s", c.PromptIdentity())
	}
	c.Memory = &strategy.MemoryParams{Trades: 3, MaxTokens: 500}
	if c.PromptIdentity() != "v3" {
		t.Errorf("with memory on the identity is %s, want v3", c.PromptIdentity())
	}
}

func TestMemorySettingsAreValidated(t *testing.T) {
	for _, tc := range []struct {
		name    string
		mem     *strategy.MemoryParams
		version string
		field   string
		want    string
	}{
		{"off", nil, "", "", ""},
		{"on", &strategy.MemoryParams{Trades: 10, MaxTokens: 800}, "", "", ""},
		{"on with v3", &strategy.MemoryParams{Trades: 10, MaxTokens: 800}, "v3", "", ""},
		{"zero trades is off", &strategy.MemoryParams{}, "v1", "", ""},
		{"too many trades", &strategy.MemoryParams{Trades: 51, MaxTokens: 800}, "", "memory.trades", "Memory trades must be between 0 and 50"},
		{"negative trades", &strategy.MemoryParams{Trades: -1}, "", "memory.trades", "Memory trades must be between 0 and 50"},
		{"budget too small", &strategy.MemoryParams{Trades: 5, MaxTokens: 99}, "", "memory.max_tokens", "Memory token budget must be between 100 and 4000"},
		{"budget too large", &strategy.MemoryParams{Trades: 5, MaxTokens: 4001}, "", "memory.max_tokens", "Memory token budget must be between 100 and 4000"},
		{"pinned to v2", &strategy.MemoryParams{Trades: 5, MaxTokens: 800}, "v2", "prompt_version", "Prompt v2 has no trade memory section"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := strategy.Default(domain.StrategyAI, "a")
			c.Memory, c.PromptVersion = tc.mem, tc.version
			c.Normalize()
			err := c.Validate([]string{"BTC-USD", "ETH-USD"})
			if tc.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var de *domain.Error
			if !errors.As(err, &de) {
				t.Fatalf("error %v", err)
			}
			if got := de.Fields[tc.field]; !strings.HasPrefix(got, tc.want) {
				t.Errorf("%s: %q (error %v), want %q", tc.field, got, err, tc.want)
			}
		})
	}
	c := strategy.Default(domain.StrategyAI, "a")
	c.Memory = &strategy.MemoryParams{Trades: 5}
	c.Normalize()
	if c.Memory.MaxTokens != strategy.DefaultMemoryTokens {
		t.Errorf("an unset budget is %d, want the default", c.Memory.MaxTokens)
	}
	clone := c.Clone()
	clone.Memory.Trades = 9
	if c.Memory.Trades != 5 {
		t.Error("Clone shares the memory settings")
	}
}
