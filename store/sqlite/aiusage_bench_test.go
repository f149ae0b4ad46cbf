package sqlite_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/ai/spend"
	"kestrel/domain"
)

// BenchmarkAIBudgetCheck is the check every AI decision makes before it
// calls a model when its provider has a budget: read the month's usage and
// add it up. The month holds a busy month's decisions: 3 AI strategies on 4
// symbols every hour for 30 days (8,640 decisions).
func BenchmarkAIBudgetCheck(b *testing.B) {
	ctx := context.Background()
	s := openStore(b)
	start := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	cost := decimal.RequireFromString("0.000123")
	n := 0
	for h := range 30 * 24 {
		for st := range 3 {
			for sym := range 4 {
				n++
				e := domain.Evaluation{ID: fmt.Sprint(n), Time: start.Add(time.Duration(h) * time.Hour), Strategy: fmt.Sprint("ai_", st),
					Symbol: fmt.Sprint("S", sym), Decision: "HOLD", Provider: "openai", Model: "m", Prompt: string(make([]byte, 2000)),
					InputTokens: 500, OutputTokens: 40, Cost: &cost}
				if err := s.AppendEvaluation(ctx, e); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	book := &spend.Book{
		Prices: func() map[string]spend.Price { return nil },
		Budgets: func() map[string]decimal.Decimal {
			return map[string]decimal.Decimal{"openai": decimal.NewFromInt(100)}
		},
		Usage: s.AIUsage,
		Now:   func() time.Time { return start.Add(30*24*time.Hour - time.Minute) },
	}
	b.ResetTimer()
	for b.Loop() {
		if why, err := book.Paused(ctx, "openai"); err != nil || why != "" {
			b.Fatal(why, err)
		}
	}
}
