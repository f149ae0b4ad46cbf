package app

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"kestrel/domain"
	"kestrel/exchange/coinbase"
	"kestrel/exchange/sandbox"
	"kestrel/risk"
	"kestrel/settings"
	"kestrel/venue"
)

// venueFor builds the venue the settings select: the exchange
// (api.exchange.provider) and, for the paper venue, its market
// (api.marketData.source). A Coinbase that cannot start (a malformed key)
// leaves the sandbox running, with an alert.
func (a *App) venueFor(ctx context.Context, api settings.API) (*venue.Venue, error) {
	e := api.Exchange
	if e.Provider == "coinbase" {
		v, err := a.coinbaseVenue(e)
		if err == nil {
			v.Key, v.MarketSource = e, "coinbase"
			return v, nil
		}
		slog.Error("coinbase not connected; running the sandbox", "err", err, "component", "exchange")
		a.Alerts.Raise(ctx, "exchange:coinbase", domain.SeverityCritical, "exchange", "Coinbase not connected",
			"The exchange settings select Coinbase but the adapter could not start ("+domain.ErrorMessage(err)+"); the built-in sandbox is running instead. Fix the key in Settings.")
	}
	if a.sandbox == nil {
		sb, err := sandbox.New(ctx, a.Store, a.Market, a.sandboxOpt)
		if err != nil {
			return nil, err
		}
		a.sandbox = venue.OnReplay(sb, a.Market, a.matchingFailed)
	}
	if api.MarketData.Source != "coinbase" {
		return a.sandbox, nil
	}
	// Paper trading on live prices: the same paper engine, fed by
	// Coinbase's public market (no key), built afresh for each switch.
	cfg := a.coinbaseConfig(settings.Exchange{Timeout: e.Timeout, RateLimit: e.RateLimit})
	feed, err := coinbase.OpenMarket(cfg, a.Market.Symbols(), 15*time.Second, nil)
	if err != nil {
		return nil, err
	}
	feed.FollowBook() // paper market orders walk Coinbase's level2 book
	slog.Info("market: coinbase public market data for the paper venue", "api", cfg.RESTURL(), "market_ws", cfg.MarketURL(), "component", "exchange")
	v := venue.OnLiveMarket(a.sandbox.Paper, feed, a.matchingFailed)
	v.Key.Timeout, v.Key.RateLimit = e.Timeout, e.RateLimit // a change of either rebuilds the feed (Venue.Selected)
	return v, nil
}

// current is the venue in use (nil before openEngine).
func (a *App) current() *venue.Venue { return a.venues.Current() }

// switchExchange follows a change of the exchange or market settings: the
// new venue replaces the old and the engine restarts on it (orders already
// at an exchange stay there; the paper venue keeps its account whichever
// market it trades on). A new timeout or rate limit for paper on live
// prices rebuilds only the Coinbase feed.
func (a *App) switchExchange(ctx context.Context, old, next settings.Settings, by domain.User) {
	cur := a.venues.Current()
	if cur.Selected(next.API) {
		return
	}
	v, err := a.venueFor(context.WithoutCancel(ctx), next.API)
	if err != nil {
		slog.Error("switch exchange", "err", err, "component", "exchange")
		return
	}
	if v == cur {
		return
	}
	running := a.runCtx != nil && a.runCtx.Err() == nil
	if running {
		a.stopEngine()
	}
	if cur.SameAccount(v) {
		// Only the feed changed (its timeout or rate limit): the paper
		// account, its resting orders, the risk state and the portfolio
		// history go on, now on the rebuilt feed.
		if err := a.Trading.Rescope(func() error { a.venues.Use(v); return nil }); err != nil {
			slog.Error("rebuild the market feed", "err", err, "component", "exchange")
		}
		if running {
			a.startEngine()
		}
		slog.Warn("market feed rebuilt", "venue", v.Label, "by", by.Email, "component", "exchange")
		return
	}
	// The risk state (peak, day's start value, day's trade count) and the
	// portfolio history belong to the venue they measure: the new one's
	// start afresh now, with no order checked and no value recorded across
	// the switch.
	start := risk.Start{Scope: v.Scope(), Since: time.Now().UTC(), Label: v.Label}
	if err := a.Trading.Rescope(func() error {
		a.venues.Use(v)
		return a.history.Restart(context.WithoutCancel(ctx), start)
	}); err != nil {
		slog.Error("restart the portfolio history", "err", err, "component", "exchange")
	}
	if running {
		if err := a.Trading.RecordPortfolio(context.WithoutCancel(ctx)); err != nil {
			slog.Warn("record the new venue's portfolio value", "err", err, "component", "exchange")
		}
		a.startEngine()
	}
	slog.Warn("exchange switched", "exchange", v.Exchange.Name(), "source", v.Source, "venue", v.Label, "by", by.Email, "component", "exchange")
	a.riskRestarted(context.WithoutCancel(ctx), start, "the venue changed from "+cur.Label, by)
}

// beginRisk makes the stored risk start the running venue's
// (venue.History.Begin), saying so when it started afresh.
func (a *App) beginRisk(ctx context.Context) error {
	start, was, err := a.history.Begin(ctx, a.current(), time.Now().UTC())
	if start != nil {
		a.riskRestarted(ctx, *start, "the venue changed while Kestrel was stopped (from "+was+")", domain.User{Email: "system"})
	}
	return err
}

// riskRestarted says that the risk state started afresh: in the log and in
// the audit log.
func (a *App) riskRestarted(ctx context.Context, start risk.Start, why string, by domain.User) {
	msg := fmt.Sprintf("Risk state started afresh on %s at %s: %s; the drawdown peak, the day's start value and the day's trade count are measured from here",
		start.Label, start.Since.Format(time.RFC3339), why)
	slog.Warn(msg, "scope", start.Scope.Key(), "component", "risk")
	e := domain.AuditEntry{At: start.Since, UserID: by.ID, Actor: by.Email, Action: "risk state started afresh", Status: 200, Detail: msg}
	if err := a.Store.AppendAudit(ctx, e); err != nil {
		slog.Error("audit log write failed", "err", err, "component", "risk")
	}
}
