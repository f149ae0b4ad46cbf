package promotion

import (
	"context"
	"sync"

	"kestrel/domain"
)

// Pinned is the strategy store a paper stage's engine runs on: one
// instance, the promoted version's configuration (not the main instance's
// active one, which may change meanwhile), enabled; its evaluations are
// stored in the stage's paper account so each side reads its own. The
// record lives in memory (the stage row is the record); versions are read
// from the main store and never added.
type Pinned struct {
	domain.StrategyStore
	account string
	mu      sync.Mutex
	rec     domain.StrategyRecord
}

// NewPinned pins rec (the instance, its Config the version's
// configuration and ActiveVersion the version) for the paper account.
func NewPinned(main domain.StrategyStore, account string, rec domain.StrategyRecord) *Pinned {
	return &Pinned{StrategyStore: main, account: account, rec: rec}
}

// SaveStrategy keeps the record in memory (enabling or disabling the stage's engine).
func (p *Pinned) SaveStrategy(_ context.Context, r domain.StrategyRecord) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r.Name != p.rec.Name {
		return domain.Errorf(domain.ENotFound, "Strategy not found: %s", r.Name)
	}
	p.rec = r
	return nil
}

// Strategies lists the pinned instance alone.
func (p *Pinned) Strategies(context.Context) ([]domain.StrategyRecord, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return []domain.StrategyRecord{p.rec}, nil
}

// AppendEvaluation stores the evaluation in the paper account.
func (p *Pinned) AppendEvaluation(ctx context.Context, e domain.Evaluation) error {
	e.Account = p.account
	return p.StrategyStore.AppendEvaluation(ctx, e)
}

// Evaluations lists the paper account's evaluations.
func (p *Pinned) Evaluations(ctx context.Context, f domain.EvaluationFilter) ([]domain.Evaluation, error) {
	f.Account = p.account
	return p.StrategyStore.Evaluations(ctx, f)
}

// AddStrategyVersion is refused: a paper stage runs one version.
func (p *Pinned) AddStrategyVersion(context.Context, domain.StrategyVersion) (domain.StrategyVersion, error) {
	return domain.StrategyVersion{}, domain.Errorf(domain.EConflict, "A promoted version's paper stage runs that version only")
}
