package trading

import (
	"context"
	"log/slog"
	"time"
)

// RecordEvery appends the portfolio value now and then every interval until
// ctx ends; the history behind the Portfolio chart and the daily P&L.
// A failed round is logged and retried on the next one.
func (s *Service) RecordEvery(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if err := s.RecordPortfolio(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("record portfolio value", "err", err, "component", "trading")
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
