package app

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/candles"
	"kestrel/domain"
	"kestrel/events"
	"kestrel/exchange/sandbox"
	"kestrel/httpapi/ws"
	"kestrel/replay"
	"kestrel/settings"
	"kestrel/trading"
)

// staleAfter is how long without a market tick before an alert is raised.
const staleAfter = 30 * time.Second

// openEngine builds the market (replay), the sandbox exchange, the order
// gateway and the realtime hub.
func (a *App) openEngine(ctx context.Context, clock domain.Clock) error {
	var err error
	if a.Market, err = replay.New(replay.Options{Seed: a.cfg.ReplaySeed, Speed: a.cfg.ReplaySpeed, Clock: clock,
		HalfSpread: decimal.RequireFromString("0.00005")}); err != nil {
		return fmt.Errorf("market replay: %w", err)
	}
	opt := sandbox.DefaultOptions(candles.Products())
	opt.Clock = clock
	opt.StartingUSD, _ = decimal.NewFromString(a.cfg.StartingUSD)
	opt.TakerFee, _ = decimal.NewFromString(a.cfg.TakerFee)
	opt.MakerFee, _ = decimal.NewFromString(a.cfg.MakerFee)
	opt.Spread, _ = decimal.NewFromString(a.cfg.Spread)
	if a.Exchange, err = sandbox.New(ctx, a.Store, a.Market, opt); err != nil {
		return err
	}
	a.Trading, err = trading.New(ctx, trading.Deps{Exchange: a.Exchange, Account: a.Exchange.Account, Market: a.Market, Store: a.Store,
		Clock: clock, Bus: a.Bus,
		Policy: func() trading.Policy { return trading.PolicyFrom(a.Settings.Platform()) },
		Alert: func(ctx context.Context, severity, title, message string) {
			a.Alerts.Raise(ctx, "trading:"+title, severity, "trading", title, message)
		}})
	if err != nil {
		return err
	}
	a.Hub = ws.NewHub(256, a.Market.Symbols())
	a.Settings.EmergencyStop = func() bool { return a.Trading.Halt().Active }
	a.Settings.OnChange(a.applyEmergencyStop)
	return nil
}

// applyEmergencyStop makes the settings' emergency-stop switch the same
// switch as the Stop button.
func (a *App) applyEmergencyStop(ctx context.Context, old, next settings.Settings, by domain.User) {
	want := next.Trading.Automation.EmergencyStop
	if want == a.Trading.Halt().Active {
		return
	}
	if want {
		if _, err := a.Trading.Stop(ctx, by.Email, "Emergency stop switched on in settings"); err != nil {
			slog.Error("emergency stop from settings", "err", err)
		}
		return
	}
	if err := a.Trading.Resume(ctx, by.Email); err != nil {
		slog.Error("resume from settings", "err", err)
	}
}

// runEngine runs the market, the sandbox's matching, the gateway's update
// loop, ticker publishing, portfolio recording and the stale-market watch,
// until ctx ends.
func (a *App) runEngine(ctx context.Context) {
	matchTicks, pubTicks := a.Market.Subscribe(ctx), a.Market.Subscribe(ctx)
	loops := []func(context.Context){a.Market.Start, func(ctx context.Context) { a.Hub.Run(ctx, a.Bus) }, a.recordPortfolio,
		a.watchMarket, a.Trading.Run, a.countOrders,
		func(ctx context.Context) {
			a.Exchange.Run(ctx, matchTicks, func(err error) { a.matchingFailed(ctx, err) })
		},
		func(ctx context.Context) { a.publishTickers(ctx, pubTicks) }}
	var wg sync.WaitGroup
	for _, loop := range loops {
		wg.Add(1)
		go func() { defer wg.Done(); loop(ctx) }()
	}
	wg.Wait()
}

// matchingFailed reports a matching change the journal could not store;
// the exchange rebuilt itself from the journal and matches again next tick.
func (a *App) matchingFailed(ctx context.Context, err error) {
	a.Metrics.DatabaseErrors.Inc()
	slog.Error("match orders", "err", err, "component", "exchange")
	a.Alerts.Raise(ctx, "database:matching", domain.SeverityCritical, "database", "Order matching could not be stored",
		fmt.Sprintf("Fills were not confirmed as saved; the exchange reloaded its ledger and matches again on the next tick: %v", err))
}

// publishTickers sends each symbol's ticker to the realtime bus on every tick.
func (a *App) publishTickers(ctx context.Context, ticks <-chan domain.Tick) {
	for t := range ticks {
		if tk, err := a.Market.Ticker(t.Symbol); err == nil {
			a.Bus.Publish(events.TopicTick, tk, time.Now())
		}
	}
}

// countOrders feeds the order and fill counters from the exchange's updates.
func (a *App) countOrders(ctx context.Context) {
	for u := range a.Exchange.Updates(ctx) {
		a.Metrics.Orders.WithLabelValues(string(u.Order.Type), string(u.Order.Status)).Inc()
		if u.Fill != nil {
			a.Metrics.Fills.WithLabelValues(u.Fill.Symbol, string(u.Fill.Side)).Inc()
		}
	}
}

func (a *App) recordPortfolio(ctx context.Context) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		if err := a.Trading.RecordPortfolio(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("record portfolio value", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// watchMarket raises a high alert when no tick arrived for staleAfter.
func (a *App) watchMarket(ctx context.Context) {
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if age := a.Market.LastTickAge(); age > staleAfter {
			a.Alerts.Raise(ctx, "market:stale", domain.SeverityHigh, "market_data", "Market data stale",
				fmt.Sprintf("No price update for %s", age.Round(time.Second)))
		}
	}
}
