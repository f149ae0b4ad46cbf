package sqlcore

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"kestrel/domain"
)

// AppendLogs implements domain.LogStore.
func (c *Core) AppendLogs(ctx context.Context, entries []domain.LogEntry) error {
	return c.w.Tx(ctx, func(tx Querier) error {
		for _, e := range entries {
			attrs := e.Attrs
			if attrs == nil {
				attrs = map[string]string{}
			}
			js, _ := json.Marshal(attrs)
			if _, err := tx.Exec(ctx, `INSERT INTO log_entries (time, level, component, message, attrs) VALUES ($1, $2, $3, $4, $5)`,
				c.d.Time(e.Time), e.Level, e.Component, e.Message, string(js)); err != nil {
				return err
			}
		}
		return nil
	})
}

// ListLogs implements domain.LogStore.
func (c *Core) ListLogs(ctx context.Context, f domain.LogFilter) ([]domain.LogEntry, error) {
	q := `SELECT id, time, level, component, message, CAST(attrs AS TEXT) FROM log_entries WHERE true`
	var a args
	if len(f.Levels) > 0 {
		in := make([]string, len(f.Levels))
		for i, l := range f.Levels {
			in[i] = a.add(l)
		}
		q += ` AND level IN (` + strings.Join(in, `, `) + `)`
	}
	if f.Component != "" {
		q += ` AND component = ` + a.add(f.Component)
	}
	if !f.Before.IsZero() {
		q += ` AND time < ` + a.add(c.d.Time(f.Before))
	}
	q += ` ORDER BY time DESC, id DESC LIMIT ` + a.add(f.Limit)
	rows, err := c.r.Query(ctx, q, a...)
	if err != nil {
		return nil, err
	}
	return collect(rows, []domain.LogEntry{}, func(r Row) (domain.LogEntry, error) {
		var e domain.LogEntry
		var attrs string
		if err := r.Scan(&e.ID, c.d.TimeDest(&e.Time), &e.Level, &e.Component, &e.Message, &attrs); err != nil {
			return e, err
		}
		e.Time = utc(e.Time)
		_ = json.Unmarshal([]byte(attrs), &e.Attrs)
		return e, nil
	})
}

// PruneLogs implements domain.LogStore.
func (c *Core) PruneLogs(ctx context.Context, before time.Time) (int64, error) {
	return c.w.Exec(ctx, `DELETE FROM log_entries WHERE time < $1`, c.d.Time(before))
}
