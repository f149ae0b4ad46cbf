package app

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/ai"
	"kestrel/ai/spend"
	"kestrel/backtest"
	"kestrel/candles"
	"kestrel/domain"
	"kestrel/exchange/sandbox"
	"kestrel/httpapi/ws"
	"kestrel/notify"
	"kestrel/ops/marketwatch"
	"kestrel/promotion"
	"kestrel/promotion/stage"
	"kestrel/replay"
	"kestrel/research"
	"kestrel/settings"
	"kestrel/strategy"
	"kestrel/trading"
	"kestrel/venue"
)

// openEngine builds the market (replay), the sandbox exchange, the order
// gateway and the realtime hub.
func (a *App) openEngine(ctx context.Context, clock domain.Clock) error {
	var err error
	if a.Market, err = replay.New(replay.Options{Seed: a.cfg.ReplaySeed, Speed: a.cfg.ReplaySpeed, Clock: clock,
		HalfSpread: replay.LiveHalfSpread}); err != nil {
		return fmt.Errorf("market replay: %w", err)
	}
	opt := sandbox.DefaultOptions(candles.Products())
	opt.Clock = clock
	opt.StartingUSD, _ = decimal.NewFromString(a.cfg.StartingUSD)
	opt.TakerFee, _ = decimal.NewFromString(a.cfg.TakerFee)
	opt.MakerFee, _ = decimal.NewFromString(a.cfg.MakerFee)
	opt.Spread, _ = decimal.NewFromString(a.cfg.Spread)
	opt.NotifyEvent = a.Notify.Committed // a fill's notification is committed with it
	a.sandboxOpt = opt
	v, err := a.venueFor(ctx, a.Settings.Platform().API)
	if err != nil {
		return err
	}
	a.Exchange, a.Live = &a.venues.Exchange, &a.venues.Market
	a.venues.Use(v)
	a.Settings.OnChange(a.switchExchange)
	if a.history, err = venue.OpenHistory(ctx, a.Store); err != nil {
		return fmt.Errorf("portfolio history: %w", err)
	}
	if err := a.beginRisk(ctx); err != nil {
		return fmt.Errorf("risk state: %w", err)
	}
	a.Trading, err = trading.New(ctx, trading.Deps{Exchange: a.Exchange, Account: a.Exchange.Account, Market: a.Live, Store: a.history,
		Clock: clock, Bus: a.Bus,
		Policy: a.policy,
		Alert: func(ctx context.Context, severity, title, message string) {
			a.Alerts.Raise(ctx, "trading:"+title, severity, "trading", title, message)
		},
		Refused: func(ctx context.Context, title, message string) {
			// A person's refusal is stored as its request's audit entry: its
			// event commits with that entry. Outside a request (none today),
			// it is queued on its own.
			if domain.AddAuditEvent(ctx, notify.CommittedRefusal(title, message, clock.Now())) {
				return
			}
			if _, err := a.Notify.Enqueue(context.WithoutCancel(ctx), notify.FromRiskRefusal(title, message, clock.Now())); err != nil {
				slog.Error("notification not queued", "type", notify.RiskLimitReached, "err", err, "component", "notify")
			}
		},
		ResolveAlert: func(ctx context.Context, title, by string) { a.Alerts.ResolveKey(ctx, "trading:"+title, by) },
		RiskStart:    a.history.RiskStart})
	if err != nil {
		return err
	}
	a.Spend = a.spendBook(clock)
	a.Strategies, err = strategy.New(ctx, strategy.Deps{Store: a.Store, Market: a.Live, Exchange: a.Exchange, Gateway: a.Trading,
		Account: a.Exchange.Account, Policy: a.policy,
		AutoTrading: func() bool { return a.Settings.Platform().Trading.Automation.AutoTrading },
		MarketStale: func() string { return a.marketWatch().Stale(a.Live.LastTickAge()) },
		Clock:       clock, Bus: a.Bus, Build: strategy.Builder(strategy.AIDeps{Provider: a.aiProvider, Price: a.lastPrice, Limits: a.limitsSummary, Spend: a.Spend,
			Shadow: a.shadowProvider}),
		LiveProvider: func() string { return a.Settings.Platform().API.AI.Provider },
		Alert: func(ctx context.Context, severity, title, message string) {
			a.Alerts.Raise(ctx, "strategy:"+title, severity, "strategy", title, message)
		}})
	if err != nil {
		return err
	}
	a.Backtests = backtest.NewService(backtest.Deps{Strategies: a.Strategies, Market: a.Market, History: a.History, Exchange: a.Exchange, Store: a.Store,
		Policy: a.policy, TakerFee: opt.TakerFee, MakerFee: opt.MakerFee,
		Clock: clock, Build: a.build.Label(), AIProvider: a.aiProvider, Limits: a.limitsSummary, Decisions: a.Store,
		MaxModelCalls: func() int { return a.Settings.Platform().API.AI.BacktestMaxModelCalls }, Versions: a.Strategies.ConfigAt})
	a.stages = stage.New(stage.Deps{Store: a.Store, Config: a.Strategies.ConfigAt, Market: a.Live, Prices: func() sandbox.Prices { return a.venues.PaperPrices(a.Market) }, Sandbox: opt,
		Main: a.Trading, Policy: a.policy, MarketStale: func() string { return a.marketWatch().Stale(a.Live.LastTickAge()) },
		Build:   strategy.Builder(strategy.AIDeps{Provider: a.aiProvider, Price: a.lastPrice, Limits: a.limitsSummary, Spend: a.Spend}),
		Leading: func() bool { return a.cluster == nil || a.cluster.elector.Leading() }, Clock: clock})
	drift := promotion.DriftReporter{Store: a.Store, Config: a.Strategies.ConfigAt, Backtests: a.Backtests, History: a.History,
		Market: a.venues.MarketSource, ReplayDataTime: a.Market.DataTime}
	a.Promotions = promotion.New(promotion.Deps{Store: a.Store, Strategies: a.Strategies, Runner: a.stages, Clock: clock,
		Settings: func() settings.Promotion { return a.Settings.Platform().Trading.Promotion },
		Evidence: promotion.SweepEvidence(a.Store, research.SweepJobKind), Drift: drift.Report, Market: a.venues.MarketSource})
	a.Alerts.OnResolve(a.resumeResolvedStrategy)
	a.Hub = ws.NewHub(256, a.Live.Symbols())
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
// loop, the realtime hub and the engine's recording and watching jobs,
// until ctx ends.
func (a *App) runEngine(ctx context.Context) {
	if a.cluster != nil {
		a.runCluster(ctx)
		return
	}
	// Subscribed before the market starts, so no tick is missed.
	matchTicks, pubTicks := a.Live.Subscribe(ctx), a.Live.Subscribe(ctx)
	loops := []func(context.Context){a.Live.Start, a.Trading.Run, a.Strategies.Run,
		func(ctx context.Context) { a.Hub.Run(ctx, a.Bus) },
		a.publishBooks,
		func(ctx context.Context) { a.Trading.RecordEvery(ctx, time.Minute) },
		func(ctx context.Context) { a.marketWatch().Run(ctx, a.Live.LastTickAge, a.Alerts) },
		func(ctx context.Context) { a.Metrics.CountOrders(a.Exchange.Updates(ctx)) },
		func(ctx context.Context) { a.Live.PublishTickers(pubTicks, a.Bus) },
		func(ctx context.Context) { a.current().Run(ctx, matchTicks) },
		a.stages.Run,
	}
	var wg sync.WaitGroup
	for _, loop := range loops {
		wg.Add(1)
		go func() { defer wg.Done(); loop(ctx) }()
	}
	wg.Wait()
}

// marketWatch judges the feed's age: the alert and the automation pause
// share its threshold.
func (a *App) marketWatch() marketwatch.Watcher {
	return marketwatch.Watcher{After: a.cfg.MarketStaleAfter}
}

// matchingFailed reports a matching change the journal could not store;
// the exchange rebuilt itself from the journal and matches again next tick.
func (a *App) matchingFailed(ctx context.Context, err error) {
	a.Metrics.DatabaseErrors.Inc()
	slog.Error("match orders", "err", err, "component", "exchange")
	a.Alerts.Raise(ctx, "database:matching", domain.SeverityCritical, "database", "Order matching could not be stored",
		fmt.Sprintf("Fills were not confirmed as saved; the exchange reloaded its ledger and matches again on the next tick: %v", err))
}

// aiProvider is the AI provider the settings select (api.ai.*), made anew
// for each decision so a change applies at once.
func (a *App) aiProvider() (ai.Provider, error) {
	c := a.Settings.Platform().API.AI
	return ai.New(ai.Config{Provider: c.Provider, APIToken: c.APIToken, BaseURL: c.BaseURL, Model: c.Model,
		Timeout: time.Duration(c.Timeout) * time.Millisecond})
}

// paperFee is the paper venue's taker fee rate (validated at start).
func (a *App) paperFee() decimal.Decimal {
	f, _ := decimal.NewFromString(a.cfg.TakerFee)
	return f
}

// shadowProvider makes a shadow model's provider with api.ai's timeout. It
// gets api.ai's token (and base URL) only when it is the same provider on
// the same host: a token is never sent to another endpoint.
func (a *App) shadowProvider(m strategy.ShadowModel) (ai.Provider, error) {
	c := a.Settings.Platform().API.AI
	cfg := ai.Config{Provider: m.Provider, Model: m.Model, BaseURL: m.BaseURL, Timeout: time.Duration(c.Timeout) * time.Millisecond}
	if m.Provider == c.Provider && (m.BaseURL == "" || m.BaseURL == c.BaseURL) {
		cfg.APIToken, cfg.BaseURL = c.APIToken, c.BaseURL
	}
	return ai.New(cfg)
}

// spendBook reads prices and budgets from the settings on every use, so a
// change applies to the next decision.
func (a *App) spendBook(clock domain.Clock) *spend.Book {
	return &spend.Book{
		Prices: func() map[string]spend.Price {
			out := map[string]spend.Price{}
			for m, p := range a.Settings.Platform().API.AI.Pricing {
				out[m] = spend.Price{Input: p.Input, Output: p.Output}
			}
			return out
		},
		Budgets: func() map[string]decimal.Decimal { return a.Settings.Platform().API.AI.MonthlyBudget },
		Usage:   a.Store.AIUsage,
		Now:     clock.Now,
	}
}

func (a *App) lastPrice(symbol string) (decimal.Decimal, error) {
	t, err := a.Live.Ticker(symbol)
	return t.Price, err
}

func (a *App) limitsSummary() string {
	return a.policy().Limits.Summary()
}

// policy is the trading rules from the settings now: the gateway's, the
// strategies', the backtests' and the paper stages'.
func (a *App) policy() trading.Policy { return trading.PolicyFrom(a.Settings.Platform()) }
