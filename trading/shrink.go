package trading

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// replaceSmaller shrinks protective order m by take when the exchange
// refused to edit it (a Coinbase that edits limit orders only answers 409
// for a stop). A trailing stop keeps its trail and mark. A conflict is only "it filled or went" when the order is indeed no
// longer live; a live one is cancelled and placed again for what remains,
// in the same group, with the same parent and prices, so the position is
// unprotected only between the cancel and the new order. The exchange
// holds the funds of each order, so the new one cannot come first.
func (s *Service) replaceSmaller(ctx context.Context, m domain.Order, take decimal.Decimal) error {
	cur, err := s.d.Exchange.Order(ctx, m.ID)
	if err != nil {
		return err
	}
	if !cur.Status.Live() {
		return domain.Errorf(domain.EConflict, "protective order %s is %s", m.ID, cur.Status)
	}
	cancelled, err := s.d.Exchange.CancelOrder(ctx, m.ID)
	if err != nil {
		return err
	}
	// It may have filled in part before the cancel: protect what it still
	// held, less what the SELL takes.
	rest := cancelled.Quantity.Sub(cancelled.FilledQuantity).Sub(take)
	if !rest.IsPositive() {
		return nil
	}
	req := domain.OrderRequest{Symbol: cur.Symbol, Side: cur.Side, Type: cur.Type, Quantity: rest, Price: cur.Price,
		StopPrice: cur.StopPrice, Trail: cur.Trail, Strategy: cur.Strategy, StrategyVersion: cur.StrategyVersion, UserID: cur.UserID, GroupID: cur.GroupID, ParentID: cur.ParentID,
		// Derived from the order replaced and the size: a retry of this
		// SELL finds the replacement instead of placing a second one.
		ClientOrderID: fmt.Sprintf("rp-%s-%s", cur.ID, rest)}
	if _, err := s.d.Exchange.PlaceOrder(ctx, req); err != nil {
		// The SELL goes on (a trader is never trapped), but the trader
		// must know the rest of the position is unprotected.
		s.d.Alert(ctx, "high", protectiveFailed(err), fmt.Sprintf("%s %s %s replacing %s: %s",
			req.Type, req.Quantity, req.Symbol, cur.ID, domain.ErrorMessage(err)))
	}
	return nil
}
