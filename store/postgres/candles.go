package postgres

import (
	"context"
	"time"

	"kestrel/domain"
)

var _ domain.CandleStore = (*Store)(nil)

// InsertCandles implements domain.CandleStore: one statement (so one
// transaction) unnesting the rows as arrays, a single round trip however
// many there are.
func (s *Store) InsertCandles(ctx context.Context, symbol string, g domain.Granularity, source string, rows []domain.CandleRow) (int, error) {
	return s.writeCandles(ctx, symbol, g, source, rows, `DO NOTHING`)
}

// UpsertCandles implements domain.CandleStore: only a row of the same
// source is replaced; another source's candle (the shipped data) stays as
// it is and is not counted.
func (s *Store) UpsertCandles(ctx context.Context, symbol string, g domain.Granularity, source string, rows []domain.CandleRow) (int, error) {
	return s.writeCandles(ctx, symbol, g, source, rows, `DO UPDATE SET open = excluded.open, high = excluded.high, low = excluded.low,
		close = excluded.close, volume = excluded.volume WHERE candles.source = excluded.source`)
}

func (s *Store) writeCandles(ctx context.Context, symbol string, g domain.Granularity, source string, rows []domain.CandleRow, conflict string) (int, error) {
	if len(rows) == 0 {
		return 0, nil
	}
	ts := make([]time.Time, len(rows))
	o, h, l, c, v := make([]string, len(rows)), make([]string, len(rows)), make([]string, len(rows)), make([]string, len(rows)), make([]string, len(rows))
	for i, r := range rows {
		ts[i], o[i], h[i], l[i], c[i], v[i] = r.Time.UTC(), r.Open, r.High, r.Low, r.Close, r.Volume
	}
	tag, err := s.db.Exec(ctx, `INSERT INTO candles (symbol, granularity, open_time, open, high, low, close, volume, source)
		SELECT $1, $2, t, o, h, l, c, v, $3
		FROM unnest($4::timestamptz[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[]) AS u(t, o, h, l, c, v)
		ON CONFLICT (symbol, granularity, open_time) `+conflict, symbol, string(g), source, ts, o, h, l, c, v)
	if err != nil {
		return 0, err
	}
	return int(tag.RowsAffected()), nil
}

// CandleGaps implements domain.CandleStore.
func (s *Store) CandleGaps(ctx context.Context, symbol string, g domain.Granularity) ([]domain.CandleGap, error) {
	w := g.Duration()
	if w <= 0 {
		return nil, domain.Errorf(domain.EInvalid, "Unsupported granularity: %s", g)
	}
	rows, err := s.db.Query(ctx, `SELECT prev, open_time FROM (
			SELECT open_time, LAG(open_time) OVER (ORDER BY open_time) AS prev FROM candles WHERE symbol = $1 AND granularity = $2) AS x
		WHERE open_time - prev > make_interval(secs => $3) ORDER BY open_time`, symbol, string(g), w.Seconds())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.CandleGap{}
	for rows.Next() {
		var prev, next time.Time
		if err := rows.Scan(&prev, &next); err != nil {
			return nil, err
		}
		out = append(out, domain.CandleGap{From: prev.Add(w).UTC(), To: next.UTC()})
	}
	return out, rows.Err()
}
