package coinbase

import (
	"context"
	"time"

	"kestrel/domain"
)

// FillUpdates lists the fills of the traded products made at or after
// since, oldest first, each as the update refresh reports for it: with
// its order as Coinbase has it now. Only an order's last fill listed can
// have finished it, so the ones before it are told as fills of an order
// still open (order.partially_filled, not order.filled). A fill whose
// order Coinbase no longer finds is left out. It reads the fills whatever
// this adapter saw before, so a fill made while Kestrel was stopped, or
// seen just before a crash, is listed again (notify.Service.FollowFills).
func (x *Exchange) FillUpdates(ctx context.Context, since time.Time) ([]domain.TradeUpdate, error) {
	raw, err := x.c.Fills(ctx, FillQuery{Products: x.opt.Symbols, Start: since})
	if err != nil {
		return nil, err
	}
	orders := map[string]domain.Order{}
	last := map[string]int{} // order id -> index of its last fill in out
	out := make([]domain.TradeUpdate, 0, len(raw))
	for i := len(raw) - 1; i >= 0; i-- { // oldest first
		r := raw[i]
		o, ok := orders[r.OrderID]
		if !ok {
			o, err = x.Order(ctx, r.OrderID)
			if domain.ErrorCode(err) == domain.ENotFound {
				continue
			}
			if err != nil {
				return nil, err
			}
			orders[r.OrderID] = o
		}
		f := toFill(r, x.metaFor(ctx, r.OrderID))
		last[o.ID] = len(out)
		out = append(out, domain.TradeUpdate{Order: o, Fill: &f, Journaled: x.opt.FillsNotified})
	}
	for i := range out {
		if out[i].Order.Status == domain.StatusFilled && last[out[i].Order.ID] != i {
			out[i].Order.Status = domain.StatusOpen
		}
	}
	return out, nil
}
