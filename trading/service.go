// Package trading is the trading desk: it validates order requests with the
// spec's messages, runs the risk check, places orders on the exchange, holds
// the emergency stop, records the portfolio value over time and computes the
// performance and portfolio summaries.
package trading

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/events"
	"kestrel/risk"
)

// kvHalt is where the emergency stop survives restarts.
const kvHalt = "trading.emergency_stop"

// Store is what the desk persists.
type Store interface {
	domain.PortfolioStore
	domain.KVStore
}

// AlertFunc raises a system alert (severity critical, high, medium or low).
type AlertFunc func(ctx context.Context, severity, title, message string)

// Deps wires the desk.
type Deps struct {
	Exchange domain.Exchange
	Market   domain.MarketData
	Store    Store
	Clock    domain.Clock
	Bus      *events.Bus
	// Limits returns the current risk limits (settings may change them at any time).
	Limits func() risk.Limits
	Alert  AlertFunc
}

// Service is the trading desk.
type Service struct {
	d    Deps
	mu   sync.Mutex // serialises risk check + placement so limits cannot be raced past
	halt HaltState
	hmu  sync.RWMutex
}

// HaltState is the emergency stop.
type HaltState struct {
	Active bool      `json:"active"`
	By     string    `json:"by,omitempty"`
	At     time.Time `json:"at,omitempty"`
	Reason string    `json:"reason,omitempty"`
}

// New returns a desk, restoring a persisted emergency stop.
func New(ctx context.Context, d Deps) (*Service, error) {
	if d.Limits == nil {
		d.Limits = risk.DefaultLimits
	}
	if d.Alert == nil {
		d.Alert = func(context.Context, string, string, string) {}
	}
	s := &Service{d: d}
	raw, err := d.Store.GetValue(ctx, kvHalt)
	switch {
	case err == nil:
		if err := json.Unmarshal([]byte(raw), &s.halt); err != nil {
			return nil, fmt.Errorf("read emergency stop state: %w", err)
		}
	case domain.ErrorCode(err) != domain.ENotFound:
		return nil, err
	}
	return s, nil
}

// Halt returns the emergency-stop state.
func (s *Service) Halt() HaltState {
	s.hmu.RLock()
	defer s.hmu.RUnlock()
	return s.halt
}

// Symbols lists tradable symbols.
func (s *Service) Symbols() []string { return s.d.Market.Symbols() }

// ExchangeName and IsSandbox describe the connected exchange.
func (s *Service) ExchangeName() string { return s.d.Exchange.Name() }

// IsSandbox reports whether the exchange trades play money.
func (s *Service) IsSandbox() bool { return s.d.Exchange.IsSandbox() }

// Execute places a market order (or a limit order when order_type is limit).
func (s *Service) Execute(ctx context.Context, userID string, in ExecuteRequest) (domain.Order, error) {
	var v validator
	sym := v.symbol(in.Symbol, s.Symbols())
	side := v.side("action", in.Action)
	qty := v.quantity(in.Quantity)
	typ := domain.OrderType(strings.ToLower(strings.TrimSpace(in.OrderType)))
	if typ == "" {
		typ = domain.Market
	}
	req := domain.OrderRequest{ClientOrderID: in.ClientOrderID, Symbol: sym, Side: side, Type: typ, Quantity: qty, Strategy: strings.TrimSpace(in.Strategy), UserID: userID}
	switch typ {
	case domain.Market:
	case domain.Limit:
		req.Price = v.price("price", in.Price, msgPrice)
	default:
		v.add("order_type", "Order type must be market or limit here; use /trading/orders/stop-loss for stop-loss orders")
	}
	if err := v.err(); err != nil {
		return domain.Order{}, err
	}
	return s.place(ctx, req)
}

// PlaceLimit places a limit order.
func (s *Service) PlaceLimit(ctx context.Context, userID string, in LimitRequest) (domain.Order, error) {
	var v validator
	req := domain.OrderRequest{ClientOrderID: in.ClientOrderID, Type: domain.Limit, Strategy: strings.TrimSpace(in.Strategy), UserID: userID}
	req.Symbol = v.symbol(in.Symbol, s.Symbols())
	req.Side = v.side("side", in.Side)
	req.Quantity = v.quantity(in.Quantity)
	req.Price = v.price("price", in.Price, msgPrice)
	if err := v.err(); err != nil {
		return domain.Order{}, err
	}
	return s.place(ctx, req)
}

// PlaceStopLoss places a stop-loss order.
func (s *Service) PlaceStopLoss(ctx context.Context, userID string, in StopLossRequest) (domain.Order, error) {
	var v validator
	req := domain.OrderRequest{ClientOrderID: in.ClientOrderID, Type: domain.StopLoss, Strategy: strings.TrimSpace(in.Strategy), UserID: userID}
	req.Symbol = v.symbol(in.Symbol, s.Symbols())
	req.Side = v.side("side", in.Side)
	req.Quantity = v.quantity(in.Quantity)
	req.StopPrice = v.price("stop_price", in.StopPrice, msgStopPrice)
	if err := v.err(); err != nil {
		return domain.Order{}, err
	}
	return s.place(ctx, req)
}

