package trading

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
)

// Run follows the exchange's order updates until ctx ends: it publishes
// each to the realtime bus, attaches protective orders to BUY fills and
// records the portfolio value after fills. Updates are queued so the
// exchange never waits on this loop's own orders.
func (s *Service) Run(ctx context.Context) {
	in := s.d.Exchange.Updates(ctx)
	var mu sync.Mutex
	var queue []domain.TradeUpdate
	wake := make(chan struct{}, 1)
	go func() {
		for u := range in {
			mu.Lock()
			queue = append(queue, u)
			mu.Unlock()
			select {
			case wake <- struct{}{}:
			default:
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case <-wake:
		}
		mu.Lock()
		batch := queue
		queue = nil
		mu.Unlock()
		filled := false
		for _, u := range batch {
			s.handle(ctx, u)
			filled = filled || u.Fill != nil
		}
		if filled {
			if err := s.RecordPortfolio(ctx); err != nil && ctx.Err() == nil {
				slog.Warn("record portfolio value", "err", err)
			}
		}
	}
}

func (s *Service) handle(ctx context.Context, u domain.TradeUpdate) {
	if s.d.Bus != nil {
		s.d.Bus.Publish(events.TopicTradeUpdate, u, time.Now())
	}
	if u.Order.Status == domain.StatusRejected {
		s.d.Alert(ctx, "medium", "Order rejected by the exchange", fmt.Sprintf("%s %s %s %s: %s", u.Order.Type, u.Order.Side, u.Order.Quantity, u.Order.Symbol, u.Order.RejectReason))
	}
	if u.Fill != nil && u.Fill.Side == domain.Buy && u.Order.ParentID == "" {
		s.Protect(ctx, u.Order, *u.Fill)
	}
}

// Protect attaches the protective orders the settings ask for to one BUY
// fill: a stop-loss SELL at fill price x (1 - stopLossPercent) and a
// take-profit limit SELL at fill price x (1 + takeProfitPercent), for the
// filled quantity, in one one-cancels-other group. Client order ids derived
// from the fill make a retry harmless. Failures raise an alert: the
// position is then unprotected and the trader must know.
func (s *Service) Protect(ctx context.Context, parent domain.Order, f domain.Fill) []domain.Order {
	p := s.d.Policy()
	if !p.StopLoss && !p.TakeProfit {
		return nil
	}
	step := candles.PriceIncrement(f.Symbol)
	if products, err := s.d.Exchange.Products(ctx); err == nil {
		for _, pr := range products {
			if pr.Symbol == f.Symbol {
				step = pr.PriceIncrement
			}
		}
	}
	group := "protect-" + f.ID
	base := domain.OrderRequest{Symbol: f.Symbol, Side: domain.Sell, Quantity: f.Quantity, Strategy: parent.Strategy,
		UserID: parent.UserID, GroupID: group, ParentID: parent.ID}
	var reqs []domain.OrderRequest
	if p.StopLoss && p.StopLossPercent.IsPositive() {
		stop := f.Price.Mul(decimal.NewFromInt(1).Sub(p.StopLossPercent)).Div(step).Floor().Mul(step)
		r := base
		r.Type, r.StopPrice, r.ClientOrderID = domain.StopLoss, &stop, "sl-"+f.ID
		reqs = append(reqs, r)
	}
	if p.TakeProfit && p.TakeProfitPercent.IsPositive() {
		limit := f.Price.Mul(decimal.NewFromInt(1).Add(p.TakeProfitPercent)).Div(step).Ceil().Mul(step)
		r := base
		r.Type, r.Price, r.ClientOrderID = domain.Limit, &limit, "tp-"+f.ID
		reqs = append(reqs, r)
	}
	var out []domain.Order
	for _, r := range reqs {
		o, err := s.d.Exchange.PlaceOrder(ctx, r)
		if err != nil {
			s.d.Alert(ctx, "high", "Protective order not placed", fmt.Sprintf("%s %s %s for BUY %s: %s",
				r.Type, r.Quantity, r.Symbol, parent.ID, domain.ErrorMessage(err)))
			continue
		}
		out = append(out, o)
	}
	return out
}
