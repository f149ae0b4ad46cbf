// Package promotion moves a strategy version from backtest to paper to
// live (docs/PROMOTION.md): gates checked on the server, each stage kept as
// a record closed once, a paper stage trading in a paper account of its
// own, and one call demoting.
package promotion

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"kestrel/domain"
	"kestrel/settings"
	"kestrel/strategy"
)

// Evidence is what a walk-forward sweep showed out of sample.
type Evidence struct {
	SweepID string
	Version int // the version the sweep was run on
	Folds   int // folds run out of sample
	Trades  int // closed trades over every fold's out-of-sample run
	// Sharpe is the mean of the folds' out-of-sample Sharpe ratios.
	Sharpe float64
}

// Runner runs the paper stages: Start builds a stage's paper venue,
// gateway and engine and runs them; Stop disables its engine at once and
// cancels its resting entry orders (positions and protective orders stay).
type Runner interface {
	Start(ctx context.Context, p domain.Promotion) error
	Stop(ctx context.Context, p domain.Promotion) error
	// ClosePositions sells what an ended paper stage's account holds, at
	// market, and returns the orders.
	ClosePositions(ctx context.Context, p domain.Promotion) ([]domain.Order, error)
}

// Strategies is the main strategy engine as promotion uses it.
type Strategies interface {
	VersionOf(ctx context.Context, name string, version int) (strategy.Version, error)
	Activate(ctx context.Context, name string, version int) (strategy.Config, error)
	SetEnabled(ctx context.Context, name string, on bool) (strategy.Config, error)
}

// Store is what promotion keeps and reads.
type Store interface {
	domain.PromotionStore
	domain.LedgerAccounts
}

// Deps wires the service.
type Deps struct {
	Store      Store
	Strategies Strategies
	Settings   func() settings.Promotion
	// Evidence finds the newest finished walk-forward sweep of the
	// strategy run on one of versions; ok false when there is none.
	Evidence func(ctx context.Context, strategy string, versions []int) (e Evidence, ok bool, err error)
	Runner   Runner
	Clock    domain.Clock
	// Market says what the paper venue trades on now: replay or coinbase
	// (recorded with each paper stage).
	Market func() string
	// Drift makes a paper stage's drift report (nil: not available).
	Drift func(ctx context.Context, p domain.Promotion) (DriftReport, error)
}

// Service promotes and demotes strategy versions.
type Service struct {
	d  Deps
	mu sync.Mutex // one promotion change at a time
}

// New returns the service.
func New(d Deps) *Service { return &Service{d: d} }

// GateError is a promotion refused by its gates: each gate with the
// figure it required and the one seen.
type GateError struct {
	Stage string
	Gates []domain.Gate
}

func (e *GateError) Error() string {
	var failed []string
	for _, g := range e.Gates {
		if !g.Passed {
			failed = append(failed, g.Detail)
		}
	}
	return fmt.Sprintf("The version does not pass the gates to %s: %s", e.Stage, strings.Join(failed, "; "))
}

func passed(gs []domain.Gate) bool {
	for _, g := range gs {
		if !g.Passed {
			return false
		}
	}
	return true
}

// List lists a strategy's stages, newest first.
func (s *Service) List(ctx context.Context, name string) ([]domain.Promotion, error) {
	return s.d.Store.Promotions(ctx, name, false)
}

// Get returns one stage of the strategy, or not_found.
func (s *Service) Get(ctx context.Context, name, id string) (domain.Promotion, error) {
	p, err := s.d.Store.Promotion(ctx, id)
	if err == nil && p.Strategy != name {
		return domain.Promotion{}, domain.Errorf(domain.ENotFound, "Promotion not found")
	}
	return p, err
}

// ToPaper promotes a version to paper: its gates pass or a *GateError says
// which did not; then a paper account of its own is funded and its engine
// starts with automation on.
func (s *Service) ToPaper(ctx context.Context, name string, version int, by string) (domain.Promotion, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, err := s.d.Strategies.VersionOf(ctx, name, version)
	if err != nil {
		return domain.Promotion{}, err
	}
	cfg := s.d.Settings()
	gates, err := s.paperGates(ctx, name, v, cfg.Paper)
	if err != nil {
		return domain.Promotion{}, err
	}
	if !passed(gates) {
		return domain.Promotion{}, &GateError{Stage: domain.StagePaper, Gates: gates}
	}
	id := uuid.NewString()
	p := domain.Promotion{ID: id, Strategy: name, Version: version, Stage: domain.StagePaper, Status: domain.PromotionRunning,
		Account: "promotion-" + id, StartingUSD: cfg.PaperStartingUSD, Gates: gates, StartedBy: by, StartedAt: s.d.Clock.Now()}
	if s.d.Market != nil {
		p.Market = s.d.Market()
	}
	if err := s.d.Store.AddPromotion(ctx, p); err != nil {
		return domain.Promotion{}, err
	}
	if err := s.d.Runner.Start(ctx, p); err != nil {
		// Never a stage that says it runs when it does not.
		why := domain.ErrorMessage(err)
		if domain.ErrorCode(err) == domain.EInternal {
			why = err.Error()
		}
		_, _ = s.d.Store.ClosePromotion(context.WithoutCancel(ctx), id, domain.PromotionDemoted, by,
			"The paper stage could not start: "+why, s.d.Clock.Now())
		return domain.Promotion{}, fmt.Errorf("start paper stage: %w", err)
	}
	return p, nil
}

