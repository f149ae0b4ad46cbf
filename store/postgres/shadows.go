package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"kestrel/domain"
	"kestrel/store/sqlcore"
)

// SaveShadowDecisions implements domain.StrategyStore: one batch, one
// transaction.
func (s *Store) SaveShadowDecisions(ctx context.Context, ds []domain.ShadowDecision) error {
	if len(ds) == 0 {
		return nil
	}
	b := &pgx.Batch{}
	for _, d := range ds {
		args, err := sqlcore.ShadowArgs(dialect{}, d)
		if err != nil {
			return err
		}
		b.Queue(`INSERT INTO shadow_decisions (`+sqlcore.ShadowCols+`)
			VALUES ($1, $2, $3, $4, $5, $6, $7::numeric, $8, $9, $10, $11, $12, $13, $14, $15, $16::numeric, $17, $18)`, args...)
	}
	err := s.db.SendBatch(ctx, b)
	if err != nil && (dialect{}).Unique(err) {
		return domain.Errorf(domain.EConflict, "A shadow decision is already stored")
	}
	return err
}
