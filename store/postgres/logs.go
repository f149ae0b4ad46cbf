package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"kestrel/domain"
)

var _ domain.LogStore = (*Store)(nil)

// AppendLogs implements domain.LogStore.
func (s *Store) AppendLogs(ctx context.Context, entries []domain.LogEntry) error {
	return s.tx(ctx, func(tx pgx.Tx) error {
		for _, e := range entries {
			attrs := e.Attrs
			if attrs == nil {
				attrs = map[string]string{}
			}
			if _, err := tx.Exec(ctx, `INSERT INTO log_entries (time, level, component, message, attrs) VALUES ($1, $2, $3, $4, $5)`,
				e.Time, e.Level, e.Component, e.Message, attrs); err != nil {
				return err
			}
		}
		return nil
	})
}

// ListLogs implements domain.LogStore.
func (s *Store) ListLogs(ctx context.Context, f domain.LogFilter) ([]domain.LogEntry, error) {
	var before *time.Time
	if !f.Before.IsZero() {
		before = &f.Before
	}
	levels := f.Levels
	if levels == nil {
		levels = []string{}
	}
	rows, err := s.db.Query(ctx, `SELECT id, time, level, component, message, attrs FROM log_entries
		WHERE (cardinality($1::text[]) = 0 OR level = ANY($1)) AND ($2 = '' OR component = $2) AND ($3::timestamptz IS NULL OR time < $3)
		ORDER BY time DESC, id DESC LIMIT $4`, levels, f.Component, before, f.Limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.LogEntry{}
	for rows.Next() {
		var e domain.LogEntry
		if err := rows.Scan(&e.ID, &e.Time, &e.Level, &e.Component, &e.Message, &e.Attrs); err != nil {
			return nil, err
		}
		e.Time = e.Time.UTC()
		out = append(out, e)
	}
	return out, rows.Err()
}

// PruneLogs implements domain.LogStore.
func (s *Store) PruneLogs(ctx context.Context, before time.Time) (int64, error) {
	tag, err := s.db.Exec(ctx, `DELETE FROM log_entries WHERE time < $1`, before)
	return tag.RowsAffected(), err
}
