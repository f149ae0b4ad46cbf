package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"time"

	"kestrel/domain"
)

var _ domain.LogStore = (*Store)(nil)

// AppendLogs implements domain.LogStore.
func (s *Store) AppendLogs(ctx context.Context, entries []domain.LogEntry) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		for _, e := range entries {
			attrs, _ := json.Marshal(e.Attrs)
			if _, err := tx.ExecContext(ctx, `INSERT INTO log_entries (time, level, component, message, attrs) VALUES (?, ?, ?, ?, ?)`,
				ms(e.Time), e.Level, e.Component, e.Message, string(attrs)); err != nil {
				return err
			}
		}
		return nil
	})
}

// ListLogs implements domain.LogStore.
func (s *Store) ListLogs(ctx context.Context, f domain.LogFilter) ([]domain.LogEntry, error) {
	q := `SELECT id, time, level, component, message, attrs FROM log_entries WHERE 1 = 1`
	var args []any
	if len(f.Levels) > 0 {
		q += ` AND level IN (?` + strings.Repeat(`, ?`, len(f.Levels)-1) + `)`
		for _, l := range f.Levels {
			args = append(args, l)
		}
	}
	if f.Component != "" {
		q += ` AND component = ?`
		args = append(args, f.Component)
	}
	if !f.Before.IsZero() {
		q += ` AND time < ?`
		args = append(args, ms(f.Before))
	}
	q += ` ORDER BY time DESC, id DESC LIMIT ?`
	args = append(args, f.Limit)
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.LogEntry{}
	for rows.Next() {
		var e domain.LogEntry
		var t int64
		var attrs string
		if err := rows.Scan(&e.ID, &t, &e.Level, &e.Component, &e.Message, &attrs); err != nil {
			return nil, err
		}
		e.Time = fromMS(t)
		_ = json.Unmarshal([]byte(attrs), &e.Attrs)
		out = append(out, e)
	}
	return out, rows.Err()
}

// PruneLogs implements domain.LogStore.
func (s *Store) PruneLogs(ctx context.Context, before time.Time) (int64, error) {
	res, err := s.w.ExecContext(ctx, `DELETE FROM log_entries WHERE time < ?`, ms(before))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
