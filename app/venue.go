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
	"kestrel/exchange/coinbase"
	"kestrel/exchange/sandbox"
	"kestrel/risk"
	"kestrel/settings"
)

// LiveMarket is a market the app trades on and shows.
type LiveMarket interface {
	domain.MarketData
	Start(ctx context.Context)
	LastTickAge() time.Duration
	Dropped() int64
	PublishTickers(ticks <-chan domain.Tick, bus *events.Bus)
}

// LiveExchange is an exchange the gateway trades through.
type LiveExchange interface {
	domain.Exchange
	Account(ctx context.Context) (domain.Account, error)
	Health() domain.ExchangeHealth
	LastBeat() time.Time
}

// venue is one exchange with its market: the sandbox (paper) on the
// replay or on Coinbase's live market, or Coinbase with its feed; run is
// the exchange's own loop.
type venue struct {
	exchange LiveExchange
	market   LiveMarket
	source   string // where prices come from
	label    string // venue and prices, as the status shows them
	run      func(ctx context.Context, ticks <-chan domain.Tick)
	key      settings.Exchange // the settings it was built from
	// marketSource is the settings' market source it was built for
	// (the Coinbase venue always trades on Coinbase's market).
	marketSource string
	// prices, for the paper venue, is the market its engine matches on.
	prices sandbox.Prices
}

// Sources and labels of the venues.
const (
	replaySource  = "sandbox replay of Coinbase candles"
	liveSource    = "Coinbase live market data"
	paperReplay   = "Paper · replayed Coinbase candles"
	paperLive     = "Paper · live Coinbase prices"
	coinbaseLabel = "Coinbase · live Coinbase prices"
)

