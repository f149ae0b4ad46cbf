package app

import (
	"context"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// stageBook is a paper stage's gateway store: its values (the emergency
// stop, protective-order marks) under the stage's own keys, and its
// portfolio points, which the risk limits measure the day's loss and the
// drawdown from, in memory: after a restart a stage's limits measure from
// its first value again (docs/PROMOTION.md says so).
type stageBook struct {
	kv     domain.KVStore
	prefix string

	mu     sync.Mutex
	points []domain.PortfolioPoint
}

func newStageBook(kv domain.KVStore, id string) *stageBook {
	return &stageBook{kv: kv, prefix: "promotion/" + id + "/"}
}

func (b *stageBook) GetValue(ctx context.Context, key string) (string, error) {
	return b.kv.GetValue(ctx, b.prefix+key)
}

func (b *stageBook) PutValue(ctx context.Context, key, value string) error {
	return b.kv.PutValue(ctx, b.prefix+key, value)
}

func (b *stageBook) AppendPortfolioPoint(_ context.Context, p domain.PortfolioPoint) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.points = append(b.points, p)
	return nil
}

func (b *stageBook) PortfolioPoints(_ context.Context, since, until time.Time, limit int) ([]domain.PortfolioPoint, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := []domain.PortfolioPoint{}
	for _, p := range b.points {
		if !p.Time.Before(since) && p.Time.Before(until) {
			out = append(out, p)
		}
	}
	if limit > 0 && len(out) > limit {
		out = out[len(out)-limit:]
	}
	return out, nil
}

func (b *stageBook) PortfolioPointAt(_ context.Context, t time.Time) (domain.PortfolioPoint, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := len(b.points) - 1; i >= 0; i-- {
		if !b.points[i].Time.After(t) {
			return b.points[i], nil
		}
	}
	return domain.PortfolioPoint{}, domain.Errorf(domain.ENotFound, "No portfolio value recorded by then")
}

func (b *stageBook) PeakPortfolioValue(context.Context) (decimal.Decimal, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	peak := decimal.Zero
	for _, p := range b.points {
		peak = decimal.Max(peak, p.Value)
	}
	return peak, nil
}

func (b *stageBook) ThinPortfolioPoints(context.Context, time.Time, time.Duration) (int64, error) {
	return 0, nil
}
