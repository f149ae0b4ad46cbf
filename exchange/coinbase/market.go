package coinbase

import (
	"context"
	"strconv"
	"strings"
	"time"

	"kestrel/domain"
)

// Candles returns the candles of width g opening in [start, end), ascending,
// paged within Coinbase's 350-per-request limit.
func (x *Exchange) Candles(ctx context.Context, symbol string, g domain.Granularity, start, end time.Time) ([]domain.Candle, error) {
	return candles(ctx, x.c, symbol, g, start, end)
}

func candles(ctx context.Context, c *Client, symbol string, g domain.Granularity, start, end time.Time) ([]domain.Candle, error) {
	w := g.Duration()
	if w == 0 {
		return nil, domain.Errorf(domain.EInvalid, "Unknown granularity %q", g)
	}
	raw, err := c.Candles(ctx, strings.ToUpper(symbol), string(g), w, start.Truncate(w), end)
	if err != nil {
		return nil, err
	}
	out := make([]domain.Candle, 0, len(raw))
	for _, c := range raw {
		sec, err := strconv.ParseInt(c.Start, 10, 64)
		if err != nil {
			continue
		}
		t := time.Unix(sec, 0).UTC()
		if t.Before(start.Truncate(w)) || !t.Before(end) {
			continue
		}
		out = append(out, domain.Candle{Time: t, Open: dec(c.Open), High: dec(c.High), Low: dec(c.Low), Close: dec(c.Close), Volume: dec(c.Volume)})
	}
	return out, nil
}

// Ticker returns the last trade price with the best bid and ask.
func (x *Exchange) Ticker(ctx context.Context, symbol string) (domain.Ticker, error) {
	p, err := x.c.Ticker(ctx, strings.ToUpper(symbol))
	if err != nil {
		return domain.Ticker{}, err
	}
	if len(p.Trades) == 0 {
		return domain.Ticker{}, domain.Errorf(domain.EUnavailable, "Coinbase has no trade for %s yet", symbol)
	}
	t := p.Trades[0]
	return domain.Ticker{Symbol: t.ProductID, Price: dec(t.Price), Bid: dec(p.BestBid), Ask: dec(p.BestAsk), Time: parseTime(t.Time)}, nil
}