// ToLive promotes a running paper stage to live with an operator's
// approval: the live gates pass (or a *GateError), the paper stage closes
// as promoted, and the main instance runs the version, enabled. A live
// stage of another version of the strategy is closed: one version runs live.
func (s *Service) ToLive(ctx context.Context, name, paperID, approver string) (domain.Promotion, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	paper, err := s.Get(ctx, name, paperID)
	if err != nil {
		return domain.Promotion{}, err
	}
	if paper.Stage != domain.StagePaper || paper.Status != domain.PromotionRunning {
		return domain.Promotion{}, domain.Errorf(domain.EConflict, "Only a running paper stage can go live (this one is a %s stage, %s)", paper.Stage, paper.Status)
	}
	gates, err := s.liveGates(ctx, paper, s.d.Settings().Live)
	if err != nil {
		return domain.Promotion{}, err
	}
	if !passed(gates) {
		return domain.Promotion{}, &GateError{Stage: domain.StageLive, Gates: gates}
	}
	now := s.d.Clock.Now()
	if _, err := s.d.Strategies.Activate(ctx, name, paper.Version); err != nil {
		return domain.Promotion{}, err
	}
	if _, err := s.d.Strategies.SetEnabled(ctx, name, true); err != nil {
		return domain.Promotion{}, err
	}
	running, err := s.d.Store.Promotions(ctx, name, true)
	if err != nil {
		return domain.Promotion{}, err
	}
	for _, r := range running {
		if r.Stage == domain.StageLive {
			if _, err := s.d.Store.ClosePromotion(ctx, r.ID, domain.PromotionDemoted, approver,
				fmt.Sprintf("Replaced by version %d", paper.Version), now); err != nil {
				return domain.Promotion{}, err
			}
		}
	}
	if err := s.d.Runner.Stop(ctx, paper); err != nil {
		return domain.Promotion{}, err
	}
	if _, err := s.d.Store.ClosePromotion(ctx, paper.ID, domain.PromotionPromoted, approver, "Approved for live", now); err != nil {
		return domain.Promotion{}, err
	}
	live := domain.Promotion{ID: uuid.NewString(), Strategy: name, Version: paper.Version, Stage: domain.StageLive, Status: domain.PromotionRunning,
		Gates: gates, StartedBy: approver, ApprovedBy: approver, StartedAt: now, FromStage: paper.ID}
	return live, s.d.Store.AddPromotion(ctx, live)
}

// Demote ends a running stage: a paper stage's engine stops placing orders
// and its resting entry orders are cancelled (its positions stay in its
// paper account); a live stage disables the main instance.
func (s *Service) Demote(ctx context.Context, name, id, by, reason string) (domain.Promotion, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, err := s.Get(ctx, name, id)
	if err != nil {
		return domain.Promotion{}, err
	}
	if p.Status != domain.PromotionRunning {
		return domain.Promotion{}, domain.Errorf(domain.EConflict, "This %s stage has already ended (%s)", p.Stage, p.Status)
	}
	if p.Stage == domain.StagePaper {
		err = s.d.Runner.Stop(ctx, p)
	} else {
		_, err = s.d.Strategies.SetEnabled(ctx, name, false)
	}
	if err != nil {
		return domain.Promotion{}, err
	}
	return s.d.Store.ClosePromotion(ctx, id, domain.PromotionDemoted, by, strings.TrimSpace(reason), s.d.Clock.Now())
}

// ClosePositions sells what an ended paper stage still holds, at market,
// in its own paper account: an explicit action, never part of demoting. A
// running stage is refused (its engine would trade again): demote it first.
func (s *Service) ClosePositions(ctx context.Context, name, id string) ([]domain.Order, domain.Promotion, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, err := s.Get(ctx, name, id)
	if err != nil {
		return nil, p, err
	}
	switch {
	case p.Stage != domain.StagePaper:
		return nil, p, domain.Errorf(domain.EInvalid, "Only a paper stage has a paper account of its own; this is a %s stage", p.Stage)
	case p.Status == domain.PromotionRunning:
		return nil, p, domain.Errorf(domain.EConflict, "The paper stage is running and would trade again: demote it first")
	}
	os, err := s.d.Runner.ClosePositions(ctx, p)
	return os, p, err
}

// Resume starts the running paper stages again (after a restart); a stage
// that cannot start is logged by the caller and left as it is.
func (s *Service) Resume(ctx context.Context) error {
	ps, err := s.d.Store.Promotions(ctx, "", true)
	if err != nil {
		return err
	}
	var errs []string
	for _, p := range ps {
		if p.Stage != domain.StagePaper {
			continue
		}
		if err := s.d.Runner.Start(ctx, p); err != nil {
			errs = append(errs, fmt.Sprintf("%s version %d: %v", p.Strategy, p.Version, err))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("paper stages not resumed: %s", strings.Join(errs, "; "))
	}
	return nil
}

// days is the whole days from a to b.
func days(a, b time.Time) float64 { return float64(int(b.Sub(a) / (24 * time.Hour))) }
