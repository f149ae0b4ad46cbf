package app

import (
	"context"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// kvHistorySince is when the current exchange's portfolio history began.
const kvHistorySince = "portfolio.history_since"

// portfolioView is the portfolio history of the exchange in use: switching
// exchanges switches accounts, so the chart, the drawdown peak and the day's
// P&L start again from the switch instead of comparing one account with
// another's past. Older points stay stored (retention prunes them).
type portfolioView struct {
	domain.Store

	mu    sync.Mutex
	since time.Time // zero: all history
	peak  *decimal.Decimal
}

func newPortfolioView(ctx context.Context, st domain.Store) (*portfolioView, error) {
	v := &portfolioView{Store: st}
	raw, err := st.GetValue(ctx, kvHistorySince)
	switch {
	case err == nil:
		if v.since, err = time.Parse(time.RFC3339Nano, raw); err != nil {
			return nil, err
		}
	case domain.ErrorCode(err) != domain.ENotFound:
		return nil, err
	}
	return v, nil
}

// restart begins a new history at t (the exchange changed).
func (v *portfolioView) restart(ctx context.Context, t time.Time) error {
	v.mu.Lock()
	v.since, v.peak = t, nil
	v.mu.Unlock()
	return v.Store.PutValue(ctx, kvHistorySince, t.UTC().Format(time.RFC3339Nano))
}

func (v *portfolioView) start() time.Time {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.since
}

// AppendPortfolioPoint implements domain.PortfolioStore.
func (v *portfolioView) AppendPortfolioPoint(ctx context.Context, p domain.PortfolioPoint) error {
	if err := v.Store.AppendPortfolioPoint(ctx, p); err != nil {
		return err
	}
	v.mu.Lock()
	if v.peak != nil && p.Value.GreaterThan(*v.peak) {
		v.peak = &p.Value
	}
	v.mu.Unlock()
	return nil
}

// PortfolioPoints implements domain.PortfolioStore from the history's start.
func (v *portfolioView) PortfolioPoints(ctx context.Context, since, until time.Time, limit int) ([]domain.PortfolioPoint, error) {
	if s := v.start(); since.Before(s) {
		since = s
	}
	return v.Store.PortfolioPoints(ctx, since, until, limit)
}

// PortfolioPointAt implements domain.PortfolioStore: nothing before the start.
func (v *portfolioView) PortfolioPointAt(ctx context.Context, t time.Time) (domain.PortfolioPoint, error) {
	p, err := v.Store.PortfolioPointAt(ctx, t)
	if err == nil && p.Time.Before(v.start()) {
		return domain.PortfolioPoint{}, domain.Errorf(domain.ENotFound, "No portfolio value recorded at %s for this exchange", t.Format(time.RFC3339))
	}
	return p, err
}

// PeakPortfolioValue implements domain.PortfolioStore: the highest value
// since the start, read once and then kept up to date as points arrive.
func (v *portfolioView) PeakPortfolioValue(ctx context.Context) (decimal.Decimal, error) {
	s := v.start()
	if s.IsZero() {
		return v.Store.PeakPortfolioValue(ctx)
	}
	v.mu.Lock()
	if v.peak != nil {
		p := *v.peak
		v.mu.Unlock()
		return p, nil
	}
	v.mu.Unlock()
	pts, err := v.Store.PortfolioPoints(ctx, s, time.Now().Add(24*time.Hour), 100_000_000)
	if err != nil {
		return decimal.Zero, err
	}
	peak := decimal.Zero
	for _, p := range pts {
		peak = decimal.Max(peak, p.Value)
	}
	v.mu.Lock()
	if v.since.Equal(s) {
		v.peak = &peak
	}
	v.mu.Unlock()
	return peak, nil
}
