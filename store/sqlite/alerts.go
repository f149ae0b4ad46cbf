package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"kestrel/domain"
)

var _ domain.AlertStore = (*Store)(nil)

const alertCols = `id, key, severity, title, message, component, count, created_at, last_seen, resolved, resolved_at, resolved_by`

// viewedCols are alertCols and whether the viewer (the first argument)
// dismissed the alert since it last happened.
const viewedCols = alertCols + `, COALESCE((SELECT d.dismissed_at >= alerts.last_seen FROM alert_dismissals d
	WHERE d.alert_id = alerts.id AND d.user_id = ?), 0)`

// scanAlert reads alertCols, then extra (viewedCols' dismissed flag).
func scanAlert(row interface{ Scan(...any) error }, extra ...any) (domain.Alert, error) {
	var a domain.Alert
	var created, seen int64
	var resolvedAt sql.NullInt64
	err := row.Scan(append([]any{&a.ID, &a.Key, &a.Severity, &a.Title, &a.Message, &a.Component, &a.Count, &created, &seen, &a.Resolved, &resolvedAt, &a.ResolvedBy}, extra...)...)
	if errors.Is(err, sql.ErrNoRows) {
		return a, domain.Errorf(domain.ENotFound, "Alert not found")
	}
	a.CreatedAt, a.LastSeen = fromMS(created), fromMS(seen)
	if resolvedAt.Valid {
		t := fromMS(resolvedAt.Int64)
		a.ResolvedAt = &t
	}
	return a, err
}

// UpsertAlert implements domain.AlertStore.
func (s *Store) UpsertAlert(ctx context.Context, a domain.Alert, notify func(domain.Alert) (domain.NotifyEvent, bool)) (domain.Alert, bool, error) {
	var out domain.Alert
	var isNew bool
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE alerts SET severity = ?, title = ?, message = ?, count = count + 1, last_seen = ?
			WHERE key = ? AND resolved = 0`, a.Severity, a.Title, a.Message, ms(a.LastSeen), a.Key)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			isNew = true
			if _, err := tx.ExecContext(ctx, `INSERT INTO alerts (key, severity, title, message, component, count, created_at, last_seen)
				VALUES (?, ?, ?, ?, ?, 1, ?, ?)`, a.Key, a.Severity, a.Title, a.Message, a.Component, ms(a.CreatedAt), ms(a.LastSeen)); err != nil {
				return err
			}
		}
		out, err = scanAlert(tx.QueryRowContext(ctx, `SELECT `+alertCols+` FROM alerts WHERE key = ? AND resolved = 0`, a.Key))
		if err != nil || notify == nil {
			return err
		}
		if n, ok := notify(out); ok {
			_, err = tx.ExecContext(ctx, insertNotifyEvent, n.ID, n.Type, n.Severity, n.Owner, n.OrderID, string(n.Payload), ms(n.CreatedAt))
		}
		return err
	})
	return out, isNew, err
}

// ListAlerts implements domain.AlertStore.
func (s *Store) ListAlerts(ctx context.Context, f domain.AlertFilter) ([]domain.Alert, error) {
	q := `SELECT ` + viewedCols + ` FROM alerts WHERE 1 = 1`
	args := []any{f.Viewer}
	if f.Severity != "" {
		q += ` AND severity = ?`
		args = append(args, f.Severity)
	}
	if f.Resolved != nil {
		q += ` AND resolved = ?`
		args = append(args, *f.Resolved)
	}
	q += ` ORDER BY last_seen DESC, id DESC LIMIT ?`
	args = append(args, f.Limit)
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.Alert{}
	for rows.Next() {
		var dismissed bool
		a, err := scanAlert(rows, &dismissed)
		if err != nil {
			return nil, err
		}
		a.Dismissed = dismissed
		out = append(out, a)
	}
	return out, rows.Err()
}

// ResolveAlert implements domain.AlertStore.
func (s *Store) ResolveAlert(ctx context.Context, id int64, by string, at time.Time) (domain.Alert, error) {
	res, err := s.w.ExecContext(ctx, `UPDATE alerts SET resolved = 1, resolved_at = ?, resolved_by = ? WHERE id = ? AND resolved = 0`, ms(at), by, id)
	if err != nil {
		return domain.Alert{}, err
	}
	a, err := scanAlert(s.w.QueryRowContext(ctx, `SELECT `+alertCols+` FROM alerts WHERE id = ?`, id))
	if err != nil {
		return a, err
	}
	if n, _ := res.RowsAffected(); n == 0 && !a.Resolved {
		return a, domain.Errorf(domain.EConflict, "Alert could not be resolved")
	}
	return a, nil
}

// DismissAlert implements domain.AlertStore. The dismissal covers the
// alert up to its last occurrence even when this instance's clock is behind
// the one that raised it.
func (s *Store) DismissAlert(ctx context.Context, id int64, userID string, at time.Time) (domain.Alert, error) {
	var out domain.Alert
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO alert_dismissals (alert_id, user_id, dismissed_at)
			SELECT id, ?, MAX(?, last_seen) FROM alerts WHERE id = ?
			ON CONFLICT (alert_id, user_id) DO UPDATE SET dismissed_at = MAX(dismissed_at, excluded.dismissed_at)`, userID, ms(at), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return domain.Errorf(domain.ENotFound, "Alert not found")
		}
		var dismissed bool
		out, err = scanAlert(tx.QueryRowContext(ctx, `SELECT `+viewedCols+` FROM alerts WHERE id = ?`, userID, id), &dismissed)
		out.Dismissed = dismissed
		return err
	})
	return out, err
}

// PruneAlerts implements domain.AlertStore.
func (s *Store) PruneAlerts(ctx context.Context, before time.Time) (int64, error) {
	res, err := s.w.ExecContext(ctx, `DELETE FROM alerts WHERE resolved = 1 AND last_seen < ?`, ms(before))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
