package sqlcore

import (
	"context"
	"encoding/json"
	"time"

	"kestrel/domain"
)

const notifyChannelCols = `id, owner, kind, name, url, secret, enabled, created_at, address`

func (c *Core) scanNotifyChannel(r Row) (domain.NotifyChannel, error) {
	var ch domain.NotifyChannel
	err := r.Scan(&ch.ID, &ch.Owner, &ch.Kind, &ch.Name, &ch.URL, &ch.Secret, &ch.Enabled, c.d.TimeDest(&ch.CreatedAt), &ch.Address)
	ch.CreatedAt = utc(ch.CreatedAt)
	return ch, err
}

// CreateNotifyChannel implements domain.NotifyStore.
func (c *Core) CreateNotifyChannel(ctx context.Context, ch domain.NotifyChannel) error {
	_, err := c.w.Exec(ctx, `INSERT INTO notify_channels (`+notifyChannelCols+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		ch.ID, ch.Owner, ch.Kind, ch.Name, ch.URL, ch.Secret, ch.Enabled, c.d.Time(ch.CreatedAt), ch.Address)
	return err
}

// NotifyChannel implements domain.NotifyStore.
func (c *Core) NotifyChannel(ctx context.Context, id string) (domain.NotifyChannel, error) {
	ch, err := c.scanNotifyChannel(c.r.QueryRow(ctx, `SELECT `+notifyChannelCols+` FROM notify_channels WHERE id = $1`, id))
	return ch, c.notFound(err, "Notification channel not found")
}

// NotifyChannels implements domain.NotifyStore.
func (c *Core) NotifyChannels(ctx context.Context, owner string) ([]domain.NotifyChannel, error) {
	return queryAll(ctx, c.r, c.scanNotifyChannel,
		`SELECT `+notifyChannelCols+` FROM notify_channels WHERE ($1 = '' OR owner = $1) ORDER BY created_at, id`, owner)
}

// UpdateNotifyChannel implements domain.NotifyStore.
func (c *Core) UpdateNotifyChannel(ctx context.Context, ch domain.NotifyChannel) error {
	return c.execOne(ctx, "Notification channel not found", `UPDATE notify_channels SET name = $1, url = $2, secret = $3, enabled = $4, address = $5 WHERE id = $6`,
		ch.Name, ch.URL, ch.Secret, ch.Enabled, ch.Address, ch.ID)
}

