package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"kestrel/domain"
)

var _ domain.NotifyStore = (*Store)(nil)

const notifyChannelColumns = `id, owner, kind, name, url, secret, enabled, created_at, address`

func scanNotifyChannel(r scanner) (domain.NotifyChannel, error) {
	var c domain.NotifyChannel
	var enabled int
	var created int64
	err := r.Scan(&c.ID, &c.Owner, &c.Kind, &c.Name, &c.URL, &c.Secret, &enabled, &created, &c.Address)
	c.Enabled, c.CreatedAt = enabled != 0, fromMS(created)
	return c, err
}

// CreateNotifyChannel implements domain.NotifyStore.
func (s *Store) CreateNotifyChannel(ctx context.Context, c domain.NotifyChannel) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO notify_channels (`+notifyChannelColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.ID, c.Owner, c.Kind, c.Name, c.URL, c.Secret, boolInt(c.Enabled), ms(c.CreatedAt), c.Address)
	return unavailable(err)
}

// NotifyChannel implements domain.NotifyStore.
func (s *Store) NotifyChannel(ctx context.Context, id string) (domain.NotifyChannel, error) {
	c, err := scanNotifyChannel(s.r.QueryRowContext(ctx, `SELECT `+notifyChannelColumns+` FROM notify_channels WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return c, domain.Errorf(domain.ENotFound, "Notification channel not found")
	}
	return c, err
}

// NotifyChannels implements domain.NotifyStore.
func (s *Store) NotifyChannels(ctx context.Context, owner string) ([]domain.NotifyChannel, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+notifyChannelColumns+` FROM notify_channels WHERE (? = '' OR owner = ?) ORDER BY created_at, id`, owner, owner)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.NotifyChannel{}
	for rows.Next() {
		c, err := scanNotifyChannel(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// UpdateNotifyChannel implements domain.NotifyStore.
func (s *Store) UpdateNotifyChannel(ctx context.Context, c domain.NotifyChannel) error {
	res, err := s.w.ExecContext(ctx, `UPDATE notify_channels SET name = ?, url = ?, secret = ?, enabled = ?, address = ? WHERE id = ?`,
		c.Name, c.URL, c.Secret, boolInt(c.Enabled), c.Address, c.ID)
	if err != nil {
		return unavailable(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return domain.Errorf(domain.ENotFound, "Notification channel not found")
	}
	return nil
}

// DeleteNotifyChannel implements domain.NotifyStore.
func (s *Store) DeleteNotifyChannel(ctx context.Context, id string, at time.Time) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM notify_channels WHERE id = ?`, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return domain.Errorf(domain.ENotFound, "Notification channel not found")
		}
		_, err = tx.ExecContext(ctx, `UPDATE notify_outbox SET status = ?, last_error = ?, next_at = ? WHERE channel_id = ? AND status = ?`,
			domain.NotifyFailed, "channel deleted", ms(at), id, domain.NotifyPending)
		return err
	})
}

// NotifyRouting implements domain.NotifyStore.
func (s *Store) NotifyRouting(ctx context.Context, owner string) (domain.NotifyRouting, bool, error) {
	var body string
	err := s.r.QueryRowContext(ctx, `SELECT body FROM notify_routing WHERE owner = ?`, owner).Scan(&body)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.NotifyRouting{Owner: owner}, false, nil
	}
	if err != nil {
		return domain.NotifyRouting{}, false, err
	}
	r := domain.NotifyRouting{}
	err = json.Unmarshal([]byte(body), &r)
	r.Owner = owner
	return r, err == nil, err
}

// NotifyRoutings implements domain.NotifyStore.
func (s *Store) NotifyRoutings(ctx context.Context) ([]domain.NotifyRouting, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT owner, body FROM notify_routing ORDER BY owner`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.NotifyRouting{}
	for rows.Next() {
		var owner, body string
		if err := rows.Scan(&owner, &body); err != nil {
			return nil, err
		}
		r := domain.NotifyRouting{}
		if err := json.Unmarshal([]byte(body), &r); err != nil {
			return nil, err
		}
		r.Owner = owner
		out = append(out, r)
	}
	return out, rows.Err()
}

// PutNotifyRouting implements domain.NotifyStore.
func (s *Store) PutNotifyRouting(ctx context.Context, r domain.NotifyRouting) error {
	body, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = s.w.ExecContext(ctx, `INSERT INTO notify_routing (owner, body) VALUES (?, ?) ON CONFLICT (owner) DO UPDATE SET body = excluded.body`, r.Owner, string(body))
	return unavailable(err)
}

// EnqueueNotify implements domain.NotifyStore.
func (s *Store) EnqueueNotify(ctx context.Context, d domain.NotifyDelivery) (bool, error) {
	inserted := false
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		inserted, err = enqueueNotifyTx(ctx, tx, d)
		return err
	})
	return inserted, err
}

