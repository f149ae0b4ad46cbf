package analytics

import (
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// Executed is the status of every trade history row: a row is a fill, and
// orders that have not filled (resting, protective, cancelled, rejected)
// live in the order list instead.
const Executed = "executed"

// Trade is one fill as the history screens show it: the spec's columns
// (time, symbol, side, quantity, price, total, fee, status, strategy), then
// the order's id and type, whether it was a protective order, and the P&L
// the fill realized when it sold.
type Trade struct {
	ID         string           `json:"id"`
	OrderID    string           `json:"order_id"`
	Symbol     string           `json:"symbol"`
	Side       domain.Side      `json:"side"`
	OrderType  domain.OrderType `json:"order_type"`
	Quantity   decimal.Decimal  `json:"quantity"`
	Price      decimal.Decimal  `json:"price"` // the fill's price, whatever the order type
	TotalValue decimal.Decimal  `json:"total_value"`
	Fee        decimal.Decimal  `json:"fee"`
	Status     string           `json:"status"`
	Strategy   string           `json:"strategy"`
	Timestamp  time.Time        `json:"timestamp"`
	Liquidity  string           `json:"liquidity"`
	// Protective says the fill was of a protective stop-loss or take-profit.
	Protective bool `json:"protective"`
	// RealizedPnL is set on exits (SELL fills): proceeds less this fill's fee
	// less the average cost of what it sold, buy fees included; nil on buys.
	RealizedPnL *decimal.Decimal `json:"realized_pnl"`
}

// TradesOf turns fills into history rows, newest first. Every fill is
// booked at average cost per symbol, oldest first, so an exit's realized
// P&L counts the fills before it; orders gives each fill its order's type
// (a fill whose order is unknown keeps an empty type).
func TradesOf(fills []domain.Fill, orders map[string]domain.Order) []Trade {
	sorted := inTimeOrder(fills)
	books := map[string]domain.PositionBook{}
	out := make([]Trade, 0, len(sorted))
	for _, f := range sorted {
		b, ok := books[f.Symbol]
		if !ok {
			b = domain.NewPositionBook(f.Symbol)
		}
		next := b.Apply(f)
		books[f.Symbol] = next
		o := orders[f.OrderID]
		t := Trade{ID: f.ID, OrderID: f.OrderID, Symbol: f.Symbol, Side: f.Side, OrderType: o.Type, Quantity: f.Quantity, Price: f.Price,
			TotalValue: f.Quantity.Mul(f.Price).Round(2), Fee: f.Fee, Status: Executed, Strategy: f.Strategy, Timestamp: f.Time,
			Liquidity: f.Liquidity, Protective: o.ParentID != ""}
		if f.Side == domain.Sell && b.Quantity.IsPositive() {
			r := next.Realized.Sub(b.Realized).Round(2)
			t.RealizedPnL = &r
		}
		out = append(out, t)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Timestamp.After(out[j].Timestamp) })
	return out
}