// venueFor builds the venue the settings select: the exchange
// (api.exchange.provider) and, for the paper venue, its market
// (api.marketData.source). A Coinbase that cannot start (a malformed key)
// leaves the sandbox running, with an alert.
func (a *App) venueFor(ctx context.Context, api settings.API) (*venue, error) {
	e := api.Exchange
	if e.Provider == "coinbase" {
		v, err := a.coinbaseVenue(e)
		if err == nil {
			v.key, v.marketSource = e, "coinbase"
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
		a.paper = sb
		a.sandbox = &venue{exchange: sb, market: a.Market, source: replaySource, label: paperReplay, key: settings.Exchange{Provider: "sandbox"},
			marketSource: "replay", prices: a.Market, run: a.runPaper}
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
	return &venue{exchange: a.paper, market: feed, source: liveSource, label: paperLive, key: settings.Exchange{Provider: "sandbox"},
		marketSource: "coinbase", prices: livePrices{feed}, run: a.runPaper}, nil
}

// paperPrices is the market paper stages match on: the paper venue's (the
// replay, or Coinbase's live market when the settings choose it), or, when
// the venue is Coinbase itself, Coinbase's live market, whose ticks they
// receive.
func (a *App) paperPrices() sandbox.Prices {
	v := a.current()
	switch {
	case v == nil:
		return a.Market
	case v.prices != nil:
		return v.prices
	}
	if feed, ok := v.market.(*coinbase.Feed); ok {
		return livePrices{feed}
	}
	return a.Market
}

// marketSource is what the paper venue trades on now: replay or coinbase
// (the Coinbase venue trades on Coinbase's market).
func (a *App) marketSource() string {
	if v := a.current(); v != nil && v.marketSource != "" {
		return v.marketSource
	}
	return "replay"
}

// runPaper matches the paper engine's resting orders on the venue's ticks.
func (a *App) runPaper(ctx context.Context, ticks <-chan domain.Tick) {
	a.paper.Run(ctx, ticks, func(err error) { a.matchingFailed(ctx, err) })
}

func (a *App) use(v *venue) {
	a.venueMu.Lock()
	a.venue = v
	a.venueMu.Unlock()
	if v.prices != nil {
		a.paper.SetPrices(v.prices)
	}
	a.Exchange.set(v.exchange)
	a.Live.set(v.market)
}

func (a *App) current() *venue {
	a.venueMu.Lock()
	defer a.venueMu.Unlock()
	return a.venue
}

// switchExchange follows a change of the exchange or market settings: the
// new venue replaces the old and the engine restarts on it (orders already
// at an exchange stay there; the paper venue keeps its account whichever
// market it trades on).
func (a *App) switchExchange(ctx context.Context, old, next settings.Settings, by domain.User) {
	e := next.API.Exchange
	cur := a.current()
	same := cur.key.Provider == e.Provider && (e.Provider == "sandbox" || cur.key == e)
	if e.Provider == "sandbox" && cur.marketSource != next.API.MarketData.Source {
		same = false
	}
	if same {
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
	// The risk state (peak, day's start value, day's trade count) and the
	// portfolio history belong to the venue they measure: the new one's
	// start afresh now, with no order checked and no value recorded across
	// the switch.
	start := risk.Start{Scope: v.scope(), Since: time.Now().UTC(), Label: v.label}
	if err := a.Trading.Rescope(func() error {
		a.use(v)
		return a.history.restart(context.WithoutCancel(ctx), start)
	}); err != nil {
		slog.Error("restart the portfolio history", "err", err, "component", "exchange")
	}
	if running {
		if err := a.Trading.RecordPortfolio(context.WithoutCancel(ctx)); err != nil {
			slog.Warn("record the new venue's portfolio value", "err", err, "component", "exchange")
		}
		a.startEngine()
	}
	slog.Warn("exchange switched", "exchange", v.exchange.Name(), "source", v.source, "venue", v.label, "by", by.Email, "component", "exchange")
	a.riskRestarted(context.WithoutCancel(ctx), start, "the venue changed from "+cur.label, by)
}

// scope is the risk scope the venue's state belongs to.
func (v *venue) scope() risk.Scope {
	switch {
	case v.key.Provider == "coinbase":
		return risk.Scope{Venue: "coinbase"}
	case v.marketSource == "coinbase":
		return risk.Scope{Venue: "paper-live"}
	}
	return risk.Scope{Venue: "paper-replay"}
}

// beginRisk makes the stored risk start the running venue's: a start
// stored before scopes were keeps its time (its venue is the one running);
// one of another venue (changed while Kestrel was stopped) starts afresh.
func (a *App) beginRisk(ctx context.Context) error {
	v, st := a.current(), a.history.riskStart()
	switch {
	case st.Scope.Venue == "":
		return a.history.adopt(ctx, v.scope(), v.label)
	case st.Scope.Key() != v.scope().Key():
		start := risk.Start{Scope: v.scope(), Since: time.Now().UTC(), Label: v.label}
		if err := a.history.restart(ctx, start); err != nil {
			return err
		}
		a.riskRestarted(ctx, start, "the venue changed while Kestrel was stopped (from "+st.Label+")", domain.User{Email: "system"})
	}
	return nil
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

// exchangeSwitch is the exchange every part of the app holds; it passes
// each call to the current venue's exchange.
type exchangeSwitch struct {
	mu  sync.RWMutex
	cur LiveExchange
}

func (s *exchangeSwitch) set(x LiveExchange) { s.mu.Lock(); s.cur = x; s.mu.Unlock() }
func (s *exchangeSwitch) get() LiveExchange {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.cur
}

// Current implements domain.Switcher: the gateway finds the current
// exchange's group commit and live-order index through it.
func (s *exchangeSwitch) Current() domain.Exchange { return s.get() }

func (s *exchangeSwitch) Name() string    { return s.get().Name() }
func (s *exchangeSwitch) IsSandbox() bool { return s.get().IsSandbox() }
func (s *exchangeSwitch) Products(ctx context.Context) ([]domain.Product, error) {
	return s.get().Products(ctx)
}
func (s *exchangeSwitch) PlaceOrder(ctx context.Context, r domain.OrderRequest) (domain.Order, error) {
	return s.get().PlaceOrder(ctx, r)
}
func (s *exchangeSwitch) CancelOrder(ctx context.Context, id string) (domain.Order, error) {
	return s.get().CancelOrder(ctx, id)
}
func (s *exchangeSwitch) ModifyOrder(ctx context.Context, id string, q, p *decimal.Decimal) (domain.Order, error) {
	return s.get().ModifyOrder(ctx, id, q, p)
}
func (s *exchangeSwitch) Order(ctx context.Context, id string) (domain.Order, error) {
	return s.get().Order(ctx, id)
}
func (s *exchangeSwitch) OrderByClientID(ctx context.Context, userID, clientID string) (domain.Order, error) {
	return s.get().OrderByClientID(ctx, userID, clientID)
}
func (s *exchangeSwitch) Orders(ctx context.Context, f domain.OrderFilter) ([]domain.Order, error) {
	return s.get().Orders(ctx, f)
}
func (s *exchangeSwitch) LiveOrders(ctx context.Context) ([]domain.Order, error) {
	return s.get().LiveOrders(ctx)
}
func (s *exchangeSwitch) Fills(ctx context.Context, f domain.FillFilter) ([]domain.Fill, error) {
	return s.get().Fills(ctx, f)
}
func (s *exchangeSwitch) Balances(ctx context.Context) ([]domain.Balance, error) {
	return s.get().Balances(ctx)
}
func (s *exchangeSwitch) Updates(ctx context.Context) <-chan domain.TradeUpdate {
	return s.get().Updates(ctx)
}
func (s *exchangeSwitch) Account(ctx context.Context) (domain.Account, error) {
	return s.get().Account(ctx)
}
func (s *exchangeSwitch) Health() domain.ExchangeHealth { return s.get().Health() }
func (s *exchangeSwitch) LastBeat() time.Time           { return s.get().LastBeat() }

// marketSwitch is the live market every part of the app holds.
type marketSwitch struct {
	mu  sync.RWMutex
	cur LiveMarket
	// Dropped ticks counted under the markets used before cur, and cur's
	// own count when it became current: a new Coinbase feed starts at zero,
	// and the process's count must not go back when it does.
	droppedBefore, droppedAtSet int64
}

func (s *marketSwitch) set(m LiveMarket) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur != nil {
		s.droppedBefore += s.cur.Dropped() - s.droppedAtSet
	}
	s.cur, s.droppedAtSet = m, m.Dropped()
}

func (s *marketSwitch) get() LiveMarket {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.cur
}

// Dropped counts the ticks dropped by the markets this process has used,
// each while it was current: it never decreases.
func (s *marketSwitch) Dropped() int64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.droppedBefore + s.cur.Dropped() - s.droppedAtSet
}

func (s *marketSwitch) Symbols() []string                         { return s.get().Symbols() }
func (s *marketSwitch) Ticker(sym string) (domain.Ticker, error)  { return s.get().Ticker(sym) }
func (s *marketSwitch) Stats(sym string) (domain.Stats24h, error) { return s.get().Stats(sym) }
func (s *marketSwitch) Candles(ctx context.Context, sym string, g domain.Granularity, start, end time.Time, limit int) ([]domain.Candle, error) {
	return s.get().Candles(ctx, sym, g, start, end, limit)
}
func (s *marketSwitch) Subscribe(ctx context.Context) <-chan domain.Tick {
	return s.get().Subscribe(ctx)
}
func (s *marketSwitch) Start(ctx context.Context)  { s.get().Start(ctx) }
func (s *marketSwitch) LastTickAge() time.Duration { return s.get().LastTickAge() }
func (s *marketSwitch) PublishTickers(ticks <-chan domain.Tick, bus *events.Bus) {
	s.get().PublishTickers(ticks, bus)
}
