package sqlcore

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// The candle reads. Writes (SQLite's batched VALUES, PostgreSQL's unnest)
// and the gap search (interval arithmetic) stay with each engine.

// CandleClock is a Dialect whose candle open times have a unit of their own
// (SQLite: whole Unix seconds). Without it, they are times like any other.
type CandleClock interface {
	// CandleTime is the argument for a bound on open times, rounded up to
	// the unit: a candle opening before t does not open at or after it.
	CandleTime(t time.Time) any
	// CandleTimeCol is the open time expression col as the dialect's other
	// time columns read (TimeDest, NullTimeDest).
	CandleTimeCol(col string) string
}

func (c *Core) candleTime(t time.Time) any {
	if cc, ok := c.d.(CandleClock); ok {
		return cc.CandleTime(t)
	}
	return c.d.Time(t)
}

func (c *Core) candleCol(col string) string {
	if cc, ok := c.d.(CandleClock); ok {
		return cc.CandleTimeCol(col)
	}
	return col
}

// StoredCandles implements domain.CandleStore. A year's read is tens of
// thousands of rows: the scan destinations are made once, not per row.
func (c *Core) StoredCandles(ctx context.Context, symbol string, g domain.Granularity, from, to time.Time) ([]domain.Candle, error) {
	var t time.Time
	var f [5]string
	dest := []any{c.d.TimeDest(&t), &f[0], &f[1], &f[2], &f[3], &f[4]}
	return queryAll(ctx, c.r, func(r Row) (domain.Candle, error) {
		if err := r.Scan(dest...); err != nil {
			return domain.Candle{}, err
		}
		cd := domain.Candle{Time: utc(t)}
		for i, dst := range [...]*decimal.Decimal{&cd.Open, &cd.High, &cd.Low, &cd.Close, &cd.Volume} {
			d, err := decimal.NewFromString(f[i])
			if err != nil {
				return cd, err
			}
			*dst = d
		}
		return cd, nil
	}, `SELECT `+c.candleCol("open_time")+`, open, high, low, close, volume FROM candles
		WHERE symbol = $1 AND granularity = $2 AND open_time >= $3 AND open_time < $4 ORDER BY open_time`,
		symbol, string(g), c.candleTime(from), c.candleTime(to))
}

// CandleSpans implements domain.CandleStore.
func (c *Core) CandleSpans(ctx context.Context) ([]domain.CandleSpan, error) {
	return queryAll(ctx, c.r, func(r Row) (domain.CandleSpan, error) {
		var sp domain.CandleSpan
		var g string
		err := r.Scan(&sp.Symbol, &g, &sp.Source, c.d.TimeDest(&sp.First), c.d.TimeDest(&sp.Last), &sp.Count)
		sp.Granularity, sp.First, sp.Last = domain.Granularity(g), utc(sp.First), utc(sp.Last)
		return sp, err
	}, `SELECT symbol, granularity, source, `+c.candleCol("MIN(open_time)")+`, `+c.candleCol("MAX(open_time)")+`, COUNT(*) FROM candles
		GROUP BY symbol, granularity, source ORDER BY symbol, granularity, source`)
}

// CandleBounds implements domain.CandleStore: two index lookups.
func (c *Core) CandleBounds(ctx context.Context, symbol string, g domain.Granularity) (time.Time, time.Time, error) {
	var first, last *time.Time
	err := c.r.QueryRow(ctx, `SELECT
			(SELECT `+c.candleCol("MIN(open_time)")+` FROM candles WHERE symbol = $1 AND granularity = $2),
			(SELECT `+c.candleCol("MAX(open_time)")+` FROM candles WHERE symbol = $1 AND granularity = $2)`, symbol, string(g)).
		Scan(c.d.NullTimeDest(&first), c.d.NullTimeDest(&last))
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	if first == nil || last == nil {
		return time.Time{}, time.Time{}, domain.Errorf(domain.ENotFound, "No market data is stored for %s", symbol)
	}
	return first.UTC(), last.UTC(), nil
}

// CandleSources implements domain.CandleStore.
func (c *Core) CandleSources(ctx context.Context, symbol string, g domain.Granularity, from, to time.Time) ([]string, error) {
	return queryAll(ctx, c.r, func(r Row) (string, error) {
		var src string
		err := r.Scan(&src)
		return src, err
	}, `SELECT DISTINCT source FROM candles
		WHERE symbol = $1 AND granularity = $2 AND open_time >= $3 AND open_time < $4 ORDER BY source`,
		symbol, string(g), c.candleTime(from), c.candleTime(to))
}