// enqueueNotifyTx writes d in tx, folding it into a burst's pending row
// when its AggregateKey matches one (inserted false).
func enqueueNotifyTx(ctx context.Context, tx *sql.Tx, d domain.NotifyDelivery) (bool, error) {
	if d.AggregateKey != "" {
		res, err := tx.ExecContext(ctx, `UPDATE notify_outbox SET count = count + 1 WHERE channel_id = ? AND aggregate_key = ? AND status = ? AND attempts = 0 AND next_at > ?`,
			d.ChannelID, d.AggregateKey, domain.NotifyPending, ms(d.CreatedAt))
		if err != nil {
			return false, err
		}
		if n, _ := res.RowsAffected(); n > 0 {
			return false, nil
		}
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO notify_outbox (id, owner, channel_id, type, severity, order_id, payload, count, aggregate_key, status, created_at, next_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, d.ID, d.Owner, d.ChannelID, d.Type, d.Severity, d.OrderID, string(d.Payload), max(d.Count, 1), d.AggregateKey,
		domain.NotifyPending, ms(d.CreatedAt), ms(d.NextAt))
	return err == nil, err
}

const insertNotifyEvent = `INSERT INTO notify_events (id, type, severity, owner, order_id, payload, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`

// CommittedNotifyEvents implements domain.NotifyStore.
func (s *Store) CommittedNotifyEvents(ctx context.Context, limit int) ([]domain.NotifyEvent, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, type, severity, owner, order_id, payload, created_at FROM notify_events ORDER BY created_at, id LIMIT ?`, max(limit, 1))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.NotifyEvent{}
	for rows.Next() {
		var e domain.NotifyEvent
		var payload string
		var created int64
		if err := rows.Scan(&e.ID, &e.Type, &e.Severity, &e.Owner, &e.OrderID, &payload, &created); err != nil {
			return nil, err
		}
		e.Payload, e.CreatedAt = json.RawMessage(payload), fromMS(created)
		out = append(out, e)
	}
	return out, rows.Err()
}

// RouteNotifyEvents implements domain.NotifyStore.
func (s *Store) RouteNotifyEvents(ctx context.Context, rs []domain.NotifyRoute) (int, error) {
	routed := 0
	err := s.tx(ctx, func(tx *sql.Tx) error {
		routed = 0
		for _, r := range rs {
			res, err := tx.ExecContext(ctx, `DELETE FROM notify_events WHERE id = ?`, r.EventID)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				continue // routed before: write nothing
			}
			for _, d := range r.Deliveries {
				if _, err := enqueueNotifyTx(ctx, tx, d); err != nil {
					return err
				}
			}
			routed++
		}
		return nil
	})
	return routed, err
}

const notifyDeliveryColumns = `id, owner, channel_id, type, severity, order_id, payload, count, aggregate_key, status, attempts, last_error, created_at, next_at, delivered_at`

func scanNotifyDelivery(r scanner) (domain.NotifyDelivery, error) {
	var d domain.NotifyDelivery
	var payload string
	var created, next int64
	var delivered sql.NullInt64
	err := r.Scan(&d.ID, &d.Owner, &d.ChannelID, &d.Type, &d.Severity, &d.OrderID, &payload, &d.Count, &d.AggregateKey, &d.Status, &d.Attempts,
		&d.LastError, &created, &next, &delivered)
	d.Payload, d.CreatedAt, d.NextAt = json.RawMessage(payload), fromMS(created), fromMS(next)
	if delivered.Valid {
		t := fromMS(delivered.Int64)
		d.DeliveredAt = &t
	}
	return d, err
}

func (s *Store) queryNotify(ctx context.Context, q string, args ...any) ([]domain.NotifyDelivery, error) {
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.NotifyDelivery{}
	for rows.Next() {
		d, err := scanNotifyDelivery(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// DueNotify implements domain.NotifyStore.
func (s *Store) DueNotify(ctx context.Context, now time.Time, limit int) ([]domain.NotifyDelivery, error) {
	return s.queryNotify(ctx, `SELECT `+notifyDeliveryColumns+` FROM notify_outbox WHERE status = ? AND next_at <= ? ORDER BY next_at, created_at, id LIMIT ?`,
		domain.NotifyPending, ms(now), max(limit, 1))
}

// RecordNotifyAttempt implements domain.NotifyStore.
func (s *Store) RecordNotifyAttempt(ctx context.Context, d domain.NotifyDelivery) error {
	var delivered any
	if d.DeliveredAt != nil {
		delivered = ms(*d.DeliveredAt)
	}
	_, err := s.w.ExecContext(ctx, `UPDATE notify_outbox SET status = ?, attempts = ?, last_error = ?, next_at = ?, delivered_at = ? WHERE id = ?`,
		d.Status, d.Attempts, d.LastError, ms(d.NextAt), delivered, d.ID)
	return unavailable(err)
}

// RecordNotifyAttempts implements domain.NotifyStore.
func (s *Store) RecordNotifyAttempts(ctx context.Context, ds []domain.NotifyDelivery) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		for _, d := range ds {
			var delivered any
			if d.DeliveredAt != nil {
				delivered = ms(*d.DeliveredAt)
			}
			if _, err := tx.ExecContext(ctx, `UPDATE notify_outbox SET status = ?, attempts = ?, last_error = ?, next_at = ?, delivered_at = ? WHERE id = ?`,
				d.Status, d.Attempts, d.LastError, ms(d.NextAt), delivered, d.ID); err != nil {
				return err
			}
		}
		return nil
	})
}

// NotifyDeliveries implements domain.NotifyStore.
func (s *Store) NotifyDeliveries(ctx context.Context, owner, status string, limit int) ([]domain.NotifyDelivery, error) {
	if limit <= 0 {
		limit = 100
	}
	return s.queryNotify(ctx, `SELECT `+notifyDeliveryColumns+` FROM notify_outbox WHERE (? = '' OR owner = ?) AND (? = '' OR status = ?)
		ORDER BY created_at DESC, id DESC LIMIT ?`, owner, owner, status, status, limit)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// CommitVenueFills implements domain.NotifyStore.
func (s *Store) CommitVenueFills(ctx context.Context, f domain.VenueFills) (int, error) {
	queued := 0
	err := s.tx(ctx, func(tx *sql.Tx) error {
		queued = 0
		for _, vf := range f.Fills {
			res, err := tx.ExecContext(ctx, `INSERT INTO notify_venue_fills (venue, fill_id, fill_time) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
				f.Venue, vf.ID, ms(vf.Time))
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				continue // queued before
			}
			n := vf.Event
			if _, err := tx.ExecContext(ctx, insertNotifyEvent, n.ID, n.Type, n.Severity, n.Owner, n.OrderID, string(n.Payload), ms(n.CreatedAt)); err != nil {
				return err
			}
			queued++
		}
		if !f.Mark.IsZero() {
			if _, err := tx.ExecContext(ctx, `INSERT INTO notify_venue_marks (venue, mark) VALUES (?, ?)
				ON CONFLICT (venue) DO UPDATE SET mark = max(notify_venue_marks.mark, excluded.mark)`, f.Venue, ms(f.Mark)); err != nil {
				return err
			}
		}
		if !f.Forget.IsZero() {
			if _, err := tx.ExecContext(ctx, `DELETE FROM notify_venue_fills WHERE venue = ? AND fill_time < ?`, f.Venue, ms(f.Forget)); err != nil {
				return err
			}
		}
		return nil
	})
	return queued, err
}

// VenueFillMark implements domain.NotifyStore.
func (s *Store) VenueFillMark(ctx context.Context, venue string) (time.Time, error) {
	var mark int64
	err := s.r.QueryRowContext(ctx, `SELECT mark FROM notify_venue_marks WHERE venue = ?`, venue).Scan(&mark)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, err
	}
	return fromMS(mark), nil
}
