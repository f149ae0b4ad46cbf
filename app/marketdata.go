package app

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"kestrel/exchange/coinbase"
	"kestrel/marketdata"
	"kestrel/settings"
	"kestrel/venue"
)

// importMarketData stores the shipped candles at the first start (later
// starts find them complete and write nothing) and opens the history
// backtests and the historical endpoints read.
func (a *App) importMarketData(ctx context.Context) error {
	res, err := marketdata.ImportShipped(ctx, a.Store)
	if err != nil {
		return fmt.Errorf("market data: %w", err)
	}
	if res.Candles > 0 {
		slog.Info("market data imported", "candles", res.Candles, "symbols", res.Symbols, "duration", res.Duration.Round(1e6).String(), "component", "marketdata")
	}
	a.History = marketdata.New(a.Store, a.cfg.ReplaySeed)
	a.Backfills = &marketdata.Backfiller{Store: a.Store, KV: a.Store, Limit: marketdata.NewLimiter(), Busy: 10 * time.Second, BusyTries: 6, Written: a.History.Changed,
		Source: func() (marketdata.CandleSource, error) {
			e := a.Settings.Platform().API.Exchange
			return coinbase.OpenHistory(a.coinbaseConfig(settings.Exchange{Timeout: e.Timeout, RateLimit: e.RateLimit}))
		}}
	return nil
}

// replayOf is the real time the sandbox market is replaying (to the
// second), nil when the market in use is live (Coinbase).
func (a *App) replayOf() *time.Time {
	v := a.current()
	if v == nil || v.Market != venue.Market(a.Market) {
		return nil
	}
	t := a.Market.Replaying().Truncate(time.Second)
	return &t
}
