package trading

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/risk"
)

// Spec messages (section 5, Trading form) and the gateway's own.
const (
	MsgSymbol      = "Symbol is required"
	MsgQuantity    = "Valid quantity is required"
	MsgPrice       = "Valid price is required for limit orders"
	MsgStopPrice   = "Valid stop price is required for stop orders"
	MsgSide        = "Side must be BUY or SELL"
	MsgOrderType   = "Order type must be market, limit, stop_loss or trailing_stop"
	MsgStrategyLen = "Strategy must be at most 64 characters"
	maxStrategyLen = 64
)

// Place validates, checks idempotency and risk, and submits an order. It
// returns the order and whether it is new: a repeated client order id with
// the same parameters returns the first order (not new); with different
// parameters it is a conflict.
func (s *Service) Place(ctx context.Context, req domain.OrderRequest) (domain.Order, bool, error) {
	if err := s.validate(ctx, &req); err != nil {
		return domain.Order{}, false, err
	}
	wait, prev, err := s.admit(ctx, req)
	if wait == nil {
		return prev, false, err
	}
	// The book holds the order now: the next check sees it while this one
	// is journaled, outside the lock.
	o, err := wait()
	if err != nil || o.Status == domain.StatusRejected {
		s.mu.Lock()
		s.unplaced()
		s.mu.Unlock()
	}
	if err != nil {
		if domain.ErrorCode(err) == domain.ERejected {
			s.d.Alert(ctx, "low", "Order rejected by the exchange", fmt.Sprintf("%s %s %s: %s", req.Side, req.Quantity, req.Symbol, domain.ErrorMessage(err)))
		}
		return domain.Order{}, false, err
	}
	return o, true, nil
}

// admit runs idempotency and the risk check and submits the order, under
// the lock. It returns the wait for the exchange's outcome, or (nil wait)
// the first order of a repeated client order id or the refusal.
func (s *Service) admit(ctx context.Context, req domain.OrderRequest) (func() (domain.Order, error), domain.Order, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if req.ClientOrderID != "" {
		prev, err := s.d.Exchange.OrderByClientID(ctx, req.UserID, req.ClientOrderID)
		switch {
		case err == nil && req.SameAs(prev):
			return nil, prev, nil
		case err == nil:
			return nil, domain.Order{}, domain.Errorf(domain.EConflict,
				"Client order id %s was already used for a different order (%s)", req.ClientOrderID, prev.ID)
		case domain.ErrorCode(err) != domain.ENotFound:
			return nil, domain.Order{}, err
		}
	}
	v, err := s.view(ctx, req.Symbol)
	if err != nil {
		return nil, domain.Order{}, err
	}
	ro, err := s.assess(v, req, nil)
	if err != nil {
		return nil, domain.Order{}, err
	}
	if err := risk.Check(s.d.Policy().Limits, v.snap, ro); err != nil {
		s.refused(ctx, req, err)
		return nil, domain.Order{}, err
	}
	if req.Side == domain.Sell {
		if err := s.makeRoom(ctx, v, req.Symbol, req.Quantity, "", sellWhy("placed", req)); err != nil {
			return nil, domain.Order{}, err
		}
	}
	wait := s.submit(ctx, req)
	s.placed()
	return wait, domain.Order{}, nil
}

// RefusedTitle names a risk refusal in the log, its alert and its notification.
const RefusedTitle = "Order refused by risk check"

// refused reports a risk refusal of a new order. A person's order was
// refused in the answer to their own request (the form shows the reason),
// so it is logged and handed to the notifications, never raised as a system
// alert; a strategy's order had nobody to answer, so it stays an
// operations alert, repeats merged into one.
func (s *Service) refused(ctx context.Context, req domain.OrderRequest, err error) {
	msg := fmt.Sprintf("%s %s %s: %s", req.Side, req.Quantity, req.Symbol, domain.ErrorMessage(err))
	if req.ByStrategy() {
		s.d.Alert(ctx, domain.SeverityMedium, RefusedTitle, "Strategy "+req.Strategy+": "+msg)
		return
	}
	slog.WarnContext(ctx, RefusedTitle+": "+msg, "component", "trading", "user", req.UserID)
	s.d.Refused(ctx, RefusedTitle, msg)
}

