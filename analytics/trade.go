package analytics

import (
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// The statuses of the trade history.
const (
	Executed  = "executed"
	Pending   = "pending"
	Failed    = "failed"
	Cancelled = "cancelled"
)

// Trade is an order as the history screens show it.
type Trade struct {
	ID         string           `json:"id"`
	OrderID    string           `json:"order_id"`
	Symbol     string           `json:"symbol"`
	Side       domain.Side      `json:"side"`
	OrderType  domain.OrderType `json:"order_type"`
	Quantity   decimal.Decimal  `json:"quantity"`
	Price      *decimal.Decimal `json:"price"`
	TotalValue decimal.Decimal  `json:"total_value"`
	Fee        decimal.Decimal  `json:"fee"`
	Status     string           `json:"status"`
	Strategy   string           `json:"strategy"`
	Timestamp  time.Time        `json:"timestamp"`
	Reason     string           `json:"reason,omitempty"`
	// FilledQuantity is what traded; CancelledQuantity the remainder of an
	// order that partly filled and was then cancelled.
	FilledQuantity    decimal.Decimal  `json:"filled_quantity"`
	CancelledQuantity *decimal.Decimal `json:"cancelled_quantity,omitempty"`
}

// TradeStatus maps an order's status to the history's: filled is executed,
// pending and open are pending, cancelled is executed when part of it filled
// (the remainder is noted) and cancelled otherwise, anything else failed.
func TradeStatus(o domain.Order) string {
	switch o.Status {
	case domain.StatusFilled:
		return Executed
	case domain.StatusPending, domain.StatusOpen:
		return Pending
	case domain.StatusCancelled:
		if o.FilledQuantity.IsPositive() {
			return Executed
		}
		return Cancelled
	}
	return Failed
}

// TradeOf is an order as a history row. Once anything filled, the row shows
// what filled at its average price; before that, the order's limit (or stop)
// price and quantity. A filled order is stamped with its last update.
func TradeOf(o domain.Order) Trade {
	t := Trade{ID: o.ID, OrderID: o.ID, Symbol: o.Symbol, Side: o.Side, OrderType: o.Type, Quantity: o.Quantity, Fee: o.Fee,
		Status: TradeStatus(o), Strategy: o.Strategy, Timestamp: o.CreatedAt, Reason: o.RejectReason, FilledQuantity: o.FilledQuantity}
	switch {
	case o.AvgFillPrice != nil:
		t.Price = o.AvgFillPrice
		if o.FilledQuantity.IsPositive() {
			t.Quantity = o.FilledQuantity
		}
	case o.Price != nil:
		t.Price = o.Price
	case o.StopPrice != nil:
		t.Price = o.StopPrice
	}
	if t.Price != nil {
		t.TotalValue = t.Quantity.Mul(*t.Price).Round(2)
	}
	if o.Status == domain.StatusCancelled && o.FilledQuantity.IsPositive() {
		rest := o.Remaining()
		t.CancelledQuantity = &rest
	}
	if o.Status == domain.StatusFilled {
		t.Timestamp = o.UpdatedAt
	}
	return t
}
