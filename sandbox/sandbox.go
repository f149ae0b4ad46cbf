// Package sandbox is Kestrel's built-in exchange: one play-money account that
// fills market, limit and stop-loss orders against a price feed (the replayed
// market), charges Coinbase-like fees and keeps every state change in the
// store in one transaction, so a restart loses nothing.
package sandbox

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// Prices gives the current bid/ask; domain.MarketData satisfies it.
type Prices interface {
	Ticker(symbol string) (domain.Ticker, error)
}

// Options configure the sandbox; zero values take the defaults.
type Options struct {
	Symbols     []string
	StartingUSD decimal.Decimal // funded once, on the first start; default 100,000
	TakerFee    decimal.Decimal // default 0.006 (Coinbase's entry tier)
	MakerFee    decimal.Decimal // default 0.004
	// Spread is an extra fraction market orders pay beyond the bid/ask
	// (buy at ask x (1+Spread), sell at bid x (1-Spread)); default 0.
	Spread decimal.Decimal
	// MaxFillPerTick caps the quantity one tick fills per order (0: no cap),
	// which produces partial fills.
	MaxFillPerTick decimal.Decimal
	Clock          domain.Clock
	// OnUpdate is told about each committed order change and its fill, if any.
	// It runs outside the sandbox's lock and must not block for long.
	OnUpdate func(domain.Order, *domain.Fill)
}

// Sandbox implements domain.Exchange.
type Sandbox struct {
	opt    Options
	store  domain.LedgerStore
	prices Prices

	mu        sync.Mutex
	balances  map[string]domain.Balance
	positions map[string]domain.PositionBook
	live      map[string]domain.Order
	books     map[string]*books
	seq       uint64
}

var _ domain.Exchange = (*Sandbox)(nil)

// New restores the sandbox from the store (funding it on the first start).
func New(ctx context.Context, store domain.LedgerStore, prices Prices, opt Options) (*Sandbox, error) {
	if len(opt.Symbols) == 0 {
		opt.Symbols = domain.Symbols
	}
	if opt.StartingUSD.IsZero() {
		opt.StartingUSD = decimal.NewFromInt(100_000)
	}
	if opt.TakerFee.IsZero() {
		opt.TakerFee = decimal.RequireFromString("0.006")
	}
	if opt.MakerFee.IsZero() {
		opt.MakerFee = decimal.RequireFromString("0.004")
	}
	if opt.Clock == nil {
		opt.Clock = domain.SystemClock{}
	}
	s := &Sandbox{opt: opt, store: store, prices: prices, balances: map[string]domain.Balance{},
		positions: map[string]domain.PositionBook{}, live: map[string]domain.Order{}, books: map[string]*books{}}
	for _, sym := range opt.Symbols {
		s.books[sym] = newBooks()
	}
	if err := s.restore(ctx); err != nil {
		return nil, fmt.Errorf("restore sandbox: %w", err)
	}
	return s, nil
}

func (s *Sandbox) restore(ctx context.Context) error {
	bals, err := s.store.LedgerBalances(ctx)
	if err != nil {
		return err
	}
	if len(bals) == 0 {
		usd := domain.Balance{Currency: "USD", Available: s.opt.StartingUSD, Hold: decimal.Zero}
		if err := s.store.ApplyLedger(ctx, domain.LedgerChange{Balances: []domain.Balance{usd}}); err != nil {
			return err
		}
		bals = []domain.Balance{usd}
	}
	for _, b := range bals {
		s.balances[b.Currency] = b
	}
	ps, err := s.store.LedgerPositions(ctx)
	if err != nil {
		return err
	}
	for _, p := range ps {
		s.positions[p.Symbol] = p
	}
	live, err := s.store.LedgerLiveOrders(ctx)
	if err != nil {
		return err
	}
	for _, o := range live {
		s.live[o.ID] = o
		s.rest(o)
	}
	return nil
}

// Name implements domain.Exchange.
func (s *Sandbox) Name() string { return "sandbox" }

// IsSandbox implements domain.Exchange.
func (s *Sandbox) IsSandbox() bool { return true }

