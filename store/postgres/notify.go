package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"kestrel/domain"
	"kestrel/store/sqlcore"
)

var _ domain.NotifyStore = (*Store)(nil)

// RecordNotifyAttempts implements domain.NotifyStore: one batch, one round
// trip, in one transaction.
func (s *Store) RecordNotifyAttempts(ctx context.Context, ds []domain.NotifyDelivery) error {
	b := &pgx.Batch{}
	for _, d := range ds {
		b.Queue(sqlcore.RecordNotifyAttemptSQL, d.Status, d.Attempts, d.LastError, d.NextAt, d.DeliveredAt, d.ID)
	}
	return s.db.BeginFunc(ctx, func(tx pgx.Tx) error { return tx.SendBatch(ctx, b).Close() })
}
