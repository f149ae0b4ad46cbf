package strategy_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/ai"
	"kestrel/ai/spend"
	"kestrel/domain"
	"kestrel/strategy"
)

// shadowModel is a shadow provider: it answers d (or err), after gate is
// closed when it has one, and counts its calls.
type shadowModel struct {
	name  string
	d     ai.Decision
	err   error
	gate  chan struct{}
	calls int
}

func (m *shadowModel) Name() string                 { return m.name }
func (m *shadowModel) ModelLabel(opt string) string { return opt }
func (m *shadowModel) Decide(ctx context.Context, r ai.Request) (ai.Decision, error) {
	m.calls++
	if m.gate != nil {
		<-m.gate
	}
	d := m.d
	d.Provider, d.Model, d.Prompt = m.name, r.Model, r.Symbol
	return d, m.err
}

// shadowRig is an AI rig with a live model (fake/fake-model), shadow
// models by label, prices for fake-model and shadow-sell, and budgets.
func shadowRig(t *testing.T, live *model, shadows map[string]*shadowModel, budget map[string]decimal.Decimal) *rig {
	var r *rig
	book := &spend.Book{
		Prices: func() map[string]spend.Price {
			return map[string]spend.Price{"fake-model": {Input: decimal.NewFromInt(2), Output: decimal.NewFromInt(8)},
				"shadow-sell": {Input: decimal.NewFromInt(1), Output: decimal.NewFromInt(1)}}
		},
		Budgets: func() map[string]decimal.Decimal { return budget },
		Usage: func(ctx context.Context, since, until time.Time) ([]domain.AIUsage, error) {
			return r.store.AIUsage(ctx, since, until)
		},
		Now: func() time.Time { return time.Date(2026, 1, 4, 3, 1, 0, 0, time.UTC) },
	}
	deps := strategy.AIDeps{Provider: func() (ai.Provider, error) { return live, nil }, Spend: book,
		Shadow: func(m strategy.ShadowModel) (ai.Provider, error) {
			if p, ok := shadows[m.Label()]; ok {
				return p, nil
			}
			return nil, fmt.Errorf("no provider %s", m.Label())
		}}
	r = newRig(t, strategy.Builder(deps))
	r.enable(t, strategy.AIName, "BTC-USD")
	c, _ := r.eng.Get(strategy.AIName)
	c.ShadowModels = []strategy.ShadowModel{{Provider: "openai", Model: "shadow-sell"}, {Provider: "replicate", Model: "llama-2-70b"}}
	if _, err := r.eng.Configure(context.Background(), strategy.AIName, c); err != nil {
		t.Fatal(err)
	}
	return r
}

