package analytics

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

func TestDecisionOutcomes(t *testing.T) {
	at := func(m int) time.Time { return time.Date(2026, 1, 1, 0, m, 0, 0, time.UTC) }
	fill := func(m int, order string, side domain.Side, qty, px string) domain.Fill {
		return domain.Fill{OrderID: order, Symbol: "BTC-USD", Side: side, Quantity: decimal.RequireFromString(qty),
			Price: decimal.RequireFromString(px), Fee: decimal.Zero, Strategy: "ai", Time: at(m)}
	}
	fills := []domain.Fill{
		fill(0, "b1", domain.Buy, "1", "100"),
		fill(1, "b2", domain.Buy, "1", "120"),
		fill(2, "s1", domain.Sell, "1.5", "130"), // closes b1 (+30) and half of b2 (+5)
	}
	evals := []domain.Evaluation{
		{ID: "e1", Executed: true, OrderID: "b1"},
		{ID: "e2", Executed: true, OrderID: "b2"},
		{ID: "e3", Executed: true, OrderID: "s1"},
		{ID: "e4", Executed: false},
	}
	got := DecisionOutcomes(evals, fills)
	want := map[string]Outcome{
		"e1": {OutcomeProfit, decimal.NewFromInt(30)},
		"e2": {OutcomePending, decimal.Zero}, // half of it still held
		"e3": {OutcomeProfit, decimal.NewFromInt(35)},
		"e4": {OutcomePending, decimal.Zero},
	}
	for id, w := range want {
		if g := got[id]; g.Outcome != w.Outcome || !g.PnL.Equal(w.PnL) {
			t.Errorf("%s: %+v, want %+v", id, g, w)
		}
	}
	fills = append(fills, fill(3, "s2", domain.Sell, "0.5", "100")) // the rest of b2 at a loss of 10
	got = DecisionOutcomes(append(evals, domain.Evaluation{ID: "e5", Executed: true, OrderID: "s2"}), fills)
	// b2: half sold at 130 (+5), the other half at 100 (-10): a loss of 5.
	if g := got["e2"]; g.Outcome != OutcomeLoss || !g.PnL.Equal(decimal.NewFromInt(-5)) {
		t.Errorf("e2 after the rest is sold: %+v", g)
	}
}
