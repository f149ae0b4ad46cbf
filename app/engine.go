package app

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/events"
	"kestrel/httpapi/ws"
	"kestrel/replay"
	"kestrel/risk"
	"kestrel/sandbox"
	"kestrel/settings"
	"kestrel/trading"
)

// staleAfter is how long without a market tick before an alert is raised.
const staleAfter = 30 * time.Second

// openEngine builds the market (replay), the sandbox exchange, the trading
// desk and the realtime hub.
func (a *App) openEngine(ctx context.Context, clock domain.Clock) error {
	var err error
	if a.Market, err = replay.New(replay.Options{Seed: a.cfg.ReplaySeed, Speed: a.cfg.ReplaySpeed, Clock: clock,
		HalfSpread: decimal.RequireFromString("0.00005")}); err != nil {
		return fmt.Errorf("market replay: %w", err)
	}
	opt := sandbox.Options{Symbols: a.Market.Symbols(), Clock: clock, OnUpdate: a.onTradeUpdate}
	opt.StartingUSD, _ = decimal.NewFromString(a.cfg.StartingUSD)
	opt.TakerFee, _ = decimal.NewFromString(a.cfg.TakerFee)
	opt.MakerFee, _ = decimal.NewFromString(a.cfg.MakerFee)
	opt.Spread, _ = decimal.NewFromString(a.cfg.Spread)
	if a.Exchange, err = sandbox.New(ctx, a.Store, a.Market, opt); err != nil {
		return err
	}
	a.Trading, err = trading.New(ctx, trading.Deps{Exchange: a.Exchange, Market: a.Market, Store: a.Store, Clock: clock, Bus: a.Bus,
		Limits: a.riskLimits,
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

// riskLimits reads the current limits from the platform settings.
func (a *App) riskLimits() risk.Limits {
	r := a.Settings.Platform().Trading.RiskManagement
	return risk.Limits{
		MaxPositionSize:  decimal.NewFromFloat(r.MaxPositionSize),
		DailyLossLimit:   decimal.NewFromFloat(r.DailyLossLimit),
		MaxDrawdown:      decimal.NewFromFloat(r.MaxDrawdown),
		MaxOpenPositions: r.MaxOpenPositions,
		MaxDailyTrades:   r.MaxDailyTrades,
		MinTradeAmount:   decimal.NewFromFloat(r.MinTradeAmount),
		MaxTradeAmount:   decimal.NewFromFloat(r.MaxTradeAmount),
	}
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

// onTradeUpdate runs after every committed order change of the exchange.
func (a *App) onTradeUpdate(o domain.Order, f *domain.Fill) {
	now := time.Now()
	a.Bus.Publish(events.TopicTradeUpdate, domain.TradeUpdate{Order: o, Fill: f}, now)
	a.Metrics.Orders.WithLabelValues(string(o.Type), string(o.Status)).Inc()
	if f != nil {
		a.Metrics.Fills.WithLabelValues(f.Symbol, string(f.Side)).Inc()
		// Record the value on every fill, off the exchange's goroutine.
		go func() {
			if err := a.Trading.RecordPortfolio(context.Background()); err != nil {
				slog.Warn("record portfolio value", "err", err)
			}
		}()
	}
	if o.Status == domain.StatusRejected {
		a.Alerts.Raise(context.Background(), "exchange:rejected:"+o.ID, domain.SeverityMedium, "exchange",
			"Order rejected by the exchange", fmt.Sprintf("%s %s %s %s: %s", o.Type, o.Side, o.Quantity, o.Symbol, o.RejectReason))
	}
}

// runEngine runs the market, matches every tick on the exchange, publishes
// tickers to the realtime hub, records the portfolio value every minute and
// watches for a stale market, until ctx ends.
func (a *App) runEngine(ctx context.Context) {
	ticks := a.Market.Subscribe(ctx)
	var wg sync.WaitGroup
	for _, loop := range []func(context.Context){a.Market.Start, func(ctx context.Context) { a.Hub.Run(ctx, a.Bus) }, a.recordPortfolio, a.watchMarket} {
		wg.Add(1)
		go func() { defer wg.Done(); loop(ctx) }()
	}
	defer wg.Wait()
	for {
		select {
		case <-ctx.Done():
			return
		case t, ok := <-ticks:
			if !ok {
				return
			}
			if err := a.Exchange.OnTick(ctx, t); err != nil && ctx.Err() == nil {
				// Nothing was applied; the orders stay armed for the next tick.
				a.Metrics.DatabaseErrors.Inc()
				slog.Error("match orders", "symbol", t.Symbol, "err", err, "component", "exchange")
				a.Alerts.Raise(ctx, "database:matching", domain.SeverityCritical, "database", "Order matching could not be stored",
					fmt.Sprintf("Fills for %s were not saved and will be retried on the next tick: %v", t.Symbol, err))
			}
			if tk, err := a.Market.Ticker(t.Symbol); err == nil {
				a.Bus.Publish(events.TopicTick, tk, time.Now())
			}
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
