package httpapi

import (
	"context"

	"kestrel/domain"
)

// Store is what the API reads and writes itself, beside the services it
// calls: the audit log, users, stored backtests and their quota, sweep
// trials, AI decisions and the paper ledgers. Each group names the handlers
// that use it; the whole store stays with the application (app wires it).
type Store interface {
	// The audit log: withAudit appends, GET /api/audit lists.
	AppendAudit(ctx context.Context, e domain.AuditEntry) error
	ListAudit(ctx context.Context, limit int) ([]domain.AuditEntry, error)
	// Users: the operator's user list; an API token's user.
	ListUsers(ctx context.Context) ([]domain.User, error)
	UserByID(ctx context.Context, id string) (domain.User, error)
	// Stored backtest reports and the backtest quota.
	Backtest(ctx context.Context, id string) (domain.BacktestRecord, error)
	DeleteBacktest(ctx context.Context, id string) error
	CountBacktests(ctx context.Context, owner, source string) (int, error)
	CountActiveJobs(ctx context.Context, kind, owner string) (int, error)
	// A sweep's finished trials.
	SweepTrials(ctx context.Context, sweepID string) ([]domain.SweepTrial, error)
	// Recorded strategy decisions (the AI views and history).
	Evaluations(ctx context.Context, f domain.EvaluationFilter) ([]domain.Evaluation, error)
	// A promoted version's paper account's books.
	LedgerFor(account string) domain.LedgerStore
	// Ping is the health check's database probe (a store that keeps its
	// write health also implements domain.WriteHealth).
	Ping(ctx context.Context) error
}
