// Package sandbox is Kestrel's built-in exchange: the paper matching engine
// (exchange/paper) with a durable journal and the wall clock. Every change is
// stored in one transaction before it is acknowledged, so a restart loses
// nothing; when a store call fails (its outcome unknown) the engine is rebuilt
// from the journal, so an order can never fill twice.
package sandbox

import (
	"context"
	"fmt"
	"hash/maphash"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/exchange/paper"
	"kestrel/exchange/updatefeed"
)

// Prices gives the current bid/ask; domain.MarketData satisfies it.
type Prices interface {
	Ticker(symbol string) (domain.Ticker, error)
}

// Ranger is a feed that can tell the range the price covered between two
// market times (the replay can); with it no touched price is ever missed,
// even when ticks arrive late or are dropped.
type Ranger interface {
	Range(symbol string, from, to time.Time) (low, high decimal.Decimal, ok bool)
}

// Depther is a market that publishes its book's depth (Coinbase's level2):
// market orders then walk the book instead of taking all at the best price.
// ok is false while the book is not known.
type Depther interface {
	Depth(symbol string) (bids, asks []paper.Level, ok bool)
}

// TradeReporter is a market whose Range is the range of its reported
// trades (Coinbase's market_trades): resting limits then fill only when a
// trade printed through them (paper.Quote.TradeThrough).
type TradeReporter interface {
	Ranger
	TradeThrough() bool
}

// Options configure the sandbox; start from DefaultOptions.
type Options struct {
	Products    []domain.Product
	StartingUSD decimal.Decimal // funded once, on the first start
	TakerFee    decimal.Decimal // zero is a valid fee
	MakerFee    decimal.Decimal
	// Spread is an extra fraction market orders pay beyond the bid/ask.
	Spread decimal.Decimal
	// MaxFillPerTick caps the quantity one tick fills per order (0: no cap).
	MaxFillPerTick decimal.Decimal
	Clock          domain.Clock
	// NotifyEvent, when set, is the notification event a trade update
	// stands for (ok false: none). The journal commits those events in the
	// transaction of the change that caused them (LedgerChange.Notify) and
	// marks the updates Journaled, so a crash after the commit loses no
	// notification.
	NotifyEvent func(domain.TradeUpdate) (domain.NotifyEvent, bool)
}

// DefaultOptions are Coinbase's entry-tier fees and 100,000 USD.
func DefaultOptions(products []domain.Product) Options {
	return Options{Products: products, StartingUSD: decimal.NewFromInt(100_000), TakerFee: decimal.RequireFromString("0.006"),
		MakerFee: decimal.RequireFromString("0.004"), Spread: decimal.Zero, Clock: domain.SystemClock{}}
}

// Sandbox implements domain.Exchange.
type Sandbox struct {
	opt    Options
	store  domain.LedgerStore
	prices Prices

	mu     sync.Mutex
	eng    *paper.Engine
	stale  bool                 // the engine must be rebuilt from the journal before use
	seenAt map[string]time.Time // market time of the last price matched, per symbol
	health health
	// pending are queued orders with client order ids, until journaled (under mu).
	pending map[cidKey]pendingOrder
	// recent are client order ids journaled in the last recentFor (under mu).
	recent     map[cidKey]recentOrder
	recentFIFO []cidKey
	// known holds a hash of every client order id this engine journaled or
	// found in the journal on start (under mu): an id it does not hold is
	// new, so a new order needs no journal read to rule out a retry. It is
	// only trusted while complete, i.e. loaded by the last full restore.
	known         map[uint64]struct{}
	knownComplete bool
	knownSeed     maphash.Seed

	qmu     sync.Mutex
	queue   []*entry // changes applied in memory, waiting for the journal
	writing bool     // a writeLoop is running

	updates updatefeed.Feed
}

var (
	_ domain.Exchange      = (*Sandbox)(nil)
	_ domain.OrderPipeline = (*Sandbox)(nil)
	_ domain.LiveIndex     = (*Sandbox)(nil)
)

// New restores the sandbox from the store, funding it on the first start
// and reconciling holds with the live orders.
func New(ctx context.Context, store domain.LedgerStore, prices Prices, opt Options) (*Sandbox, error) {
	if opt.Clock == nil {
		opt.Clock = domain.SystemClock{}
	}
	s := &Sandbox{opt: opt, store: store, prices: prices, seenAt: map[string]time.Time{},
		pending: map[cidKey]pendingOrder{}, recent: map[cidKey]recentOrder{},
		known: map[uint64]struct{}{}, knownSeed: maphash.MakeSeed()}
	s.eng = paper.New(paper.Config{Products: opt.Products, TakerFee: opt.TakerFee, MakerFee: opt.MakerFee, Spread: opt.Spread,
		MaxFillPerQuote: opt.MaxFillPerTick, NewID: newID})
	if err := s.restore(ctx, true); err != nil {
		return nil, fmt.Errorf("restore sandbox: %w", err)
	}
	return s, nil
}

