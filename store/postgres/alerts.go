package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"kestrel/domain"
)

var _ domain.AlertStore = (*Store)(nil)

const alertCols = `id, key, severity, title, message, component, count, created_at, last_seen, resolved, resolved_at, resolved_by`

// viewedCols are alertCols and whether the viewer ($1) dismissed the alert
// since it last happened.
const viewedCols = alertCols + `, COALESCE((SELECT d.dismissed_at >= alerts.last_seen FROM alert_dismissals d
	WHERE d.alert_id = alerts.id AND d.user_id = $1), false)`

// scanAlert reads alertCols, then extra (viewedCols' dismissed flag).
func scanAlert(row pgRow, extra ...any) (domain.Alert, error) {
	var a domain.Alert
	err := row.Scan(append([]any{&a.ID, &a.Key, &a.Severity, &a.Title, &a.Message, &a.Component, &a.Count, &a.CreatedAt, &a.LastSeen, &a.Resolved, &a.ResolvedAt, &a.ResolvedBy}, extra...)...)
	if err != nil {
		return a, notFound(err, "Alert not found")
	}
	a.CreatedAt, a.LastSeen = a.CreatedAt.UTC(), a.LastSeen.UTC()
	if a.ResolvedAt != nil {
		t := a.ResolvedAt.UTC()
		a.ResolvedAt = &t
	}
	return a, nil
}

// UpsertAlert implements domain.AlertStore.
func (s *Store) UpsertAlert(ctx context.Context, a domain.Alert, notify func(domain.Alert) (domain.NotifyEvent, bool)) (domain.Alert, bool, error) {
	var out domain.Alert
	var isNew bool
	err := s.tx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE alerts SET severity = $1, title = $2, message = $3, count = count + 1, last_seen = $4
			WHERE key = $5 AND NOT resolved`, a.Severity, a.Title, a.Message, a.LastSeen, a.Key)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			isNew = true
			if _, err := tx.Exec(ctx, `INSERT INTO alerts (key, severity, title, message, component, count, created_at, last_seen)
				VALUES ($1, $2, $3, $4, $5, 1, $6, $7)`, a.Key, a.Severity, a.Title, a.Message, a.Component, a.CreatedAt, a.LastSeen); err != nil {
				return err
			}
		}
		out, err = scanAlert(pgRow{tx.QueryRow(ctx, `SELECT `+alertCols+` FROM alerts WHERE key = $1 AND NOT resolved`, a.Key)})
		if err != nil || notify == nil {
			return err
		}
		if n, ok := notify(out); ok {
			_, err = tx.Exec(ctx, insertNotifyEvent, n.ID, n.Type, n.Severity, n.Owner, n.OrderID, string(n.Payload), n.CreatedAt)
		}
		return err
	})
	return out, isNew, err
}

// ListAlerts implements domain.AlertStore.
func (s *Store) ListAlerts(ctx context.Context, f domain.AlertFilter) ([]domain.Alert, error) {
	rows, err := s.db.Query(ctx, `SELECT `+viewedCols+` FROM alerts
		WHERE ($2 = '' OR severity = $2) AND ($3::boolean IS NULL OR resolved = $3)
		ORDER BY last_seen DESC, id DESC LIMIT $4`, f.Viewer, f.Severity, f.Resolved, f.Limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.Alert{}
	for rows.Next() {
		var dismissed bool
		a, err := scanAlert(rows.row(), &dismissed)
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
	tag, err := s.db.Exec(ctx, `UPDATE alerts SET resolved = true, resolved_at = $1, resolved_by = $2 WHERE id = $3 AND NOT resolved`, at, by, id)
	if err != nil {
		return domain.Alert{}, err
	}
	a, err := scanAlert(s.db.QueryRow(ctx, `SELECT `+alertCols+` FROM alerts WHERE id = $1`, id))
	if err != nil {
		return a, err
	}
	if tag.RowsAffected() == 0 && !a.Resolved {
		return a, domain.Errorf(domain.EConflict, "Alert could not be resolved")
	}
	return a, nil
}

// DismissAlert implements domain.AlertStore. The dismissal covers the
// alert up to its last occurrence even when this instance's clock is behind
// the one that raised it.
func (s *Store) DismissAlert(ctx context.Context, id int64, userID string, at time.Time) (domain.Alert, error) {
	var out domain.Alert
	err := s.tx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO alert_dismissals (alert_id, user_id, dismissed_at)
			SELECT id, $1, GREATEST($2::timestamptz, last_seen) FROM alerts WHERE id = $3
			ON CONFLICT (alert_id, user_id) DO UPDATE SET dismissed_at = GREATEST(alert_dismissals.dismissed_at, excluded.dismissed_at)`, userID, at, id)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return domain.Errorf(domain.ENotFound, "Alert not found")
		}
		var dismissed bool
		out, err = scanAlert(pgRow{tx.QueryRow(ctx, `SELECT `+viewedCols+` FROM alerts WHERE id = $2`, userID, id)}, &dismissed)
		out.Dismissed = dismissed
		return err
	})
	return out, err
}

// PruneAlerts implements domain.AlertStore.
func (s *Store) PruneAlerts(ctx context.Context, before time.Time) (int64, error) {
	tag, err := s.db.Exec(ctx, `DELETE FROM alerts WHERE resolved AND last_seen < $1`, before)
	return tag.RowsAffected(), err
}
