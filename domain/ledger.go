package domain

import (
	"context"

	"github.com/shopspring/decimal"
)

// PositionBook is the sandbox's bookkeeping for one symbol: the base quantity
// held, its cost basis (buy notional plus buy fees, reduced pro rata on sells)
// and the P&L realized by sells so far.
type PositionBook struct {
	Symbol   string
	Quantity decimal.Decimal
	Cost     decimal.Decimal
	Realized decimal.Decimal
}

// LedgerChange is one state change of the sandbox exchange, stored atomically.
type LedgerChange struct {
	Orders    []Order        // inserted or updated
	Fills     []Fill         // inserted
	Balances  []Balance      // new full values
	Positions []PositionBook // new full values
}

// LedgerStore persists the sandbox exchange's orders, fills, balances and positions.
type LedgerStore interface {
	// ApplyLedger stores a change in one transaction. An order whose
	// ClientOrderID is already used by another order yields a conflict error.
	ApplyLedger(ctx context.Context, c LedgerChange) error
	// LedgerOrder returns an order or not_found.
	LedgerOrder(ctx context.Context, id string) (Order, error)
	// LedgerOrderByClientID returns the order with that client id or not_found.
	LedgerOrderByClientID(ctx context.Context, clientID string) (Order, error)
	// LedgerOrders lists orders newest first.
	LedgerOrders(ctx context.Context, f OrderFilter) ([]Order, error)
	// LedgerLiveOrders lists pending and open orders, oldest first (time priority).
	LedgerLiveOrders(ctx context.Context) ([]Order, error)
	// LedgerFills lists fills newest first.
	LedgerFills(ctx context.Context, f FillFilter) ([]Fill, error)
	LedgerBalances(ctx context.Context) ([]Balance, error)
	LedgerPositions(ctx context.Context) ([]PositionBook, error)
}
