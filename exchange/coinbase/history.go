package coinbase

import (
	"context"
	"time"

	"kestrel/domain"
)

// History reads Coinbase's public candles for backfills: no key is held,
// so no request carries one. Its client waits out a 429 (Retry-After or
// x-ratelimit-reset) and retries 429s and 5xx with backoff.
type History struct{ c *Client }

// OpenHistory returns the public candle reader of c's market host
// (KESTREL_COINBASE_API_URL when set).
func OpenHistory(c Config) (*History, error) {
	client, err := c.marketClient()
	if err != nil {
		return nil, err
	}
	return &History{c: client}, nil
}

// Candles returns the candles of width g opening in [start, end),
// ascending; a caller asking for at most MaxCandles makes one request.
func (h *History) Candles(ctx context.Context, symbol string, g domain.Granularity, start, end time.Time) ([]domain.Candle, error) {
	return candles(ctx, h.c, symbol, g, start, end)
}
