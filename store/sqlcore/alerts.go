package sqlcore

import (
	"context"
	"time"

	"kestrel/domain"
)

const alertCols = `id, key, severity, title, message, component, count, created_at, last_seen, resolved, resolved_at, resolved_by`

// viewedCols are alertCols and whether the viewer ($1) dismissed the alert
// since it last happened.
const viewedCols = alertCols + `, COALESCE((SELECT d.dismissed_at >= alerts.last_seen FROM alert_dismissals d
	WHERE d.alert_id = alerts.id AND d.user_id = $1), false)`

// InsertNotifyEvent queues a notification in the transaction of the change
// it tells of.
const InsertNotifyEvent = `INSERT INTO notify_events (id, type, severity, owner, order_id, payload, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`

// scanAlert reads alertCols, then extra (viewedCols' dismissed flag).
func (c *Core) scanAlert(row Row, extra ...any) (domain.Alert, error) {
	var a domain.Alert
	err := row.Scan(append([]any{&a.ID, &a.Key, &a.Severity, &a.Title, &a.Message, &a.Component, &a.Count,
		c.d.TimeDest(&a.CreatedAt), c.d.TimeDest(&a.LastSeen), &a.Resolved, c.d.NullTimeDest(&a.ResolvedAt), &a.ResolvedBy}, extra...)...)
	if err != nil {
		return a, c.notFound(err, "Alert not found")
	}
	a.CreatedAt, a.LastSeen, a.ResolvedAt = utc(a.CreatedAt), utc(a.LastSeen), utcPtr(a.ResolvedAt)
	return a, nil
}

// insertNotify queues n in tx.
func (c *Core) insertNotify(ctx context.Context, tx Querier, n domain.NotifyEvent) error {
	_, err := tx.Exec(ctx, InsertNotifyEvent, n.ID, n.Type, n.Severity, n.Owner, n.OrderID, string(n.Payload), c.d.Time(n.CreatedAt))
	return err
}

// UpsertAlert implements domain.AlertStore.
func (c *Core) UpsertAlert(ctx context.Context, a domain.Alert, notify func(domain.Alert) (domain.NotifyEvent, bool)) (domain.Alert, bool, error) {
	var out domain.Alert
	var isNew bool
	err := c.w.Tx(ctx, func(tx Querier) error {
		n, err := tx.Exec(ctx, `UPDATE alerts SET severity = $1, title = $2, message = $3, count = count + 1, last_seen = $4
			WHERE key = $5 AND NOT resolved`, a.Severity, a.Title, a.Message, c.d.Time(a.LastSeen), a.Key)
		if err != nil {
			return err
		}
		if n == 0 {
			isNew = true
			if _, err := tx.Exec(ctx, `INSERT INTO alerts (key, severity, title, message, component, count, created_at, last_seen)
				VALUES ($1, $2, $3, $4, $5, 1, $6, $7)`, a.Key, a.Severity, a.Title, a.Message, a.Component, c.d.Time(a.CreatedAt), c.d.Time(a.LastSeen)); err != nil {
				return err
			}
		}
		out, err = c.scanAlert(tx.QueryRow(ctx, `SELECT `+alertCols+` FROM alerts WHERE key = $1 AND NOT resolved`, a.Key))
		if err != nil || notify == nil {
			return err
		}
		if n, ok := notify(out); ok {
			err = c.insertNotify(ctx, tx, n)
		}
		return err
	})
	return out, isNew, err
}

// ListAlerts implements domain.AlertStore.
func (c *Core) ListAlerts(ctx context.Context, f domain.AlertFilter) ([]domain.Alert, error) {
	q := `SELECT ` + viewedCols + ` FROM alerts WHERE true`
	a := args{f.Viewer}
	if f.Severity != "" {
		q += ` AND severity = ` + a.add(f.Severity)
	}
	if f.Resolved != nil {
		q += ` AND resolved = ` + a.add(*f.Resolved)
	}
	q += ` ORDER BY last_seen DESC, id DESC LIMIT ` + a.add(f.Limit)
	rows, err := c.r.Query(ctx, q, a...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.Alert{}
	for rows.Next() {
		var dismissed bool
		a, err := c.scanAlert(rows, &dismissed)
		if err != nil {
			return nil, err
		}
		a.Dismissed = dismissed
		out = append(out, a)
	}
	return out, rows.Err()
}

// ResolveAlert implements domain.AlertStore.
func (c *Core) ResolveAlert(ctx context.Context, id int64, by string, at time.Time) (domain.Alert, error) {
	n, err := c.w.Exec(ctx, `UPDATE alerts SET resolved = true, resolved_at = $1, resolved_by = $2 WHERE id = $3 AND NOT resolved`, c.d.Time(at), by, id)
	if err != nil {
		return domain.Alert{}, err
	}
	a, err := c.scanAlert(c.w.QueryRow(ctx, `SELECT `+alertCols+` FROM alerts WHERE id = $1`, id))
	if err != nil {
		return a, err
	}
	if n == 0 && !a.Resolved {
		return a, domain.Errorf(domain.EConflict, "Alert could not be resolved")
	}
	return a, nil
}

// DismissAlert implements domain.AlertStore. The dismissal covers the
// alert up to its last occurrence even when this instance's clock is behind
// the one that raised it.
func (c *Core) DismissAlert(ctx context.Context, id int64, userID string, at time.Time) (domain.Alert, error) {
	var out domain.Alert
	max := c.d.Greatest()
	err := c.w.Tx(ctx, func(tx Querier) error {
		err := execOneOn(ctx, tx, "Alert not found", `INSERT INTO alert_dismissals (alert_id, user_id, dismissed_at)
			SELECT id, $1, `+max+`($2, last_seen) FROM alerts WHERE id = $3
			ON CONFLICT (alert_id, user_id) DO UPDATE SET dismissed_at = `+max+`(alert_dismissals.dismissed_at, excluded.dismissed_at)`, userID, c.d.Time(at), id)
		if err != nil {
			return err
		}
		var dismissed bool
		out, err = c.scanAlert(tx.QueryRow(ctx, `SELECT `+viewedCols+` FROM alerts WHERE id = $2`, userID, id), &dismissed)
		out.Dismissed = dismissed
		return err
	})
	return out, err
}

// PruneAlerts implements domain.AlertStore.
func (c *Core) PruneAlerts(ctx context.Context, before time.Time) (int64, error) {
	return c.w.Exec(ctx, `DELETE FROM alerts WHERE resolved AND last_seen < $1`, c.d.Time(before))
}
