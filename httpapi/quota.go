package httpapi

import (
	"context"
	"errors"
	"fmt"

	"kestrel/backtest"
	"kestrel/domain"
	"kestrel/settings"
)

// writingGETs are the GET routes that store something (the spec's
// synchronous backtest stores its report): audited like every write.
var writingGETs = map[string]bool{"GET /api/strategy/backtest/{name}": true}

// quotas are the per-user limits (settings system.quotas), the defaults
// when no settings service is wired.
func (s *Server) quotas() settings.Quotas {
	if s.d.Settings == nil {
		return settings.Defaults().System.Quotas
	}
	return s.d.Settings.Platform().System.Quotas
}

// roomForWork refuses new long work while the data directory's disk is
// below its free-space threshold (507; Deps.Disk).
func (s *Server) roomForWork(ctx context.Context) error {
	if s.d.Disk == nil {
		return nil
	}
	return s.d.Disk(ctx)
}

// roomForReport refuses a backtest job when its owner's stored reports,
// with the backtests they already have queued or running, reach the limit.
func (s *Server) roomForReport(ctx context.Context, owner string) error {
	limit := s.quotas().StoredBacktests
	if limit <= 0 {
		return nil
	}
	stored, err := s.d.Store.CountBacktests(ctx, owner, domain.BacktestFromJob)
	if err != nil {
		return err
	}
	active, err := s.d.Store.CountActiveJobs(ctx, backtest.JobKind, owner)
	if err != nil {
		return err
	}
	if stored+active < limit {
		return nil
	}
	days := ""
	if d := s.retention().Backtests; d > 0 {
		days = fmt.Sprintf(" (reports are deleted %d days after they ran)", d)
	}
	return domain.Errorf(domain.ETooMany, "You have %d stored backtest reports (%d more queued or running); the limit is %d per user: delete older reports to make room%s",
		stored, active, limit, days)
}

func (s *Server) retention() settings.Retention {
	if s.d.Settings == nil {
		return settings.Defaults().System.Retention
	}
	return s.d.Settings.Platform().System.Retention
}

// quotaError words a job refused by its kind's limit (429): what is the
// kind's name, one and many ("backtest", "backtests").
func quotaError(err error, one, many string) error {
	var q *domain.JobQuotaError
	if !errors.As(err, &q) {
		return err
	}
	what := many
	if q.Active == 1 {
		what = one
	}
	return domain.Errorf(domain.ETooMany, "You have %d %s queued or running; the limit is %d", q.Active, what, q.Limit)
}