// place runs the risk check and submits the order; a refusal places nothing.
func (s *Service) place(ctx context.Context, req domain.OrderRequest) (domain.Order, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if req.ClientOrderID != "" {
		// A repeated client order id returns the first order, not a risk refusal.
		if o, ok := s.findByClientID(ctx, req.ClientOrderID); ok {
			return o, nil
		}
	}
	price, err := s.expectedPrice(req)
	if err != nil {
		return domain.Order{}, err
	}
	snap, err := s.snapshot(ctx)
	if err != nil {
		return domain.Order{}, err
	}
	notional := req.Quantity.Mul(price)
	if err := risk.Check(s.d.Limits(), snap, risk.Order{Symbol: req.Symbol, Side: req.Side, Notional: notional}); err != nil {
		s.d.Alert(ctx, "medium", "Order refused by risk check", fmt.Sprintf("%s %s %s: %s", req.Side, req.Quantity, req.Symbol, domain.ErrorMessage(err)))
		return domain.Order{}, err
	}
	o, err := s.d.Exchange.PlaceOrder(ctx, req)
	if err != nil {
		if domain.ErrorCode(err) == domain.ERejected {
			s.d.Alert(ctx, "low", "Order rejected by the exchange", fmt.Sprintf("%s %s %s: %s", req.Side, req.Quantity, req.Symbol, domain.ErrorMessage(err)))
		}
		return domain.Order{}, err
	}
	return o, nil
}

func (s *Service) findByClientID(ctx context.Context, id string) (domain.Order, bool) {
	orders, err := s.d.Exchange.Orders(ctx, domain.OrderFilter{Limit: 1000})
	if err != nil {
		return domain.Order{}, false
	}
	for _, o := range orders {
		if o.ClientOrderID == id {
			return o, true
		}
	}
	return domain.Order{}, false
}

// expectedPrice is what the order is valued at for the risk check: its limit
// or stop price, or the side of the book a market order would take.
func (s *Service) expectedPrice(req domain.OrderRequest) (decimal.Decimal, error) {
	if req.Price != nil {
		return *req.Price, nil
	}
	if req.StopPrice != nil {
		return *req.StopPrice, nil
	}
	t, err := s.d.Market.Ticker(req.Symbol)
	if err != nil {
		return decimal.Zero, err
	}
	if req.Side == domain.Buy && t.Ask.IsPositive() {
		return t.Ask, nil
	}
	if req.Side == domain.Sell && t.Bid.IsPositive() {
		return t.Bid, nil
	}
	return t.Price, nil
}

// Cancel cancels a pending or open order.
func (s *Service) Cancel(ctx context.Context, id string) (domain.Order, error) {
	return s.d.Exchange.CancelOrder(ctx, id)
}

// Modify changes a pending or open limit order's quantity and/or price.
func (s *Service) Modify(ctx context.Context, id string, in ModifyRequest) (domain.Order, error) {
	if !in.Quantity.Set && !in.Price.Set {
		return domain.Order{}, domain.FieldErrors(map[string]string{"quantity": "Please provide at least one field to modify"}, "quantity")
	}
	var v validator
	var qty, price *decimal.Decimal
	if in.Quantity.Set {
		q := v.quantity(in.Quantity)
		qty = &q
	}
	if in.Price.Set {
		price = v.price("price", in.Price, msgPrice)
	}
	if err := v.err(); err != nil {
		return domain.Order{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.Halt().Active {
		return domain.Order{}, domain.Errorf(domain.ERejected, "Trading is halted: emergency stop is active")
	}
	return s.d.Exchange.ModifyOrder(ctx, id, qty, price)
}

// Stop is the emergency stop: it halts trading, cancels every live order and
// raises a critical alert. It returns the orders it cancelled.
func (s *Service) Stop(ctx context.Context, by, reason string) ([]domain.Order, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if reason == "" {
		reason = "Emergency stop pressed"
	}
	h := HaltState{Active: true, By: by, At: s.d.Clock.Now(), Reason: reason}
	if err := s.saveHalt(ctx, h); err != nil {
		return nil, err
	}
	cancelled, err := s.cancelAll(ctx)
	msg := fmt.Sprintf("Trading halted by %s; %d open order(s) cancelled", by, len(cancelled))
	if err != nil {
		msg += "; some orders could not be cancelled: " + err.Error()
	}
	s.d.Alert(ctx, "critical", "Emergency stop active", msg)
	slog.Warn("emergency stop", "by", by, "cancelled", len(cancelled), "err", err)
	return cancelled, err
}

// Resume lifts the emergency stop.
func (s *Service) Resume(ctx context.Context, by string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.saveHalt(ctx, HaltState{}); err != nil {
		return err
	}
	s.d.Alert(ctx, "medium", "Trading resumed", "Emergency stop lifted by "+by)
	slog.Info("trading resumed", "by", by)
	return nil
}

func (s *Service) saveHalt(ctx context.Context, h HaltState) error {
	b, _ := json.Marshal(h)
	if err := s.d.Store.PutValue(ctx, kvHalt, string(b)); err != nil {
		return err
	}
	s.hmu.Lock()
	s.halt = h
	s.hmu.Unlock()
	return nil
}

func (s *Service) cancelAll(ctx context.Context) ([]domain.Order, error) {
	var cancelled []domain.Order
	var errs []string
	for _, st := range []domain.OrderStatus{domain.StatusPending, domain.StatusOpen} {
		orders, err := s.d.Exchange.Orders(ctx, domain.OrderFilter{Status: st, Limit: 100000})
		if err != nil {
			return cancelled, err
		}
		for _, o := range orders {
			c, err := s.d.Exchange.CancelOrder(ctx, o.ID)
			if err != nil {
				errs = append(errs, o.ID+": "+domain.ErrorMessage(err))
				continue
			}
			cancelled = append(cancelled, c)
		}
	}
	if len(errs) > 0 {
		return cancelled, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return cancelled, nil
}
