package stage

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// Book is a paper stage's gateway store: its values (the emergency
// stop, protective-order marks) under the stage's own keys, and its
// portfolio points, which its risk limits measure the day's loss and the
// drawdown from. The points are kept in memory for two days; the last one,
// the last one before the current UTC day (the day's start value) and the
// peak are also stored under the stage's keys, so after a restart the
// day's start and the peak are what they were.
type Book struct {
	kv     domain.KVStore
	prefix string

	mu     sync.Mutex
	points []domain.PortfolioPoint
	peak   decimal.Decimal
}

// keep is how long a stage's points stay in memory: the day's start
// reads the last point before today's 00:00 UTC.
const keep = 48 * time.Hour

const (
	lastKey    = "portfolio/last"
	dayOpenKey = "portfolio/before-today"
	peakKey    = "portfolio/peak"
)

// OpenBook opens a stage's book, with its stored last point and peak.
func OpenBook(ctx context.Context, kv domain.KVStore, id string) (*Book, error) {
	b := &Book{kv: kv, prefix: "promotion/" + id + "/"}
	for _, key := range []string{dayOpenKey, lastKey} {
		raw, err := b.GetValue(ctx, key)
		switch {
		case err == nil:
			var p domain.PortfolioPoint
			if err := json.Unmarshal([]byte(raw), &p); err != nil {
				return nil, err
			}
			if n := len(b.points); n == 0 || p.Time.After(b.points[n-1].Time) {
				b.points = append(b.points, p)
			}
		case domain.ErrorCode(err) != domain.ENotFound:
			return nil, err
		}
	}
	raw, err := b.GetValue(ctx, peakKey)
	switch {
	case err == nil:
		if b.peak, err = decimal.NewFromString(raw); err != nil {
			return nil, err
		}
	case domain.ErrorCode(err) != domain.ENotFound:
		return nil, err
	}
	return b, nil
}

func (b *Book) GetValue(ctx context.Context, key string) (string, error) {
	return b.kv.GetValue(ctx, b.prefix+key)
}

func (b *Book) PutValue(ctx context.Context, key, value string) error {
	return b.kv.PutValue(ctx, b.prefix+key, value)
}

// AppendPortfolioPoint keeps p, stores it as the last point and, when it
// is the highest, as the peak.
func (b *Book) AppendPortfolioPoint(ctx context.Context, p domain.PortfolioPoint) error {
	raw, err := json.Marshal(p)
	if err != nil {
		return err
	}
	if err := b.PutValue(ctx, lastKey, string(raw)); err != nil {
		return err
	}
	b.mu.Lock()
	higher := p.Value.GreaterThan(b.peak)
	var prev *domain.PortfolioPoint
	if n := len(b.points); n > 0 && b.points[n-1].Time.Before(p.Time.UTC().Truncate(24*time.Hour)) {
		prev = &b.points[n-1] // a new UTC day: the last point before it is the day's start value
	}
	b.mu.Unlock()
	if prev != nil {
		raw, err := json.Marshal(*prev)
		if err != nil {
			return err
		}
		if err := b.PutValue(ctx, dayOpenKey, string(raw)); err != nil {
			return err
		}
	}
	if higher {
		if err := b.PutValue(ctx, peakKey, p.Value.String()); err != nil {
			return err
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.points = append(b.points, p)
	if higher {
		b.peak = p.Value
	}
	cut := 0
	for cut < len(b.points)-1 && p.Time.Sub(b.points[cut+1].Time) > keep {
		cut++ // the last point older than keep stays: a day's start may read it
	}
	b.points = b.points[cut:]
	return nil
}

func (b *Book) PortfolioPoints(_ context.Context, since, until time.Time, limit int) ([]domain.PortfolioPoint, error) {
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

func (b *Book) PortfolioPointAt(_ context.Context, t time.Time) (domain.PortfolioPoint, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := len(b.points) - 1; i >= 0; i-- {
		if !b.points[i].Time.After(t) {
			return b.points[i], nil
		}
	}
	return domain.PortfolioPoint{}, domain.Errorf(domain.ENotFound, "No portfolio value recorded by then")
}

func (b *Book) PeakPortfolioValue(context.Context) (decimal.Decimal, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.peak, nil
}

// ThinPortfolioPoints has nothing to do: the book keeps two days.
func (b *Book) ThinPortfolioPoints(context.Context, time.Time, time.Duration) (int64, error) {
	return 0, nil
}
