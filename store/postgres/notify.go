package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"kestrel/domain"
)

var _ domain.NotifyStore = (*Store)(nil)

const notifyChannelColumns = `id, owner, kind, name, url, secret, enabled, created_at, address`

func scanNotifyChannel(r interface{ Scan(...any) error }) (domain.NotifyChannel, error) {
	var c domain.NotifyChannel
	err := r.Scan(&c.ID, &c.Owner, &c.Kind, &c.Name, &c.URL, &c.Secret, &c.Enabled, &c.CreatedAt, &c.Address)
	c.CreatedAt = c.CreatedAt.UTC()
	return c, err
}

// CreateNotifyChannel implements domain.NotifyStore.
func (s *Store) CreateNotifyChannel(ctx context.Context, c domain.NotifyChannel) error {
	_, err := s.db.Exec(ctx, `INSERT INTO notify_channels (`+notifyChannelColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		c.ID, c.Owner, c.Kind, c.Name, c.URL, c.Secret, c.Enabled, c.CreatedAt, c.Address)
	return err
}

// NotifyChannel implements domain.NotifyStore.
func (s *Store) NotifyChannel(ctx context.Context, id string) (domain.NotifyChannel, error) {
	c, err := scanNotifyChannel(s.db.QueryRow(ctx, `SELECT `+notifyChannelColumns+` FROM notify_channels WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return c, domain.Errorf(domain.ENotFound, "Notification channel not found")
	}
	return c, err
}

// NotifyChannels implements domain.NotifyStore.
func (s *Store) NotifyChannels(ctx context.Context, owner string) ([]domain.NotifyChannel, error) {
	rows, err := s.db.Query(ctx, `SELECT `+notifyChannelColumns+` FROM notify_channels WHERE ($1 = '' OR owner = $1) ORDER BY created_at, id`, owner)
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
	tag, err := s.db.Exec(ctx, `UPDATE notify_channels SET name = $1, url = $2, secret = $3, enabled = $4, address = $6 WHERE id = $5`,
		c.Name, c.URL, c.Secret, c.Enabled, c.ID, c.Address)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return domain.Errorf(domain.ENotFound, "Notification channel not found")
	}
	return nil
}

// DeleteNotifyChannel implements domain.NotifyStore.
func (s *Store) DeleteNotifyChannel(ctx context.Context, id string, at time.Time) error {
	return s.db.BeginFunc(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM notify_channels WHERE id = $1`, id)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return domain.Errorf(domain.ENotFound, "Notification channel not found")
		}
		_, err = tx.Exec(ctx, `UPDATE notify_outbox SET status = $1, last_error = $2, next_at = $3 WHERE channel_id = $4 AND status = $5`,
			domain.NotifyFailed, "channel deleted", at, id, domain.NotifyPending)
		return err
	})
}

