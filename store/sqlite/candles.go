package sqlite

import (
	"context"
	"database/sql"
	"strings"
	"time"

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
