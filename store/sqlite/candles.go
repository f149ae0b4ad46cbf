package sqlite

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

var _ domain.CandleStore = (*Store)(nil)

// candleBatch is how many rows one INSERT carries (6 parameters each, well
// under SQLite's limit): one statement per row would spend most of an
// import crossing into the driver.
const candleBatch = 256

// InsertCandles implements domain.CandleStore.
func (s *Store) InsertCandles(ctx context.Context, symbol string, g domain.Granularity, source string, rows []domain.CandleRow) (int, error) {
	return s.writeCandles(ctx, symbol, g, source, rows, false)
}

// UpsertCandles implements domain.CandleStore.
func (s *Store) UpsertCandles(ctx context.Context, symbol string, g domain.Granularity, source string, rows []domain.CandleRow) (int, error) {
	return s.writeCandles(ctx, symbol, g, source, rows, true)
}

func (s *Store) writeCandles(ctx context.Context, symbol string, g domain.Granularity, source string, rows []domain.CandleRow, upsert bool) (int, error) {
	if len(rows) == 0 {
		return 0, nil
	}
	inserted := 0
	err := s.tx(ctx, func(tx *sql.Tx) error {
		inserted = 0
		var full *sql.Stmt
		defer func() {
			if full != nil {
				full.Close()
			}
		}()
		args := make([]any, 0, 3+6*candleBatch)
		for i := 0; i < len(rows); i += candleBatch {
			chunk := rows[i:min(i+candleBatch, len(rows))]
			args = append(args[:0], symbol, string(g), source)
			for _, r := range chunk {
				args = append(args, r.Time.Unix(), r.Open, r.High, r.Low, r.Close, r.Volume)
			}
			var res sql.Result
			var err error
			if len(chunk) == candleBatch {
				if full == nil {
					if full, err = tx.PrepareContext(ctx, insertCandles(candleBatch, upsert)); err != nil {
						return err
					}
				}
				res, err = full.ExecContext(ctx, args...)
			} else {
				res, err = tx.ExecContext(ctx, insertCandles(len(chunk), upsert), args...)
			}
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			inserted += int(n)
		}
		return nil
	})
	return inserted, err
}

func insertCandles(n int, upsert bool) string {
	var b strings.Builder
	// ?1..?3 are the symbol, granularity and source, bound once; each row
	// binds its own six values.
	b.WriteString(`INSERT INTO candles (symbol, granularity, open_time, open, high, low, close, volume, source)
		SELECT ?1, ?2, column1, column2, column3, column4, column5, column6, ?3 FROM (VALUES `)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("(?,?,?,?,?,?)")
	}
	// WHERE true: an upsert after a SELECT needs it to parse.
	b.WriteString(`) WHERE true ON CONFLICT (symbol, granularity, open_time) DO `)
	if upsert {
		// Only a row of the same source is replaced: another source's
		// candle (the shipped data) stays as it is and is not counted.
		b.WriteString(`UPDATE SET open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close, volume = excluded.volume
			WHERE candles.source = excluded.source`)
	} else {
		b.WriteString(`NOTHING`)
	}
	return b.String()
}

// StoredCandles implements domain.CandleStore.
func (s *Store) StoredCandles(ctx context.Context, symbol string, g domain.Granularity, from, to time.Time) ([]domain.Candle, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT open_time, open, high, low, close, volume FROM candles
		WHERE symbol = ? AND granularity = ? AND open_time >= ? AND open_time < ? ORDER BY open_time`,
		symbol, string(g), ceilUnix(from), ceilUnix(to))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.Candle{}
	for rows.Next() {
		var t int64
		var o, h, l, c, v string
		if err := rows.Scan(&t, &o, &h, &l, &c, &v); err != nil {
			return nil, err
		}
		cd, err := parseCandle(time.Unix(t, 0).UTC(), o, h, l, c, v)
		if err != nil {
			return nil, err
		}
		out = append(out, cd)
	}
	return out, rows.Err()
}

// ceilUnix is t in whole seconds, rounded up: a candle opening before t
// does not open at or after it.
func ceilUnix(t time.Time) int64 {
	u := t.Unix()
	if t.Nanosecond() > 0 {
		u++
	}
	return u
}

func parseCandle(t time.Time, o, h, l, c, v string) (domain.Candle, error) {
	cd := domain.Candle{Time: t}
	for _, f := range []struct {
		dst *decimal.Decimal
		s   string
	}{{&cd.Open, o}, {&cd.High, h}, {&cd.Low, l}, {&cd.Close, c}, {&cd.Volume, v}} {
		d, err := decimal.NewFromString(f.s)
		if err != nil {
			return cd, err
		}
		*f.dst = d
	}
	return cd, nil
}

// CandleSpans implements domain.CandleStore.
func (s *Store) CandleSpans(ctx context.Context) ([]domain.CandleSpan, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT symbol, granularity, source, MIN(open_time), MAX(open_time), COUNT(*) FROM candles
		GROUP BY symbol, granularity, source ORDER BY symbol, granularity, source`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.CandleSpan{}
	for rows.Next() {
		var sp domain.CandleSpan
		var g string
		var first, last int64
		if err := rows.Scan(&sp.Symbol, &g, &sp.Source, &first, &last, &sp.Count); err != nil {
			return nil, err
		}
		sp.Granularity, sp.First, sp.Last = domain.Granularity(g), time.Unix(first, 0).UTC(), time.Unix(last, 0).UTC()
		out = append(out, sp)
	}
	return out, rows.Err()
}

// CandleBounds implements domain.CandleStore: two index lookups.
func (s *Store) CandleBounds(ctx context.Context, symbol string, g domain.Granularity) (time.Time, time.Time, error) {
	var first, last sql.NullInt64
	err := s.r.QueryRowContext(ctx, `SELECT
			(SELECT MIN(open_time) FROM candles WHERE symbol = ?1 AND granularity = ?2),
			(SELECT MAX(open_time) FROM candles WHERE symbol = ?1 AND granularity = ?2)`, symbol, string(g)).Scan(&first, &last)
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	if !first.Valid || !last.Valid {
		return time.Time{}, time.Time{}, domain.Errorf(domain.ENotFound, "No market data is stored for %s", symbol)
	}
	return time.Unix(first.Int64, 0).UTC(), time.Unix(last.Int64, 0).UTC(), nil
}

// CandleSources implements domain.CandleStore.
func (s *Store) CandleSources(ctx context.Context, symbol string, g domain.Granularity, from, to time.Time) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT DISTINCT source FROM candles
		WHERE symbol = ? AND granularity = ? AND open_time >= ? AND open_time < ? ORDER BY source`, symbol, string(g), ceilUnix(from), ceilUnix(to))
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
	w := int64(g.Duration() / time.Second)
	if w <= 0 {
		return nil, domain.Errorf(domain.EInvalid, "Unsupported granularity: %s", g)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT prev, open_time FROM (
			SELECT open_time, LAG(open_time) OVER (ORDER BY open_time) AS prev FROM candles WHERE symbol = ? AND granularity = ?)
		WHERE open_time - prev > ? ORDER BY open_time`, symbol, string(g), w)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.CandleGap{}
	for rows.Next() {
		var prev, next int64
		if err := rows.Scan(&prev, &next); err != nil {
			return nil, err
		}
		out = append(out, domain.CandleGap{From: time.Unix(prev+w, 0).UTC(), To: time.Unix(next, 0).UTC()})
	}
	return out, rows.Err()
}