// restore rebuilds the engine from the journal. On start it also funds a
// new account and makes holds agree with the live orders.
func (s *Sandbox) restore(ctx context.Context, starting bool) error {
	bals, err := s.store.LedgerBalances(ctx)
	if err != nil {
		return err
	}
	pos, err := s.store.LedgerPositions(ctx)
	if err != nil {
		return err
	}
	live, err := s.store.LedgerLiveOrders(ctx)
	if err != nil {
		return err
	}
	var legacy []domain.Order
	for i, o := range live {
		if o.Hold.IsZero() && o.GroupID == "" && o.HoldCurrency() != "" {
			live[i].Hold = s.eng.HoldFor(o) // written before holds were stored
			legacy = append(legacy, live[i])
		}
	}
	s.eng.Load(bals, pos, live)
	s.stale = false
	if !starting {
		return nil
	}
	if err := s.loadKnown(ctx); err != nil {
		return err
	}
	now := s.opt.Clock.Now()
	if len(bals) == 0 {
		if err := s.store.ApplyLedger(ctx, s.eng.Deposit("USD", s.opt.StartingUSD).Ledger()); err != nil {
			return err
		}
	}
	var c paper.Change
	if bad := s.eng.HoldsReconcile(); len(bad) > 0 {
		slog.Warn("sandbox holds did not match the live orders; reconciled", "mismatch", strings.Join(bad, "; "), "component", "exchange")
		c = s.eng.Reconcile(now)
	}
	c.Orders = legacy // their holds are stored from now on
	if c.Empty() {
		return nil
	}
	return s.store.ApplyLedger(ctx, c.Ledger())
}

// Name implements domain.Exchange.
func (s *Sandbox) Name() string { return "sandbox" }

// IsSandbox implements domain.Exchange.
func (s *Sandbox) IsSandbox() bool { return true }

// Products implements domain.Exchange.
func (s *Sandbox) Products(ctx context.Context) ([]domain.Product, error) {
	return s.eng.Products(), nil
}

var _ domain.FeeSchedule = (*Sandbox)(nil)

// Fees returns the taker and maker fee rates the engine charges.
func (s *Sandbox) Fees() (taker, maker decimal.Decimal) { return s.opt.TakerFee, s.opt.MakerFee }

// Balances implements domain.Exchange.
func (s *Sandbox) Balances(ctx context.Context) ([]domain.Balance, error) {
	a, err := s.Account(ctx)
	return a.Balances, err
}

// Account is one consistent snapshot of balances and position books.
func (s *Sandbox) Account(ctx context.Context) (domain.Account, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.ready(ctx); err != nil {
		return domain.Account{}, err
	}
	return domain.Account{Balances: s.eng.Balances(), Positions: s.eng.Positions()}, nil
}

// Order implements domain.Exchange: a live order from memory, any other
// from the journal.
func (s *Sandbox) Order(ctx context.Context, id string) (domain.Order, error) {
	s.mu.Lock()
	o, live := s.eng.LiveOrder(id)
	s.mu.Unlock()
	if live {
		return o, nil
	}
	return s.store.LedgerOrder(ctx, id)
}

// OrderByClientID implements domain.Exchange. An order still on its way to
// the journal is waited for, so what it returns is durable; an id the
// engine never saw is not_found without a read.
func (s *Sandbox) OrderByClientID(ctx context.Context, userID, clientID string) (domain.Order, error) {
	k := cidKey{userID, clientID}
	s.mu.Lock()
	p, queued := s.pending[k]
	maybe := queued || s.mayKnow(k)
	s.mu.Unlock()
	if !maybe {
		return domain.Order{}, domain.Errorf(domain.ENotFound, "No order with client order id %s", clientID)
	}
	if queued {
		select {
		case <-p.entry.done: // stored or failed: the journal says which
		case <-ctx.Done():
			return domain.Order{}, ctx.Err()
		}
	}
	return s.store.LedgerOrderByClientID(ctx, userID, clientID)
}

// Orders implements domain.Exchange.
func (s *Sandbox) Orders(ctx context.Context, f domain.OrderFilter) ([]domain.Order, error) {
	return s.store.LedgerOrders(ctx, f)
}

// LiveOrders implements domain.Exchange, from the engine's memory.
func (s *Sandbox) LiveOrders(ctx context.Context) ([]domain.Order, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.ready(ctx); err != nil {
		return nil, err
	}
	return s.eng.LiveOrders(), nil
}

// BuyExposure implements domain.LiveIndex, from the engine's memory.
func (s *Sandbox) BuyExposure(ctx context.Context) (map[string]decimal.Decimal, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.ready(ctx); err != nil {
		return nil, err
	}
	return s.eng.BuyExposure(), nil
}

// ProtectiveOrders implements domain.LiveIndex, from the engine's memory.
func (s *Sandbox) ProtectiveOrders(ctx context.Context, symbol string) ([]domain.Order, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.ready(ctx); err != nil {
		return nil, err
	}
	return s.eng.ProtectiveOrders(symbol), nil
}

// Fills implements domain.Exchange.
func (s *Sandbox) Fills(ctx context.Context, f domain.FillFilter) ([]domain.Fill, error) {
	return s.store.LedgerFills(ctx, f)
}

// ready rebuilds a stale engine (after a failed commit); callers hold mu.
func (s *Sandbox) ready(ctx context.Context) error {
	if !s.stale {
		return nil
	}
	if err := s.restore(ctx, false); err != nil {
		return domain.Unavailable(err, "The sandbox exchange cannot read its ledger (the database is unavailable); try again shortly")
	}
	return nil
}

// SetPrices makes the engine match on another market (the replay, or a
// live feed for paper trading on live prices). The times of the prices
// last matched belong to the old market, so they are forgotten: the next
// tick of each symbol matches on the new market's current book, and no
// order fills at the old market's price.
func (s *Sandbox) SetPrices(p Prices) {
	s.mu.Lock()
	s.prices, s.seenAt = p, map[string]time.Time{}
	s.eng.ForgetQuotes()
	s.mu.Unlock()
}
