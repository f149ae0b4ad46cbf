package auth

import (
	"context"
	"log/slog"
	"time"
)

// PruneEvery deletes expired sessions now and then every interval until ctx
// ends. Expired sessions are already refused; pruning only keeps the table small.
func (s *Service) PruneEvery(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if n, err := s.PruneSessions(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("prune sessions", "err", err, "component", "auth")
		} else if n > 0 {
			slog.Debug("pruned expired sessions", "count", n, "component", "auth")
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
