package httpapi

import (
	"context"

	"kestrel/domain"
)

// cancelJob cancels a queued or running job of any kind for u: its owner or
// an operator may, and a finished one is a conflict. what names the kind in
// the messages ("backtest", "sweep").
func (s *Server) cancelJob(ctx context.Context, u domain.User, j domain.Job, what string) (domain.Job, error) {
	if j.Owner != u.ID && u.Role != domain.RoleOperator {
		return j, domain.Errorf(domain.EForbidden, "Only its owner or an operator can cancel this %s", what)
	}
	if domain.JobDone(j.Status) {
		return j, domain.Errorf(domain.EConflict, "This %s has already %s", what, j.Status)
	}
	return s.d.Jobs.Cancel(ctx, j.ID, u.Email)
}
