package venue

import (
	"context"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/events"
)

// Switch is the venue in use, with the exchange and the market every part
// of the app holds, which follow it. Its zero value has no venue.
type Switch struct {
	Exchange ExchangeSwitch
	Market   MarketSwitch

	mu  sync.Mutex
	cur *Venue
}

// Use makes v the venue in use: the exchange and market switches pass
// their calls to it from now on, and the paper engine matches on its prices.
func (s *Switch) Use(v *Venue) {
	s.mu.Lock()
	s.cur = v
	s.mu.Unlock()
	if v.Paper != nil && v.Prices != nil {
		v.Paper.SetPrices(v.Prices)
	}
	s.Exchange.Set(v.Exchange)
	s.Market.Set(v.Market)
}

// Current is the venue in use (nil before the first Use).
func (s *Switch) Current() *Venue {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur
}

// ExchangeSwitch is the exchange every part of the app holds; it passes
// each call to the current venue's exchange.
type ExchangeSwitch struct {
	mu  sync.RWMutex
	cur Exchange
}

// Set makes x the exchange the calls go to.
func (s *ExchangeSwitch) Set(x Exchange) { s.mu.Lock(); s.cur = x; s.mu.Unlock() }
func (s *ExchangeSwitch) current() Exchange {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.cur
}

// Current implements domain.Switcher: the gateway finds the current
// exchange's group commit and live-order index through it.
func (s *ExchangeSwitch) Current() domain.Exchange { return s.current() }

func (s *ExchangeSwitch) Name() string    { return s.current().Name() }
func (s *ExchangeSwitch) IsSandbox() bool { return s.current().IsSandbox() }
func (s *ExchangeSwitch) Products(ctx context.Context) ([]domain.Product, error) {
	return s.current().Products(ctx)
}
func (s *ExchangeSwitch) PlaceOrder(ctx context.Context, r domain.OrderRequest) (domain.Order, error) {
	return s.current().PlaceOrder(ctx, r)
}
func (s *ExchangeSwitch) CancelOrder(ctx context.Context, id string) (domain.Order, error) {
	return s.current().CancelOrder(ctx, id)
}
func (s *ExchangeSwitch) ModifyOrder(ctx context.Context, id string, q, p *decimal.Decimal) (domain.Order, error) {
	return s.current().ModifyOrder(ctx, id, q, p)
}
func (s *ExchangeSwitch) Order(ctx context.Context, id string) (domain.Order, error) {
	return s.current().Order(ctx, id)
}
func (s *ExchangeSwitch) OrderByClientID(ctx context.Context, userID, clientID string) (domain.Order, error) {
	return s.current().OrderByClientID(ctx, userID, clientID)
}
func (s *ExchangeSwitch) Orders(ctx context.Context, f domain.OrderFilter) ([]domain.Order, error) {
	return s.current().Orders(ctx, f)
}
func (s *ExchangeSwitch) LiveOrders(ctx context.Context) ([]domain.Order, error) {
	return s.current().LiveOrders(ctx)
}
func (s *ExchangeSwitch) Fills(ctx context.Context, f domain.FillFilter) ([]domain.Fill, error) {
	return s.current().Fills(ctx, f)
}
func (s *ExchangeSwitch) Balances(ctx context.Context) ([]domain.Balance, error) {
	return s.current().Balances(ctx)
}
func (s *ExchangeSwitch) Updates(ctx context.Context) <-chan domain.TradeUpdate {
	return s.current().Updates(ctx)
}
func (s *ExchangeSwitch) Account(ctx context.Context) (domain.Account, error) {
	return s.current().Account(ctx)
}
func (s *ExchangeSwitch) Health() domain.ExchangeHealth { return s.current().Health() }
func (s *ExchangeSwitch) LastBeat() time.Time           { return s.current().LastBeat() }

// MarketSwitch is the live market every part of the app holds.
type MarketSwitch struct {
	mu  sync.RWMutex
	cur Market
	// Dropped ticks counted under the markets used before cur, and cur's
	// own count when it became current: a new Coinbase feed starts at zero,
	// and the process's count must not go back when it does.
	droppedBefore, droppedAtSet int64
}

// Set makes m the market the calls go to.
func (s *MarketSwitch) Set(m Market) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur != nil {
		s.droppedBefore += s.cur.Dropped() - s.droppedAtSet
	}
	s.cur, s.droppedAtSet = m, m.Dropped()
}

func (s *MarketSwitch) current() Market {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.cur
}

// Dropped counts the ticks dropped by the markets this process has used,
// each while it was current: it never decreases.
func (s *MarketSwitch) Dropped() int64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.droppedBefore + s.cur.Dropped() - s.droppedAtSet
}

func (s *MarketSwitch) Symbols() []string                         { return s.current().Symbols() }
func (s *MarketSwitch) Ticker(sym string) (domain.Ticker, error)  { return s.current().Ticker(sym) }
func (s *MarketSwitch) Stats(sym string) (domain.Stats24h, error) { return s.current().Stats(sym) }
func (s *MarketSwitch) Candles(ctx context.Context, sym string, g domain.Granularity, start, end time.Time, limit int) ([]domain.Candle, error) {
	return s.current().Candles(ctx, sym, g, start, end, limit)
}
func (s *MarketSwitch) Subscribe(ctx context.Context) <-chan domain.Tick {
	return s.current().Subscribe(ctx)
}
func (s *MarketSwitch) Start(ctx context.Context)  { s.current().Start(ctx) }
func (s *MarketSwitch) LastTickAge() time.Duration { return s.current().LastTickAge() }
func (s *MarketSwitch) PublishTickers(ticks <-chan domain.Tick, bus *events.Bus) {
	s.current().PublishTickers(ticks, bus)
}
