package stage

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

type mapKV struct {
	mu sync.Mutex
	m  map[string]string
}

func (k *mapKV) GetValue(_ context.Context, key string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	v, ok := k.m[key]
	if !ok {
		return "", domain.Errorf(domain.ENotFound, "no %s", key)
	}
	return v, nil
}

func (k *mapKV) PutValue(_ context.Context, key, value string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.m[key] = value
	return nil
}

// A paper stage's risk marks survive a restart: the book reopened from its
// stored keys answers the same peak and the same value at the day's start;
// two stages' keys do not mix.
func TestStageBookKeepsItsMarksAcrossARestart(t *testing.T) {
	ctx := context.Background()
	kv := &mapKV{m: map[string]string{}}
	day := time.Date(2026, 5, 2, 0, 0, 0, 0, time.UTC)
	b, err := OpenBook(ctx, kv, "p1")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct {
		at    time.Time
		value string
	}{{day.Add(-3 * time.Hour), "10000"}, {day.Add(-2 * time.Hour), "10400.5"}, {day.Add(-time.Minute), "10100"}, {day.Add(time.Hour), "9900"}} {
		if err := b.AppendPortfolioPoint(ctx, domain.PortfolioPoint{Time: p.at, Value: decimal.RequireFromString(p.value)}); err != nil {
			t.Fatal(err)
		}
	}
	check := func(what string, b *Book, wantSOD string) {
		t.Helper()
		peak, err := b.PeakPortfolioValue(ctx)
		if err != nil || peak.String() != "10400.5" {
			t.Errorf("%s: peak %s, %v; want 10400.5", what, peak, err)
		}
		sod, err := b.PortfolioPointAt(ctx, day) // the day's start, as the gateway reads it
		if err != nil || sod.Value.String() != wantSOD {
			t.Errorf("%s: value at the day's start %s, %v; want %s", what, sod.Value, err, wantSOD)
		}
		last, err := b.PortfolioPointAt(ctx, day.Add(2*time.Hour))
		if err != nil || last.Value.String() != "9900" {
			t.Errorf("%s: value at 02:00 %s, %v; want 9900", what, last.Value, err)
		}
	}
	check("running", b, "10100")
	reopened, err := OpenBook(ctx, kv, "p1")
	if err != nil {
		t.Fatal(err)
	}
	check("after a restart", reopened, "10100")
	if _, err := reopened.PortfolioPointAt(ctx, day.Add(-time.Hour)); domain.ErrorCode(err) != domain.ENotFound {
		t.Errorf("a point before the ones stored: %v, want not_found (the day's start and the last are kept)", err)
	}
	other, _ := OpenBook(ctx, kv, "p2")
	if peak, _ := other.PeakPortfolioValue(ctx); !peak.IsZero() {
		t.Errorf("another stage's peak %s", peak)
	}
}
