package domain

import (
	"context"
	"time"

	"github.com/shopspring/decimal"
)

// Side is BUY or SELL.
type Side string

const (
	Buy  Side = "BUY"
	Sell Side = "SELL"
)

// OrderType is market, limit or stop_loss.
type OrderType string

const (
	Market   OrderType = "market"
	Limit    OrderType = "limit"
	StopLoss OrderType = "stop_loss"
)

// OrderStatus follows pending -> open -> filled | cancelled, or rejected.
type OrderStatus string

const (
	StatusPending   OrderStatus = "pending"
	StatusOpen      OrderStatus = "open"
	StatusFilled    OrderStatus = "filled"
	StatusCancelled OrderStatus = "cancelled"
	StatusRejected  OrderStatus = "rejected"
)

// Live reports whether an order can still fill (and be cancelled).
func (s OrderStatus) Live() bool { return s == StatusPending || s == StatusOpen }

// Increments every order respects.
var (
	QuantityStep = decimal.New(1, -8) // 0.00000001
	PriceStep    = decimal.New(1, -2) // 0.01
)

// OrderRequest is what a trader or a strategy asks the exchange to do.
type OrderRequest struct {
	ClientOrderID string
	Symbol        string
	Side          Side
	Type          OrderType
	Quantity      decimal.Decimal
	Price         *decimal.Decimal // limit price (limit orders)
	StopPrice     *decimal.Decimal // trigger (stop-loss orders)
	Strategy      string           // "" for manual
	UserID        string
}

// Order is an order's current state.
type Order struct {
	ID             string           `json:"id"`
	ClientOrderID  string           `json:"client_order_id,omitempty"`
	Symbol         string           `json:"symbol"`
	Side           Side             `json:"side"`
	Type           OrderType        `json:"order_type"`
	Quantity       decimal.Decimal  `json:"quantity"`
	Price          *decimal.Decimal `json:"price"`
	StopPrice      *decimal.Decimal `json:"stop_price,omitempty"`
	FilledQuantity decimal.Decimal  `json:"filled_quantity"`
	AvgFillPrice   *decimal.Decimal `json:"average_fill_price"`
	Fee            decimal.Decimal  `json:"fee"`
	Status         OrderStatus      `json:"status"`
	RejectReason   string           `json:"reject_reason,omitempty"`
	Strategy       string           `json:"strategy"`
	UserID         string           `json:"user_id,omitempty"`
	CreatedAt      time.Time        `json:"created_at"`
	UpdatedAt      time.Time        `json:"updated_at"`
}

// Fill is one execution of (part of) an order.
type Fill struct {
	ID        string          `json:"id"`
	OrderID   string          `json:"order_id"`
	Symbol    string          `json:"symbol"`
	Side      Side            `json:"side"`
	Quantity  decimal.Decimal `json:"quantity"`
	Price     decimal.Decimal `json:"price"`
	Fee       decimal.Decimal `json:"fee"`
	Liquidity string          `json:"liquidity"` // maker or taker
	Strategy  string          `json:"strategy"`
	Time      time.Time       `json:"timestamp"`
}

// Balance is one currency's funds; Hold is reserved by live orders.
type Balance struct {
	Currency  string          `json:"currency"`
	Available decimal.Decimal `json:"available"`
	Hold      decimal.Decimal `json:"hold"`
}

// Position is a holding of a base currency, valued at the current price.
type Position struct {
	Symbol        string          `json:"symbol"`
	Quantity      decimal.Decimal `json:"quantity"`
	AvgPrice      decimal.Decimal `json:"avg_price"`
	CurrentPrice  decimal.Decimal `json:"current_price"`
	UnrealizedPnL decimal.Decimal `json:"unrealized_pnl"`
	RealizedPnL   decimal.Decimal `json:"realized_pnl"`
	CurrentValue  decimal.Decimal `json:"current_value"`
	PnLPercentage decimal.Decimal `json:"pnl_percentage"`
}

// OrderFilter narrows an order listing; zero values mean "any".
type OrderFilter struct {
	Status OrderStatus
	Symbol string
	Since  time.Time // created at or after (zero: any time)
	Limit  int
}

// FillFilter narrows a fill listing; newest first.
type FillFilter struct {
	Symbol string
	Since  time.Time
	Limit  int
	Offset int
}

// Exchange is the one trading interface: the sandbox, Coinbase and the
// backtester implement it, so strategies cannot tell which they talk to.
// Errors: invalid (bad request), not_found, conflict (order not in a state
// that allows it), rejected (e.g. 'Insufficient balance for this trade').
type Exchange interface {
	Name() string
	IsSandbox() bool
	// PlaceOrder submits an order. The same ClientOrderID twice returns the first order.
	PlaceOrder(ctx context.Context, req OrderRequest) (Order, error)
	// CancelOrder cancels a pending or open order.
	CancelOrder(ctx context.Context, id string) (Order, error)
	// ModifyOrder changes quantity and/or price of a pending or open limit order.
	ModifyOrder(ctx context.Context, id string, quantity, price *decimal.Decimal) (Order, error)
	Order(ctx context.Context, id string) (Order, error)
	Orders(ctx context.Context, f OrderFilter) ([]Order, error)
	Fills(ctx context.Context, f FillFilter) ([]Fill, error)
	Balances(ctx context.Context) ([]Balance, error)
	Positions(ctx context.Context) ([]Position, error)
}

// PriceStepFor is a symbol's price increment: cents, except ADA-USD which
// trades below a dollar and moves in hundredths of a cent.
func PriceStepFor(symbol string) decimal.Decimal {
	if symbol == "ADA-USD" {
		return decimal.New(1, -4)
	}
	return PriceStep
}

// TradeUpdate is one order state change, with its fill when it traded; the
// realtime channel "trades" carries it.
type TradeUpdate struct {
	Order Order `json:"order"`
	Fill  *Fill `json:"fill,omitempty"`
}

// SymbolName lets the realtime hub route an update by symbol.
func (u TradeUpdate) SymbolName() string { return u.Order.Symbol }
