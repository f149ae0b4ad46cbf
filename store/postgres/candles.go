package postgres

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

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

// StoredCandles implements domain.CandleStore.
func (s *Store) StoredCandles(ctx context.Context, symbol string, g domain.Granularity, from, to time.Time) ([]domain.Candle, error) {
	rows, err := s.db.Query(ctx, `SELECT open_time, open, high, low, close, volume FROM candles
		WHERE symbol = $1 AND granularity = $2 AND open_time >= $3 AND open_time < $4 ORDER BY open_time`, symbol, string(g), from, to)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.Candle{}
	for rows.Next() {
		var t time.Time
		var f [5]string
		if err := rows.Scan(&t, &f[0], &f[1], &f[2], &f[3], &f[4]); err != nil {
			return nil, err
		}
		cd := domain.Candle{Time: t.UTC()}
		for i, dst := range []*decimal.Decimal{&cd.Open, &cd.High, &cd.Low, &cd.Close, &cd.Volume} {
			if *dst, err = decimal.NewFromString(f[i]); err != nil {
				return nil, err
			}
		}
		out = append(out, cd)
	}
	return out, rows.Err()
}

// CandleSpans implements domain.CandleStore.
func (s *Store) CandleSpans(ctx context.Context) ([]domain.CandleSpan, error) {
	rows, err := s.db.Query(ctx, `SELECT symbol, granularity, source, MIN(open_time), MAX(open_time), COUNT(*) FROM candles
		GROUP BY symbol, granularity, source ORDER BY symbol, granularity, source`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.CandleSpan{}
	for rows.Next() {
		var sp domain.CandleSpan
		var g string
		if err := rows.Scan(&sp.Symbol, &g, &sp.Source, &sp.First, &sp.Last, &sp.Count); err != nil {
			return nil, err
		}
		sp.Granularity, sp.First, sp.Last = domain.Granularity(g), sp.First.UTC(), sp.Last.UTC()
		out = append(out, sp)
	}
	return out, rows.Err()
}

// CandleBounds implements domain.CandleStore: two index lookups.
func (s *Store) CandleBounds(ctx context.Context, symbol string, g domain.Granularity) (time.Time, time.Time, error) {
	var first, last *time.Time
	err := s.db.QueryRow(ctx, `SELECT
			(SELECT MIN(open_time) FROM candles WHERE symbol = $1 AND granularity = $2),
			(SELECT MAX(open_time) FROM candles WHERE symbol = $1 AND granularity = $2)`, symbol, string(g)).Scan(&first, &last)
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	if first == nil || last == nil {
		return time.Time{}, time.Time{}, domain.Errorf(domain.ENotFound, "No market data is stored for %s", symbol)
	}
	return first.UTC(), last.UTC(), nil
}

// CandleSources implements domain.CandleStore.
func (s *Store) CandleSources(ctx context.Context, symbol string, g domain.Granularity, from, to time.Time) ([]string, error) {
	rows, err := s.db.Query(ctx, `SELECT DISTINCT source FROM candles
		WHERE symbol = $1 AND granularity = $2 AND open_time >= $3 AND open_time < $4 ORDER BY source`, symbol, string(g), from, to)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var src string
		if err := rows.Scan(&src); err != nil {
			return nil, err
		}
		out = append(out, src)
	}
	return out, rows.Err()
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