// NotifyRouting implements domain.NotifyStore.
func (s *Store) NotifyRouting(ctx context.Context, owner string) (domain.NotifyRouting, bool, error) {
	var body string
	err := s.db.QueryRow(ctx, `SELECT body::text FROM notify_routing WHERE owner = $1`, owner).Scan(&body)
	if errors.Is(err, pgx.ErrNoRows) {
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
	rows, err := s.db.Query(ctx, `SELECT owner, body::text FROM notify_routing ORDER BY owner`)
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
	_, err = s.db.Exec(ctx, `INSERT INTO notify_routing (owner, body) VALUES ($1, $2) ON CONFLICT (owner) DO UPDATE SET body = excluded.body`, r.Owner, string(body))
	return err
}

// EnqueueNotify implements domain.NotifyStore.
func (s *Store) EnqueueNotify(ctx context.Context, d domain.NotifyDelivery) (bool, error) {
	inserted := false
	err := s.db.BeginFunc(ctx, func(tx pgx.Tx) error {
		var err error
		inserted, err = enqueueNotifyTx(ctx, tx, d)
		return err
	})
	return inserted, err
}

// enqueueNotifyTx writes d in tx, folding it into a burst's pending row
// when its AggregateKey matches one (inserted false).
func enqueueNotifyTx(ctx context.Context, tx pgx.Tx, d domain.NotifyDelivery) (bool, error) {
	if d.AggregateKey != "" {
		tag, err := tx.Exec(ctx, `UPDATE notify_outbox SET count = count + 1 WHERE channel_id = $1 AND aggregate_key = $2 AND status = $3 AND attempts = 0 AND next_at > $4`,
			d.ChannelID, d.AggregateKey, domain.NotifyPending, d.CreatedAt)
		if err != nil {
			return false, err
		}
		if tag.RowsAffected() > 0 {
			return false, nil
		}
	}
	_, err := tx.Exec(ctx, `INSERT INTO notify_outbox (id, owner, channel_id, type, severity, order_id, payload, count, aggregate_key, status, created_at, next_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`, d.ID, d.Owner, d.ChannelID, d.Type, d.Severity, d.OrderID, string(d.Payload), max(d.Count, 1),
		d.AggregateKey, domain.NotifyPending, d.CreatedAt, d.NextAt)
	return err == nil, err
}

const insertNotifyEvent = `INSERT INTO notify_events (id, type, severity, owner, order_id, payload, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`

// CommittedNotifyEvents implements domain.NotifyStore.
func (s *Store) CommittedNotifyEvents(ctx context.Context, limit int) ([]domain.NotifyEvent, error) {
	rows, err := s.db.Query(ctx, `SELECT id, type, severity, owner, order_id, payload::text, created_at FROM notify_events ORDER BY created_at, id LIMIT $1`, max(limit, 1))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.NotifyEvent{}
	for rows.Next() {
		var e domain.NotifyEvent
		var payload string
		if err := rows.Scan(&e.ID, &e.Type, &e.Severity, &e.Owner, &e.OrderID, &payload, &e.CreatedAt); err != nil {
			return nil, err
		}
		e.Payload, e.CreatedAt = json.RawMessage(payload), e.CreatedAt.UTC()
		out = append(out, e)
	}
	return out, rows.Err()
}

// RouteNotifyEvents implements domain.NotifyStore.
func (s *Store) RouteNotifyEvents(ctx context.Context, rs []domain.NotifyRoute) (int, error) {
	routed := 0
	err := s.db.BeginFunc(ctx, func(tx pgx.Tx) error {
		routed = 0
		for _, r := range rs {
			tag, err := tx.Exec(ctx, `DELETE FROM notify_events WHERE id = $1`, r.EventID)
			if err != nil {
				return err
			}
			if tag.RowsAffected() == 0 {
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

const notifyDeliveryColumns = `id, owner, channel_id, type, severity, order_id, payload::text, count, aggregate_key, status, attempts, last_error, created_at, next_at, delivered_at`

func scanNotifyDelivery(r interface{ Scan(...any) error }) (domain.NotifyDelivery, error) {
	var d domain.NotifyDelivery
	var payload string
	err := r.Scan(&d.ID, &d.Owner, &d.ChannelID, &d.Type, &d.Severity, &d.OrderID, &payload, &d.Count, &d.AggregateKey, &d.Status, &d.Attempts,
		&d.LastError, &d.CreatedAt, &d.NextAt, &d.DeliveredAt)
	d.Payload, d.CreatedAt, d.NextAt = json.RawMessage(payload), d.CreatedAt.UTC(), d.NextAt.UTC()
	if d.DeliveredAt != nil {
		t := d.DeliveredAt.UTC()
		d.DeliveredAt = &t
	}
	return d, err
}

func (s *Store) queryNotify(ctx context.Context, q string, args ...any) ([]domain.NotifyDelivery, error) {
	rows, err := s.db.Query(ctx, q, args...)
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
	return s.queryNotify(ctx, `SELECT `+notifyDeliveryColumns+` FROM notify_outbox WHERE status = $1 AND next_at <= $2 ORDER BY next_at, created_at, id LIMIT $3`,
		domain.NotifyPending, now, max(limit, 1))
}

// RecordNotifyAttempt implements domain.NotifyStore.
func (s *Store) RecordNotifyAttempt(ctx context.Context, d domain.NotifyDelivery) error {
	_, err := s.db.Exec(ctx, `UPDATE notify_outbox SET status = $1, attempts = $2, last_error = $3, next_at = $4, delivered_at = $5 WHERE id = $6`,
		d.Status, d.Attempts, d.LastError, d.NextAt, d.DeliveredAt, d.ID)
	return err
}

// RecordNotifyAttempts implements domain.NotifyStore.
func (s *Store) RecordNotifyAttempts(ctx context.Context, ds []domain.NotifyDelivery) error {
	b := &pgx.Batch{}
	for _, d := range ds {
		b.Queue(`UPDATE notify_outbox SET status = $1, attempts = $2, last_error = $3, next_at = $4, delivered_at = $5 WHERE id = $6`,
			d.Status, d.Attempts, d.LastError, d.NextAt, d.DeliveredAt, d.ID)
	}
	return s.db.BeginFunc(ctx, func(tx pgx.Tx) error { return tx.SendBatch(ctx, b).Close() })
}

// NotifyDeliveries implements domain.NotifyStore.
func (s *Store) NotifyDeliveries(ctx context.Context, owner, status string, limit int) ([]domain.NotifyDelivery, error) {
	if limit <= 0 {
		limit = 100
	}
	return s.queryNotify(ctx, `SELECT `+notifyDeliveryColumns+` FROM notify_outbox WHERE ($1 = '' OR owner = $1) AND ($2 = '' OR status = $2)
		ORDER BY created_at DESC, id DESC LIMIT $3`, owner, status, limit)
}

// CommitVenueFills implements domain.NotifyStore. Two instances committing
// one fill at once: the second's insert waits for the first's and then
// writes nothing.
func (s *Store) CommitVenueFills(ctx context.Context, f domain.VenueFills) (int, error) {
	queued := 0
	err := s.db.BeginFunc(ctx, func(tx pgx.Tx) error {
		queued = 0
		for _, vf := range f.Fills {
			tag, err := tx.Exec(ctx, `INSERT INTO notify_venue_fills (venue, fill_id, fill_time) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
				f.Venue, vf.ID, vf.Time)
			if err != nil {
				return err
			}
			if tag.RowsAffected() == 0 {
				continue // queued before
			}
			n := vf.Event
			if _, err := tx.Exec(ctx, insertNotifyEvent, n.ID, n.Type, n.Severity, n.Owner, n.OrderID, string(n.Payload), n.CreatedAt); err != nil {
				return err
			}
			queued++
		}
		if !f.Mark.IsZero() {
			if _, err := tx.Exec(ctx, `INSERT INTO notify_venue_marks (venue, mark) VALUES ($1, $2)
				ON CONFLICT (venue) DO UPDATE SET mark = GREATEST(notify_venue_marks.mark, excluded.mark)`, f.Venue, f.Mark); err != nil {
				return err
			}
		}
		if !f.Forget.IsZero() {
			if _, err := tx.Exec(ctx, `DELETE FROM notify_venue_fills WHERE venue = $1 AND fill_time < $2`, f.Venue, f.Forget); err != nil {
				return err
			}
		}
		return nil
	})
	return queued, err
}

// VenueFillMark implements domain.NotifyStore.
func (s *Store) VenueFillMark(ctx context.Context, venue string) (time.Time, error) {
	var mark time.Time
	err := s.db.QueryRow(ctx, `SELECT mark FROM notify_venue_marks WHERE venue = $1`, venue).Scan(&mark)
	if errors.Is(err, pgx.ErrNoRows) {
		return time.Time{}, nil
	}
	return mark.UTC(), err
}