// DeleteNotifyChannel implements domain.NotifyStore: its pending deliveries
// fail in the same transaction.
func (c *Core) DeleteNotifyChannel(ctx context.Context, id string, at time.Time) error {
	return c.w.Tx(ctx, func(tx Querier) error {
		if err := execOneOn(ctx, tx, "Notification channel not found", `DELETE FROM notify_channels WHERE id = $1`, id); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE notify_outbox SET status = $1, last_error = $2, next_at = $3 WHERE channel_id = $4 AND status = $5`,
			domain.NotifyFailed, "channel deleted", c.d.Time(at), id, domain.NotifyPending)
		return err
	})
}

// NotifyRouting implements domain.NotifyStore.
func (c *Core) NotifyRouting(ctx context.Context, owner string) (domain.NotifyRouting, bool, error) {
	var body []byte
	err := c.r.QueryRow(ctx, `SELECT body FROM notify_routing WHERE owner = $1`, owner).Scan(&body)
	if err != nil && c.d.NoRows(err) {
		return domain.NotifyRouting{Owner: owner}, false, nil
	}
	if err != nil {
		return domain.NotifyRouting{}, false, err
	}
	r := domain.NotifyRouting{}
	err = json.Unmarshal(body, &r)
	r.Owner = owner
	return r, err == nil, err
}

// NotifyRoutings implements domain.NotifyStore.
func (c *Core) NotifyRoutings(ctx context.Context) ([]domain.NotifyRouting, error) {
	return queryAll(ctx, c.r, func(row Row) (domain.NotifyRouting, error) {
		var owner string
		var body []byte
		r := domain.NotifyRouting{}
		if err := row.Scan(&owner, &body); err != nil {
			return r, err
		}
		err := json.Unmarshal(body, &r)
		r.Owner = owner
		return r, err
	}, `SELECT owner, body FROM notify_routing ORDER BY owner`)
}

// PutNotifyRouting implements domain.NotifyStore.
func (c *Core) PutNotifyRouting(ctx context.Context, r domain.NotifyRouting) error {
	body, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = c.w.Exec(ctx, `INSERT INTO notify_routing (owner, body) VALUES ($1, $2) ON CONFLICT (owner) DO UPDATE SET body = excluded.body`, r.Owner, string(body))
	return err
}

// EnqueueNotify implements domain.NotifyStore.
func (c *Core) EnqueueNotify(ctx context.Context, d domain.NotifyDelivery) (bool, error) {
	inserted := false
	err := c.w.Tx(ctx, func(tx Querier) error {
		var err error
		inserted, err = c.enqueueNotify(ctx, tx, d)
		return err
	})
	return inserted, err
}

// enqueueNotify writes d in tx, folding it into a burst's pending row
// when its AggregateKey matches one (inserted false).
func (c *Core) enqueueNotify(ctx context.Context, tx Querier, d domain.NotifyDelivery) (bool, error) {
	if d.AggregateKey != "" {
		n, err := tx.Exec(ctx, `UPDATE notify_outbox SET count = count + 1 WHERE channel_id = $1 AND aggregate_key = $2 AND status = $3 AND attempts = 0 AND next_at > $4`,
			d.ChannelID, d.AggregateKey, domain.NotifyPending, c.d.Time(d.CreatedAt))
		if err != nil {
			return false, err
		}
		if n > 0 {
			return false, nil
		}
	}
	_, err := tx.Exec(ctx, `INSERT INTO notify_outbox (id, owner, channel_id, type, severity, order_id, payload, count, aggregate_key, status, created_at, next_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`, d.ID, d.Owner, d.ChannelID, d.Type, d.Severity, d.OrderID, string(d.Payload), max(d.Count, 1),
		d.AggregateKey, domain.NotifyPending, c.d.Time(d.CreatedAt), c.d.Time(d.NextAt))
	return err == nil, err
}

// CommittedNotifyEvents implements domain.NotifyStore.
func (c *Core) CommittedNotifyEvents(ctx context.Context, limit int) ([]domain.NotifyEvent, error) {
	return queryAll(ctx, c.r, func(r Row) (domain.NotifyEvent, error) {
		var e domain.NotifyEvent
		var payload []byte
		err := r.Scan(&e.ID, &e.Type, &e.Severity, &e.Owner, &e.OrderID, &payload, c.d.TimeDest(&e.CreatedAt))
		e.Payload, e.CreatedAt = json.RawMessage(payload), utc(e.CreatedAt)
		return e, err
	}, `SELECT id, type, severity, owner, order_id, payload, created_at FROM notify_events ORDER BY created_at, id LIMIT $1`, max(limit, 1))
}

// RouteNotifyEvents implements domain.NotifyStore: an event is deleted and
// its deliveries queued in one transaction; one routed before writes nothing.
func (c *Core) RouteNotifyEvents(ctx context.Context, rs []domain.NotifyRoute) (int, error) {
	routed := 0
	err := c.w.Tx(ctx, func(tx Querier) error {
		routed = 0
		for _, r := range rs {
			n, err := tx.Exec(ctx, `DELETE FROM notify_events WHERE id = $1`, r.EventID)
			if err != nil {
				return err
			}
			if n == 0 {
				continue
			}
			for _, d := range r.Deliveries {
				if _, err := c.enqueueNotify(ctx, tx, d); err != nil {
					return err
				}
			}
			routed++
		}
		return nil
	})
	return routed, err
}

const notifyDeliveryCols = `id, owner, channel_id, type, severity, order_id, payload, count, aggregate_key, status, attempts, last_error, created_at, next_at, delivered_at`

func (c *Core) scanNotifyDelivery(r Row) (domain.NotifyDelivery, error) {
	var d domain.NotifyDelivery
	var payload []byte
	err := r.Scan(&d.ID, &d.Owner, &d.ChannelID, &d.Type, &d.Severity, &d.OrderID, &payload, &d.Count, &d.AggregateKey, &d.Status, &d.Attempts,
		&d.LastError, c.d.TimeDest(&d.CreatedAt), c.d.TimeDest(&d.NextAt), c.d.NullTimeDest(&d.DeliveredAt))
	d.Payload, d.CreatedAt, d.NextAt, d.DeliveredAt = json.RawMessage(payload), utc(d.CreatedAt), utc(d.NextAt), utcPtr(d.DeliveredAt)
	return d, err
}

// DueNotify implements domain.NotifyStore.
func (c *Core) DueNotify(ctx context.Context, now time.Time, limit int) ([]domain.NotifyDelivery, error) {
	return queryAll(ctx, c.r, c.scanNotifyDelivery, `SELECT `+notifyDeliveryCols+` FROM notify_outbox WHERE status = $1 AND next_at <= $2 ORDER BY next_at, created_at, id LIMIT $3`,
		domain.NotifyPending, c.d.Time(now), max(limit, 1))
}

// RecordNotifyAttemptSQL updates a delivery after an attempt: status,
// attempts, last error, next attempt, delivery time, id.
const RecordNotifyAttemptSQL = `UPDATE notify_outbox SET status = $1, attempts = $2, last_error = $3, next_at = $4, delivered_at = $5 WHERE id = $6`

// notifyAttemptArgs are RecordNotifyAttemptSQL's arguments for d.
func (c *Core) notifyAttemptArgs(d domain.NotifyDelivery) []any {
	return []any{d.Status, d.Attempts, d.LastError, c.d.Time(d.NextAt), c.nullTime(d.DeliveredAt), d.ID}
}

// RecordNotifyAttempt implements domain.NotifyStore.
func (c *Core) RecordNotifyAttempt(ctx context.Context, d domain.NotifyDelivery) error {
	_, err := c.w.Exec(ctx, RecordNotifyAttemptSQL, c.notifyAttemptArgs(d)...)
	return err
}

// RecordNotifyAttempts implements domain.NotifyStore: all or none.
func (c *Core) RecordNotifyAttempts(ctx context.Context, ds []domain.NotifyDelivery) error {
	return c.w.Tx(ctx, func(tx Querier) error {
		for _, d := range ds {
			if _, err := tx.Exec(ctx, RecordNotifyAttemptSQL, c.notifyAttemptArgs(d)...); err != nil {
				return err
			}
		}
		return nil
	})
}

// NotifyDeliveries implements domain.NotifyStore.
func (c *Core) NotifyDeliveries(ctx context.Context, owner, status string, limit int) ([]domain.NotifyDelivery, error) {
	if limit <= 0 {
		limit = 100
	}
	return queryAll(ctx, c.r, c.scanNotifyDelivery, `SELECT `+notifyDeliveryCols+` FROM notify_outbox WHERE ($1 = '' OR owner = $1) AND ($2 = '' OR status = $2)
		ORDER BY created_at DESC, id DESC LIMIT $3`, owner, status, limit)
}

// CommitVenueFills implements domain.NotifyStore. Two instances committing
// one fill at once: the second's insert waits for the first's and then
// writes nothing.
func (c *Core) CommitVenueFills(ctx context.Context, f domain.VenueFills) (int, error) {
	queued := 0
	err := c.w.Tx(ctx, func(tx Querier) error {
		queued = 0
		for _, vf := range f.Fills {
			n, err := tx.Exec(ctx, `INSERT INTO notify_venue_fills (venue, fill_id, fill_time) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
				f.Venue, vf.ID, c.d.Time(vf.Time))
			if err != nil {
				return err
			}
			if n == 0 {
				continue // queued before
			}
			if err := c.insertNotify(ctx, tx, vf.Event); err != nil {
				return err
			}
			queued++
		}
		if !f.Mark.IsZero() {
			if _, err := tx.Exec(ctx, `INSERT INTO notify_venue_marks (venue, mark) VALUES ($1, $2)
				ON CONFLICT (venue) DO UPDATE SET mark = `+c.d.Greatest()+`(notify_venue_marks.mark, excluded.mark)`, f.Venue, c.d.Time(f.Mark)); err != nil {
				return err
			}
		}
		if !f.Forget.IsZero() {
			if _, err := tx.Exec(ctx, `DELETE FROM notify_venue_fills WHERE venue = $1 AND fill_time < $2`, f.Venue, c.d.Time(f.Forget)); err != nil {
				return err
			}
		}
		return nil
	})
	return queued, err
}

// VenueFillMark implements domain.NotifyStore: the zero time when none.
func (c *Core) VenueFillMark(ctx context.Context, venue string) (time.Time, error) {
	var mark time.Time
	err := c.r.QueryRow(ctx, `SELECT mark FROM notify_venue_marks WHERE venue = $1`, venue).Scan(c.d.TimeDest(&mark))
	if err != nil && c.d.NoRows(err) {
		return time.Time{}, nil
	}
	return utc(mark), err
}