// The shadows are asked the live model's prompt; their decisions are
// recorded beside the live one and never traded; a shadow that hangs and
// then fails neither delays nor breaks the live decision; the leaderboard
// scores each model's own calls on paper, figures by hand.
func TestShadowModelsAreRecordedNeverTradedAndScored(t *testing.T) {
	ctx := context.Background()
	live := &model{d: ai.Decision{Decision: "BUY", Confidence: 0.8, Reasoning: "oversold", PromptTokens: 500, CompletionTokens: 50}}
	sell := &shadowModel{name: "openai", d: ai.Decision{Decision: "SELL", Confidence: 0.9, Reasoning: "falling", PromptTokens: 1000, CompletionTokens: 100}}
	broken := &shadowModel{name: "replicate", err: errors.New("replicate: 503 Service Unavailable"), gate: make(chan struct{})}
	r := shadowRig(t, live, map[string]*shadowModel{"openai/shadow-sell": sell, "replicate/llama-2-70b": broken}, nil)

	// Candle 1 closes at 45,500: live BUY (traded), shadow SELL (flat: nothing),
	// the broken shadow still hanging when the live decision is stored.
	evs := r.eng.Step(ctx)
	if len(evs) != 1 || evs[0].Decision != "BUY" || !evs[0].Executed {
		t.Fatalf("live decision with a shadow hanging: %+v", evs)
	}
	close(broken.gate)
	r.eng.WaitShadows()
	// Candle 2 at 47,000: live SELL (traded), shadow BUY. Candle 3 at 46,000:
	// live HOLD, shadow SELL.
	for _, step := range []struct {
		close       float64
		live, sh    string
		wantExecute bool
	}{{47000, "SELL", "BUY", true}, {46000, "HOLD", "SELL", false}} {
		live.d.Decision, sell.d.Decision = step.live, step.sh
		r.mkt.push("BTC-USD", step.close)
		evs := r.eng.Step(ctx)
		if len(evs) != 1 || evs[0].Decision != step.live || evs[0].Executed != step.wantExecute {
			t.Fatalf("candle at %v: %+v", step.close, evs)
		}
		r.eng.WaitShadows()
	}
	if sell.calls != 3 || broken.calls != 3 {
		t.Fatalf("shadow calls: %d and %d, want 3 each", sell.calls, broken.calls)
	}

	// Only the live model traded: BUY then SELL.
	fills, err := r.store.LedgerFills(ctx, domain.FillFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var ledger []string
	for i := len(fills) - 1; i >= 0; i-- {
		ledger = append(ledger, string(fills[i].Side)+" "+fills[i].Symbol+" "+fills[i].Strategy)
	}
	if got, want := strings.Join(ledger, "; "), "BUY BTC-USD ai_strategy; SELL BTC-USD ai_strategy"; got != want {
		t.Fatalf("fills %q, want %q", got, want)
	}

	// Each evaluation has the live model's answer and both shadows'.
	rows, err := r.store.ShadowDecisions(ctx, domain.ShadowFilter{Strategy: strategy.AIName})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range rows {
		got = append(got, fmt.Sprintf("%s %s/%s %s %s %s", d.CandleTime.Format("15h"), d.Provider, d.Model, d.Decision, d.Price, d.Error))
	}
	want := []string{
		"04h fake/fake-model HOLD 46000 ", "04h openai/shadow-sell SELL 46000 ", "04h replicate/llama-2-70b  46000 replicate: 503 Service Unavailable",
		"03h fake/fake-model SELL 47000 ", "03h openai/shadow-sell BUY 47000 ", "03h replicate/llama-2-70b  47000 replicate: 503 Service Unavailable",
		"02h fake/fake-model BUY 45500 ", "02h openai/shadow-sell SELL 45500 ", "02h replicate/llama-2-70b  45500 replicate: 503 Service Unavailable",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("recorded:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	fee := decimal.RequireFromString("0.006")
	b, err := r.eng.Leaderboard(ctx, strategy.AIName, time.Time{}, fee)
	if err != nil {
		t.Fatal(err)
	}
	if b.Evaluations != 3 || len(b.Models) != 3 || len(b.Recent) != 3 || len(b.Recent[0].Decisions) != 3 {
		t.Fatalf("leaderboard %+v", b)
	}
	d := decimal.RequireFromString
	one := decimal.NewFromInt(1)
	net := func(entry, exit string) decimal.Decimal { // (exit / entry) x (1 - fee) / (1 + fee) - 1
		return d(exit).Mul(one.Sub(fee)).Div(d(entry).Mul(one.Add(fee))).Sub(one)
	}
	for i, w := range []struct {
		label              string
		buys, sells, fails int
		ret                decimal.Decimal
		hit                string
		cost               string
	}{
		// live: BUY 45,500 -> SELL 47,000, a win; 3 x (500 x $2 + 50 x $8) / 1M.
		{"live fake/fake-model", 1, 1, 0, net("45500", "47000"), "100", "0.0042"},
		// the broken shadow: no call answered, nothing traded (0: above a loss), no price for its model.
		{"shadow replicate/llama-2-70b", 0, 0, 3, decimal.Zero, "none", "unpriced"},
		// the shadow's own round trip BUY 47,000 -> SELL 46,000, a loss; 3 x (1,000 + 100) x $1 / 1M.
		{"shadow openai/shadow-sell", 1, 2, 0, net("47000", "46000"), "0", "0.0033"},
	} {
		m := b.Models[i]
		hit, cost := "none", "unpriced"
		if m.HitRate != nil {
			hit = fmt.Sprint(*m.HitRate)
		}
		if m.Cost != nil {
			cost = m.Cost.String()
		}
		if got := m.Role + " " + m.Provider + "/" + m.Model; got != w.label || m.Buys != w.buys || m.Sells != w.sells || m.Failed != w.fails ||
			!m.RealisedReturn.Equal(w.ret) || hit != w.hit || cost != w.cost {
			t.Errorf("row %d: %s buys %d sells %d failed %d return %s hit %s cost %s\nwant %+v", i, got, m.Buys, m.Sells, m.Failed, m.RealisedReturn, hit, cost, w)
		}
	}
}

// A shadow on a provider whose monthly budget is spent is not asked; it is
// recorded as paused and the live decision goes on.
func TestShadowPausesWhenItsProviderBudgetIsSpent(t *testing.T) {
	ctx := context.Background()
	live := &model{d: ai.Decision{Decision: "HOLD", Confidence: 0.5}}
	sell := &shadowModel{name: "openai", d: ai.Decision{Decision: "SELL", Confidence: 0.9}}
	broken := &shadowModel{name: "replicate", err: errors.New("down")}
	r := shadowRig(t, live, map[string]*shadowModel{"openai/shadow-sell": sell, "replicate/llama-2-70b": broken},
		map[string]decimal.Decimal{"openai": decimal.Zero})
	if evs := r.eng.Step(ctx); len(evs) != 1 || evs[0].Decision != "HOLD" || evs[0].Error != "" {
		t.Fatalf("live decision %+v", evs)
	}
	r.eng.WaitShadows()
	if sell.calls != 0 {
		t.Fatal("the shadow was asked over its provider's budget")
	}
	rows, _ := r.store.ShadowDecisions(ctx, domain.ShadowFilter{Strategy: strategy.AIName})
	if len(rows) != 3 || !strings.HasPrefix(rows[1].Error, "paused: budget") || rows[1].Cost == nil || !rows[1].Cost.IsZero() {
		t.Fatalf("rows %+v", rows)
	}
}

func TestShadowModelValidation(t *testing.T) {
	base := strategy.Default(domain.StrategyAI, "x")
	for _, tc := range []struct {
		name    string
		shadows []strategy.ShadowModel
		field   string
	}{
		{"unknown provider", []strategy.ShadowModel{{Provider: "anthropic", Model: "m"}}, "shadow_models.0.provider"},
		{"no model", []strategy.ShadowModel{{Provider: "openai"}}, "shadow_models.0.model"},
		{"the live model", []strategy.ShadowModel{{Provider: "openai", Model: "gpt-4.1-nano"}}, "shadow_models.0.model"},
		{"twice", []strategy.ShadowModel{{Provider: "builtin"}, {Provider: "builtin"}}, "shadow_models.1.model"},
		{"bad base url", []strategy.ShadowModel{{Provider: "openai", Model: "m", BaseURL: "ftp://x"}}, "shadow_models.0.base_url"},
		{"too many", []strategy.ShadowModel{{Provider: "builtin"}, {Provider: "openai", Model: "a"}, {Provider: "openai", Model: "b"}, {Provider: "openai", Model: "c"}}, "shadow_models"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := base.Clone()
			c.ShadowModels = tc.shadows
			err := c.ValidateFor([]string{"BTC-USD", "ETH-USD"}, "openai")
			var de *domain.Error
			if !errors.As(err, &de) || de.Fields[tc.field] == "" {
				t.Fatalf("error %v, want a field error on %s", err, tc.field)
			}
		})
	}
	ok := base.Clone()
	ok.ShadowModels = []strategy.ShadowModel{{Provider: "builtin"}, {Provider: "openai", Model: "gpt-4.1-mini"}, {Provider: "replicate", Model: "gpt-4.1-nano"}}
	if err := ok.ValidateFor([]string{"BTC-USD", "ETH-USD"}, "openai"); err != nil {
		t.Fatalf("valid shadows refused: %v", err)
	}
}

// A hybrid asks its shadows only when it asks its model (the rules say BUY
// or SELL), and its live row is the model's own answer, not the combined
// decision: the leaderboard compares like with like.
func TestHybridShadowsAndTheModelsOwnAnswer(t *testing.T) {
	ctx := context.Background()
	live := &model{d: ai.Decision{Decision: "SELL", Confidence: 0.9}}
	sell := &shadowModel{name: "openai", d: ai.Decision{Decision: "BUY", Confidence: 0.6}}
	r := newRig(t, strategy.Builder(strategy.AIDeps{Provider: func() (ai.Provider, error) { return live, nil },
		Shadow: func(strategy.ShadowModel) (ai.Provider, error) { return sell, nil }}))
	c, _ := r.eng.Get(strategy.HybridName)
	c.Symbols, c.ShadowModels = []string{"BTC-USD", "ETH-USD"}, []strategy.ShadowModel{{Provider: "openai", Model: "shadow-sell"}}
	if _, err := r.eng.Configure(ctx, strategy.HybridName, c); err != nil {
		t.Fatal(err)
	}
	if _, err := r.eng.SetEnabled(ctx, strategy.HybridName, true); err != nil {
		t.Fatal(err)
	}
	// BTC-USD: the rules say BUY (RSI oversold), the model SELL: HOLD combined.
	// ETH-USD: one flat candle, the rules say HOLD: no model, no shadow asked.
	evs := r.eng.Step(ctx)
	r.eng.WaitShadows()
	if len(evs) != 2 || evs[0].Decision != "HOLD" || evs[1].Decision != "HOLD" || sell.calls != 1 {
		t.Fatalf("evaluations %+v, shadow calls %d", evs, sell.calls)
	}
	rows, _ := r.store.ShadowDecisions(ctx, domain.ShadowFilter{Strategy: strategy.HybridName})
	if len(rows) != 2 || rows[0].Symbol != "BTC-USD" || rows[0].Role != domain.RoleLive || rows[0].Decision != "SELL" || rows[1].Decision != "BUY" {
		t.Fatalf("rows %+v", rows)
	}
}
