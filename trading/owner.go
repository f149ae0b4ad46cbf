package trading

import (
	"context"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// Actor is the person asking for an order change. Traders see every order
// but change only their own (protective orders belong to the owner of the
// order they protect); operators change any, and the audit log names them.
type Actor struct {
	UserID   string
	Operator bool
}

// ActorOf is u as an Actor.
func ActorOf(u domain.User) *Actor {
	return &Actor{UserID: u.ID, Operator: u.Role == domain.RoleOperator}
}

// mayChange refuses a trader's change of an order that is not theirs. A
// nil Actor is Kestrel itself (the emergency stop, the strategies).
func (a *Actor) mayChange(o domain.Order) error {
	if a == nil || a.Operator || (o.UserID != "" && o.UserID == a.UserID) {
		return nil
	}
	return domain.Errorf(domain.EForbidden, "This order belongs to another user; traders change only their own orders")
}

// ModifyAs is Modify on behalf of by: a trader's change of another user's
// order is refused (403) before anything is checked or changed.
func (s *Service) ModifyAs(ctx context.Context, by *Actor, id string, quantity, price *decimal.Decimal) (domain.Order, error) {
	return s.modify(ctx, by, id, quantity, price, false)
}

// ModifyStopAs is ModifyAs with the price named stop_price: a stop order's
// trigger, refused (400) for a limit order.
func (s *Service) ModifyStopAs(ctx context.Context, by *Actor, id string, quantity, stopPrice *decimal.Decimal) (domain.Order, error) {
	return s.modify(ctx, by, id, quantity, stopPrice, true)
}

// CancelAs is Cancel on behalf of by: a trader cancels only their own
// orders (an operator's cancel is not read first, so it costs no more).
func (s *Service) CancelAs(ctx context.Context, by *Actor, id string) (domain.Order, error) {
	if by != nil && !by.Operator {
		cur, err := s.d.Exchange.Order(ctx, id)
		if err != nil {
			return domain.Order{}, err
		}
		if err := by.mayChange(cur); err != nil {
			return domain.Order{}, err
		}
	}
	return s.Cancel(ctx, id)
}
