package venue

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/risk"
)

// kvRiskStart holds the risk.Start of the venue in use: since when, and on
// which scope (risk.Scope), the portfolio history, the drawdown peak, the
// day's start value and the day's trade count are measured. kvHistorySince
// is where builds before it kept the time alone.
const (
	kvRiskStart    = "risk.start"
	kvHistorySince = "portfolio.history_since"
)

// Store is what the history reads and keeps: the portfolio points and
// the stored risk start.
type Store interface {
	domain.PortfolioStore
	domain.KVStore
}

// History is the portfolio history of the venue in use, the gateway's
// store: switching exchanges switches accounts, so the chart, the drawdown
// peak and the day's P&L start again from the switch instead of comparing
// one account with another's past. Older points stay stored (retention prunes them).
type History struct {
	Store

	mu    sync.Mutex
	since time.Time // zero: all history
	scope risk.Start
	peak  *decimal.Decimal
}

// OpenHistory opens the history from the stored risk start.
func OpenHistory(ctx context.Context, st Store) (*History, error) {
	v := &History{Store: st}
	return v, v.Reload(ctx)
}

// stored reads the risk start as stored (a Start with an empty scope from
// a build that kept the time alone; the zero Start when none).
func stored(ctx context.Context, st domain.KVStore) (risk.Start, error) {
	var s risk.Start
	raw, err := st.GetValue(ctx, kvRiskStart)
	if err == nil {
		return s, json.Unmarshal([]byte(raw), &s)
	}
	if domain.ErrorCode(err) != domain.ENotFound {
		return s, err
	}
	raw, err = st.GetValue(ctx, kvHistorySince)
	switch {
	case err == nil:
		s.Since, err = time.Parse(time.RFC3339Nano, raw)
		return s, err
	case domain.ErrorCode(err) != domain.ENotFound:
		return s, err
	}
	return s, nil
}

// Reload reads the history's start again and forgets the cached peak: the
// leader records the points, so another instance's copy goes stale.
func (v *History) Reload(ctx context.Context) error {
	s, err := stored(ctx, v.Store)
	if err != nil {
		return err
	}
	v.mu.Lock()
	v.since, v.scope, v.peak = s.Since, s, nil
	v.mu.Unlock()
	return nil
}

// Restart begins a new history, and new risk state, for scope at t (the
// venue changed).
func (v *History) Restart(ctx context.Context, s risk.Start) error {
	raw, err := json.Marshal(s)
	if err != nil {
		return err
	}
	v.mu.Lock()
	v.since, v.scope, v.peak = s.Since, s, nil
	v.mu.Unlock()
	return v.Store.PutValue(ctx, kvRiskStart, string(raw))
}

// Adopt makes s the stored start's scope without a restart (a start
// stored before scopes were, whose venue is the one running).
func (v *History) Adopt(ctx context.Context, s risk.Scope, label string) error {
	v.mu.Lock()
	st := v.scope
	v.mu.Unlock()
	st.Scope, st.Label = s, label
	return v.Restart(ctx, st)
}

// Begin makes the stored risk start v's: a start stored before scopes
// were keeps its time (its venue is the one running); one of another venue
// (changed while Kestrel was stopped) starts afresh at now. When it did,
// it returns the new start and the label of the venue the old one measured.
func (v *History) Begin(ctx context.Context, at *Venue, now time.Time) (*risk.Start, string, error) {
	st := v.RiskStart()
	switch {
	case st.Scope.Venue == "":
		return nil, "", v.Adopt(ctx, at.Scope(), at.Label)
	case st.Scope.Key() != at.Scope().Key():
		start := risk.Start{Scope: at.Scope(), Since: now, Label: at.Label}
		if err := v.Restart(ctx, start); err != nil {
			return nil, "", err
		}
		return &start, st.Label, nil
	}
	return nil, "", nil
}

// RiskStart is since when, and on which scope, the risk state is measured.
func (v *History) RiskStart() risk.Start {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.scope
}

func (v *History) start() time.Time {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.since
}

// AppendPortfolioPoint implements domain.PortfolioStore.
func (v *History) AppendPortfolioPoint(ctx context.Context, p domain.PortfolioPoint) error {
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
func (v *History) PortfolioPoints(ctx context.Context, since, until time.Time, limit int) ([]domain.PortfolioPoint, error) {
	if s := v.start(); since.Before(s) {
		since = s
	}
	return v.Store.PortfolioPoints(ctx, since, until, limit)
}

// PortfolioPointAt implements domain.PortfolioStore: nothing before the start.
func (v *History) PortfolioPointAt(ctx context.Context, t time.Time) (domain.PortfolioPoint, error) {
	p, err := v.Store.PortfolioPointAt(ctx, t)
	if err == nil && p.Time.Before(v.start()) {
		return domain.PortfolioPoint{}, domain.Errorf(domain.ENotFound, "No portfolio value recorded at %s for this exchange", t.Format(time.RFC3339))
	}
	return p, err
}

// PeakPortfolioValue implements domain.PortfolioStore: the highest value
// since the start, read once and then kept up to date as points arrive.
func (v *History) PeakPortfolioValue(ctx context.Context) (decimal.Decimal, error) {
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
