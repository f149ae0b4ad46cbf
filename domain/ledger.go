package domain

import (
	"context"

	"github.com/shopspring/decimal"
)

// PositionBook is Kestrel's accounting of one symbol from its fills: the base
// quantity held, its cost basis (buy notional plus buy fees, reduced pro rata
// on sells: average cost) and the P&L realized by sells so far.
type PositionBook struct {
	Symbol   string
	Quantity decimal.Decimal
	Cost     decimal.Decimal
	Realized decimal.Decimal
}

// NewPositionBook is an empty book for symbol.
func NewPositionBook(symbol string) PositionBook {
	return PositionBook{Symbol: symbol, Quantity: decimal.Zero, Cost: decimal.Zero, Realized: decimal.Zero}
}

// Apply books one fill: a buy adds its notional and fee to the cost; a sell
// takes out the average cost of what it sold and realizes proceeds less fee
// less that cost. Selling more than is held realizes against what is held.
func (p PositionBook) Apply(f Fill) PositionBook {
	notional := Times(f.Quantity, f.Price)
	if f.Side == Buy {
		p.Quantity = Plus(p.Quantity, f.Quantity)
		p.Cost = Plus(Plus(p.Cost, notional), f.Fee)
		return p
	}
	costSold := p.Cost
	if f.Quantity.LessThan(p.Quantity) {
		costSold = p.Cost.Mul(f.Quantity).Div(p.Quantity).Round(8)
	}
	p.Realized = Plus(p.Realized, Minus(Minus(notional, f.Fee), costSold))
	p.Cost = Minus(p.Cost, costSold)
	p.Quantity = Minus(p.Quantity, f.Quantity)
	return p
}

// AvgPrice is the average cost per unit held (zero when flat).
func (p PositionBook) AvgPrice() decimal.Decimal {
	if !p.Quantity.IsPositive() {
		return decimal.Zero
	}
	return p.Cost.Div(p.Quantity).Round(8)
}

// Account is one consistent snapshot of balances and position books.
type Account struct {
	Balances  []Balance
	Positions []PositionBook
}

// LedgerChange is one state change of the sandbox exchange, stored atomically.
type LedgerChange struct {
	Orders    []Order        // inserted or updated
	Fills     []Fill         // inserted
	Balances  []Balance      // new full values
	Positions []PositionBook // new full values
	// Audit holds the audit entries of the requests whose orders the
	// change places (see AuditRider): stored with them or not at all.
	Audit []AuditEntry
	// Notify holds the notification events the change causes (a fill's
	// order.filled…): stored with it or not at all, routed to channels
	// afterwards (NotifyStore.RouteNotifyEvent), so a crash between the
	// commit and the delivery loses no message.
	Notify []NotifyEvent
}

// LedgerStore persists the sandbox exchange's orders, fills, balances and positions.
type LedgerStore interface {
	// ApplyLedger stores a change in one transaction. An order whose
	// (UserID, ClientOrderID) is already used by another order yields a
	// conflict error. Orders keep their Hold, GroupID and ParentID.
	ApplyLedger(ctx context.Context, c LedgerChange) error
	// LedgerOrder returns an order or not_found.
	LedgerOrder(ctx context.Context, id string) (Order, error)
	// LedgerOrderByClientID returns the user's order with that client id or
	// not_found; client ids are unique per user, looked up by index.
	LedgerOrderByClientID(ctx context.Context, userID, clientID string) (Order, error)
	// LedgerClientOrderIDs calls fn with the user and client id of every
	// order that has one, so an exchange can tell a new client order id from
	// a retry without reading the journal per order.
	LedgerClientOrderIDs(ctx context.Context, fn func(userID, clientID string)) error
	// LedgerOrders lists orders newest first.
	LedgerOrders(ctx context.Context, f OrderFilter) ([]Order, error)
	// LedgerLiveOrders lists pending and open orders, oldest first (time priority).
	LedgerLiveOrders(ctx context.Context) ([]Order, error)
	// LedgerFills lists fills newest first.
	LedgerFills(ctx context.Context, f FillFilter) ([]Fill, error)
	LedgerBalances(ctx context.Context) ([]Balance, error)
	LedgerPositions(ctx context.Context) ([]PositionBook, error)
}

// LedgerAccounts gives the sandbox's books of one paper account. The
// store's own LedgerStore is the main account (""); a promoted strategy
// version trades in an account of its own (docs/PROMOTION.md), whose
// orders, fills, balances, positions and client order ids nothing in
// another account sees.
type LedgerAccounts interface {
	LedgerFor(account string) LedgerStore
}
