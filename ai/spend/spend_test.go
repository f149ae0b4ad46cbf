package spend

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func book(usage []domain.AIUsage, budgets map[string]decimal.Decimal, now time.Time) *Book {
	return &Book{
		Prices:  func() map[string]Price { return map[string]Price{"m": {Input: dec("0.15"), Output: dec("0.6")}} },
		Budgets: func() map[string]decimal.Decimal { return budgets },
		Usage: func(_ context.Context, since, until time.Time) ([]domain.AIUsage, error) {
			var out []domain.AIUsage
			for _, u := range usage {
				if !u.Time.Before(since) && u.Time.Before(until) {
					out = append(out, u)
				}
			}
			return out, nil
		},
		Now: func() time.Time { return now },
	}
}

func TestCostIsDecimalUnknownWithoutAPriceAndZeroForTheBuiltin(t *testing.T) {
	b := book(nil, nil, time.Now())
	// 1,000 in at $0.15/M + 333 out at $0.60/M = 0.00015 + 0.0001998, exactly.
	if c := b.Cost("openai", []string{"m"}, 1000, 333); c == nil || !c.Equal(dec("0.0003498")) {
		t.Errorf("priced cost %v", c)
	}
	if c := b.Cost("openai", []string{"reported-name", "m"}, 1000, 0); c == nil || !c.Equal(dec("0.00015")) {
		t.Errorf("the configured option's price when the reported model has none: %v", c)
	}
	if c := b.Cost("openai", []string{"other"}, 1000, 10); c != nil {
		t.Errorf("an unpriced model cost %v, want unknown (nil)", c)
	}
	if c := b.Cost(Builtin, []string{"builtin"}, 0, 0); c == nil || !c.IsZero() {
		t.Errorf("the built-in analyst: %v", c)
	}
}

func TestBudgetCountsThisMonthsKnownSpendOfItsProvider(t *testing.T) {
	now := time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)
	c := func(s string) *decimal.Decimal { d := dec(s); return &d }
	usage := []domain.AIUsage{
		{Time: time.Date(2026, 2, 28, 23, 59, 0, 0, time.UTC), Provider: "openai", Cost: c("5")}, // last month
		{Time: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), Provider: "openai", Cost: c("0.6")},
		{Time: time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC), Provider: "openai", Cost: nil}, // unknown: adds nothing
		{Time: time.Date(2026, 3, 3, 0, 0, 0, 0, time.UTC), Provider: "replicate", Cost: c("9")},
	}
	for _, tc := range []struct {
		budget string
		paused bool
	}{{"0.61", false}, {"0.6", true}, {"0.5", true}} {
		why, err := book(usage, map[string]decimal.Decimal{"openai": dec(tc.budget)}, now).Paused(context.Background(), "openai")
		if err != nil || (why != "") != tc.paused {
			t.Errorf("budget %s: paused %q, %v", tc.budget, why, err)
		}
	}
	if why, _ := book(usage, nil, now).Paused(context.Background(), "openai"); why != "" {
		t.Errorf("no budget paused: %q", why)
	}

	r, err := book(usage, map[string]decimal.Decimal{"openai": dec("0.6")}, now).Report(context.Background(), time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC), now)
	if err != nil {
		t.Fatal(err)
	}
	if r.Total.Decisions != 4 || r.Total.Cost != nil || !r.Total.KnownCost.Equal(dec("14.6")) || r.Total.UnpricedDecisions != 1 || len(r.Days) != 4 {
		t.Errorf("totals %+v, days %d", r.Total, len(r.Days))
	}
	if len(r.Providers) != 2 || r.Providers[0].Provider != "openai" || !r.Providers[0].Paused || !r.Providers[0].Month.KnownCost.Equal(dec("0.6")) ||
		r.Providers[1].Paused || r.Providers[1].Budget != nil {
		t.Errorf("providers %+v", r.Providers)
	}
}

// Shadow models' calls are part of the totals, labelled, and count toward
// their provider's budget.
func TestShadowSpendIsIncludedAndLabelled(t *testing.T) {
	now := time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)
	live, shadow := dec("0.25"), dec("0.75")
	usage := []domain.AIUsage{
		{Time: now.Add(-time.Hour), Strategy: "ai", Provider: "openai", Model: "m", InputTokens: 10, OutputTokens: 1, Cost: &live},
		{Time: now.Add(-time.Hour), Strategy: "ai", Provider: "openai", Model: "s", InputTokens: 20, OutputTokens: 2, Cost: &shadow, Shadow: true},
	}
	b := book(usage, map[string]decimal.Decimal{"openai": dec("1")}, now)
	r, err := b.Report(context.Background(), MonthStart(now), now)
	if err != nil {
		t.Fatal(err)
	}
	if r.Total.Decisions != 2 || !r.Total.Cost.Equal(dec("1")) || r.Total.ShadowDecisions != 1 || !r.Total.ShadowCost.Equal(shadow) {
		t.Fatalf("total %+v", r.Total)
	}
	if s := r.Strategies[0]; s.ShadowDecisions != 1 || !s.ShadowCost.Equal(shadow) {
		t.Fatalf("strategy %+v", s)
	}
	if p := r.Providers[0]; !p.Paused || !p.Month.ShadowCost.Equal(shadow) {
		t.Fatalf("provider %+v: $0.25 live + $0.75 shadow reach the $1 budget", p)
	}
}