// Fees returns the taker and maker fee rates.
func (s *Sandbox) Fees() (taker, maker decimal.Decimal) { return s.opt.TakerFee, s.opt.MakerFee }

// base is the currency a symbol trades (BTC for BTC-USD).
func base(symbol string) string { b, _, _ := strings.Cut(symbol, "-"); return b }

// rest puts a live order into its book.
func (s *Sandbox) rest(o domain.Order) {
	b := s.books[o.Symbol]
	if b == nil {
		return
	}
	s.seq++
	switch {
	case o.Type == domain.Limit && o.Side == domain.Buy:
		b.buyLimits.add(o.ID, *o.Price, s.seq)
	case o.Type == domain.Limit:
		b.sellLimits.add(o.ID, *o.Price, s.seq)
	case o.Type == domain.StopLoss && o.Side == domain.Sell:
		b.sellStops.add(o.ID, *o.StopPrice, s.seq)
	case o.Type == domain.StopLoss:
		b.buyStops.add(o.ID, *o.StopPrice, s.seq)
	}
}

// unrest takes an order out of every book.
func (s *Sandbox) unrest(o domain.Order) {
	if b := s.books[o.Symbol]; b != nil {
		for _, bk := range []*book{b.buyLimits, b.sellLimits, b.sellStops, b.buyStops} {
			bk.remove(o.ID)
		}
	}
}

// Balances implements domain.Exchange.
func (s *Sandbox) Balances(ctx context.Context) ([]domain.Balance, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]domain.Balance, 0, len(s.balances))
	for _, b := range s.balances {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Currency < out[j].Currency })
	return out, nil
}

// Positions implements domain.Exchange: holdings valued at the current price.
func (s *Sandbox) Positions(ctx context.Context) ([]domain.Position, error) {
	s.mu.Lock()
	books := make([]domain.PositionBook, 0, len(s.positions))
	for _, p := range s.positions {
		books = append(books, p)
	}
	s.mu.Unlock()
	sort.Slice(books, func(i, j int) bool { return books[i].Symbol < books[j].Symbol })
	out := make([]domain.Position, 0, len(books))
	for _, p := range books {
		out = append(out, s.value(p))
	}
	return out, nil
}

// RealizedPnL returns realized P&L per symbol, closed positions included.
func (s *Sandbox) RealizedPnL(ctx context.Context) (map[string]decimal.Decimal, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]decimal.Decimal{}
	for sym, p := range s.positions {
		out[sym] = p.Realized
	}
	return out, nil
}

var hundred = decimal.NewFromInt(100)

func (s *Sandbox) value(p domain.PositionBook) domain.Position {
	pos := domain.Position{Symbol: p.Symbol, Quantity: p.Quantity, RealizedPnL: p.Realized.Round(2)}
	if p.Quantity.IsPositive() {
		pos.AvgPrice = p.Cost.Div(p.Quantity).Round(8)
	}
	if t, err := s.prices.Ticker(p.Symbol); err == nil {
		pos.CurrentPrice = t.Price
		pos.CurrentValue = p.Quantity.Mul(t.Price).Round(2)
		pos.UnrealizedPnL = p.Quantity.Mul(t.Price).Sub(p.Cost).Round(2)
		if p.Cost.IsPositive() {
			pos.PnLPercentage = p.Quantity.Mul(t.Price).Sub(p.Cost).Div(p.Cost).Mul(hundred).Round(2)
		}
	}
	return pos
}

// Order implements domain.Exchange.
func (s *Sandbox) Order(ctx context.Context, id string) (domain.Order, error) {
	return s.store.LedgerOrder(ctx, id)
}

// Orders implements domain.Exchange.
func (s *Sandbox) Orders(ctx context.Context, f domain.OrderFilter) ([]domain.Order, error) {
	return s.store.LedgerOrders(ctx, f)
}

// Fills implements domain.Exchange.
func (s *Sandbox) Fills(ctx context.Context, f domain.FillFilter) ([]domain.Fill, error) {
	return s.store.LedgerFills(ctx, f)
}