// submit hands an order to the exchange, pipelined when it can be.
func (s *Service) submit(ctx context.Context, req domain.OrderRequest) func() (domain.Order, error) {
	if p, ok := domain.Underlying(s.d.Exchange).(domain.OrderPipeline); ok {
		return p.SubmitOrder(ctx, req)
	}
	o, err := s.d.Exchange.PlaceOrder(ctx, req)
	return func() (domain.Order, error) { return o, err }
}

// Modify gives a live order a new quantity and/or price. To the risk check
// it is a new order replacing the old one: the same limits apply to the new
// quantity and price.
func (s *Service) Modify(ctx context.Context, id string, quantity, price *decimal.Decimal) (domain.Order, error) {
	return s.modify(ctx, nil, id, quantity, price, false)
}

// modify changes a live order. price is the limit price of a limit order
// and the stop price of a stop; stopOnly says the caller named it
// stop_price, which a limit order refuses rather than reading it as its
// limit.
func (s *Service) modify(ctx context.Context, by *Actor, id string, quantity, price *decimal.Decimal, stopOnly bool) (domain.Order, error) {
	if quantity == nil && price == nil {
		return domain.Order{}, domain.FieldErrors(map[string]string{"quantity": "Please provide at least one field to modify"}, "quantity")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cur, err := s.d.Exchange.Order(ctx, id)
	if err != nil {
		return domain.Order{}, err
	}
	if err := by.mayChange(cur); err != nil {
		return domain.Order{}, err
	}
	if !cur.Status.Live() || cur.Type == domain.Market {
		return domain.Order{}, domain.Errorf(domain.EConflict, "Only pending or open limit and stop orders can be modified (this one is %s)", cur.Status)
	}
	if stopOnly && price != nil && !cur.Type.IsStop() {
		return domain.Order{}, domain.FieldErrors(map[string]string{"stop_price": "Stop price applies to stop orders only; this is a " + string(cur.Type) + " order (send price)"}, "stop_price")
	}
	req := domain.OrderRequest{Symbol: cur.Symbol, Side: cur.Side, Type: cur.Type, Quantity: cur.Quantity, Price: cur.Price,
		StopPrice: cur.StopPrice, Trail: cur.Trail, Strategy: cur.Strategy, StrategyVersion: cur.StrategyVersion, UserID: cur.UserID, GroupID: cur.GroupID, ParentID: cur.ParentID}
	if cur.Type == domain.TrailingStop && price != nil {
		return domain.Order{}, domain.FieldErrors(map[string]string{"price": "A trailing stop's stop price follows the market; change its quantity, or cancel it and place a new one"}, "price")
	}
	if quantity != nil {
		req.Quantity = *quantity
	}
	if price != nil && cur.Type == domain.StopLoss {
		req.StopPrice = price
	} else if price != nil {
		req.Price = price
	}
	if err := s.validate(ctx, &req); err != nil {
		return domain.Order{}, err
	}
	if price != nil && req.Type == domain.StopLoss {
		if err := s.stopSide(req); err != nil {
			return domain.Order{}, err
		}
	}
	v, err := s.view(ctx, req.Symbol)
	if err != nil {
		return domain.Order{}, err
	}
	if req.Side == domain.Sell && req.Type.IsStop() {
		// A stop guards a position: it cannot cover more than is held
		// (free plus on hold, this order's own hold included).
		if held := v.total[domain.Base(req.Symbol)]; req.Quantity.Sub(cur.FilledQuantity).GreaterThan(held) {
			return domain.Order{}, domain.FieldErrors(map[string]string{"quantity": fmt.Sprintf(
				"Quantity must not exceed the position: %s %s held", held, domain.Base(req.Symbol))}, "quantity")
		}
	}
	ro, err := s.assess(v, req, &cur)
	if err != nil {
		return domain.Order{}, err
	}
	if err := risk.Check(s.d.Policy().Limits, v.snap, ro); err != nil {
		return domain.Order{}, err
	}
	if req.Side == domain.Sell && cur.ParentID == "" {
		if err := s.makeRoom(ctx, v, req.Symbol, req.Quantity.Sub(cur.FilledQuantity).Sub(cur.Hold), cur.ID, sellWhy("modified", req)); err != nil {
			return domain.Order{}, err
		}
	}
	if p, ok := domain.Underlying(s.d.Exchange).(domain.OrderPipeline); ok {
		wait := p.SubmitModify(ctx, id, quantity, price)
		s.mu.Unlock()
		defer s.mu.Lock()
		return wait()
	}
	return s.d.Exchange.ModifyOrder(ctx, id, quantity, price)
}

// stopSide refuses a stop price already reached: a SELL stop must be below
// the last price and a BUY stop above it, or it would trigger at once. The
// gateway checks it for every exchange (the sandbox's engine checks it too)
// so a modify on Coinbase is refused before anything is placed or cancelled.
func (s *Service) stopSide(req domain.OrderRequest) error {
	t, err := s.d.Market.Ticker(req.Symbol)
	if err != nil || !t.Price.IsPositive() {
		return nil // no price yet: the exchange decides
	}
	switch {
	case req.Side == domain.Sell && req.StopPrice.GreaterThanOrEqual(t.Price):
		return domain.FieldErrors(map[string]string{"stop_price": fmt.Sprintf(
			"Stop price must be below the current price (%s) for a SELL stop-loss", t.Price)}, "stop_price")
	case req.Side == domain.Buy && req.StopPrice.LessThanOrEqual(t.Price):
		return domain.FieldErrors(map[string]string{"stop_price": fmt.Sprintf(
			"Stop price must be above the current price (%s) for a BUY stop", t.Price)}, "stop_price")
	}
	return nil
}

// sellWhy words the SELL that took quantity from protective orders, for
// the reduced-protection notice ("a market SELL of 0.4 BTC was placed").
func sellWhy(verb string, req domain.OrderRequest) string {
	what := string(req.Type) + " SELL"
	if req.Strategy == "position_close" {
		what = "Close Position SELL"
	}
	return fmt.Sprintf("a %s of %s %s was %s", what, req.Quantity, domain.Base(req.Symbol), verb)
}

// Cancel cancels a live order. Cancelling never adds risk: always allowed.
func (s *Service) Cancel(ctx context.Context, id string) (domain.Order, error) {
	return s.d.Exchange.CancelOrder(ctx, id)
}

// validate checks a request with the spec's messages and the exchange's
// product rules; it normalises symbol, side, type and strategy.
func (s *Service) validate(ctx context.Context, req *domain.OrderRequest) error {
	f, order := map[string]string{}, []string{"symbol", "side", "quantity", "order_type", "price", "stop_price", "trail_percent", "trail_amount", "activation_price", "strategy"}
	req.Symbol = strings.ToUpper(strings.TrimSpace(req.Symbol))
	req.Side = domain.Side(strings.ToUpper(strings.TrimSpace(string(req.Side))))
	req.Type = domain.OrderType(strings.ToLower(strings.TrimSpace(string(req.Type))))
	req.Strategy = strings.TrimSpace(req.Strategy)
	products, err := s.d.Exchange.Products(ctx)
	if err != nil {
		return err
	}
	var product *domain.Product
	for i := range products {
		if products[i].Symbol == req.Symbol {
			product = &products[i]
		}
	}
	switch {
	case req.Symbol == "":
		f["symbol"] = MsgSymbol
	case product == nil:
		f["symbol"] = "Unknown symbol: " + req.Symbol
	}
	if req.Side != domain.Buy && req.Side != domain.Sell {
		f["side"] = MsgSide
	}
	if !req.Quantity.IsPositive() {
		f["quantity"] = MsgQuantity
	}
	switch req.Type {
	case domain.Market:
		req.Price, req.StopPrice = nil, nil
	case domain.Limit:
		if req.Price == nil || !req.Price.IsPositive() {
			f["price"] = MsgPrice
		}
		req.StopPrice = nil
	case domain.StopLoss:
		if req.StopPrice == nil || !req.StopPrice.IsPositive() {
			f["stop_price"] = MsgStopPrice
		}
		req.Price = nil
	case domain.TrailingStop:
		for k, m := range domain.CheckTrail(req.Trail) {
			f[k] = m
		}
		req.Price, req.StopPrice = nil, nil // the exchange sets the stop from the market
	default:
		f["order_type"] = MsgOrderType
	}
	if utf8.RuneCountInString(req.Strategy) > maxStrategyLen {
		f["strategy"] = MsgStrategyLen
	}
	if product != nil {
		for k, m := range product.CheckIncrements(*req) {
			if _, dup := f[k]; !dup {
				f[k] = m
			}
		}
	}
	if len(f) > 0 {
		return domain.FieldErrors(f, order...)
	}
	return nil
}
