package sqlite

import (
	"context"
	"database/sql"

	"kestrel/domain"
	"kestrel/store/sqlcore"
)

// SaveShadowDecisions implements domain.StrategyStore.
func (s *Store) SaveShadowDecisions(ctx context.Context, ds []domain.ShadowDecision) error {
	if len(ds) == 0 {
		return nil
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		st, err := tx.PrepareContext(ctx, `INSERT INTO shadow_decisions (`+sqlcore.ShadowCols+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer st.Close()
		for _, d := range ds {
			args, err := sqlcore.ShadowArgs(dialect{}, d)
			if err != nil {
				return err
			}
			_, err = st.ExecContext(ctx, args...)
			if err != nil && (dialect{}).Unique(err) {
				return domain.Errorf(domain.EConflict, "Shadow decision %s is already stored", d.ID)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}
