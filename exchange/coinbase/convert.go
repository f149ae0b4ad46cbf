package coinbase

import (
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// dec reads a Coinbase decimal string; empty or malformed reads as zero.
func dec(s string) decimal.Decimal {
	d, err := decimal.NewFromString(strings.TrimSpace(s))
	if err != nil {
		return decimal.Zero
	}
	return d
}

func ptr(d decimal.Decimal) *decimal.Decimal { return &d }

func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

// status maps Coinbase's order status onto Kestrel's.
func status(s string) domain.OrderStatus {
	switch s {
	case "OPEN", "CANCEL_QUEUED", "EDIT_QUEUED":
		return domain.StatusOpen
	case "FILLED":
		return domain.StatusFilled
	case "CANCELLED", "EXPIRED":
		return domain.StatusCancelled
	case "FAILED":
		return domain.StatusRejected
	}
	return domain.StatusPending // PENDING, QUEUED, UNKNOWN_ORDER_STATUS
}

// statusFilter is the order_status a Kestrel status is listed by.
func statusFilter(s domain.OrderStatus) []string {
	switch s {
	case domain.StatusOpen:
		return []string{"OPEN"}
	case domain.StatusPending:
		return []string{"PENDING", "QUEUED"}
	case domain.StatusFilled:
		return []string{"FILLED"}
	case domain.StatusCancelled:
		return []string{"CANCELLED", "EXPIRED"}
	case domain.StatusRejected:
		return []string{"FAILED"}
	}
	return nil
}

// meta is what Kestrel knows of an order that Coinbase does not keep.
type meta struct {
	UserID   string `json:"user_id,omitempty"`
	ClientID string `json:"client_id,omitempty"` // Kestrel's client order id, before per-user derivation
	Strategy string `json:"strategy,omitempty"`
	GroupID  string `json:"group_id,omitempty"`
	ParentID string `json:"parent_id,omitempty"`
}

// toOrder maps a Coinbase order onto Kestrel's, with Kestrel's own fields.
func toOrder(o Order, m meta) domain.Order {
	out := domain.Order{ID: o.OrderID, ClientOrderID: o.ClientOrderID, Symbol: o.ProductID, Side: domain.Side(o.Side),
		Status: status(o.Status), FilledQuantity: dec(o.FilledSize), Fee: dec(o.TotalFees), Hold: dec(o.OutstandingHold),
		CreatedAt: parseTime(o.CreatedTime), UserID: m.UserID, Strategy: m.Strategy, GroupID: m.GroupID, ParentID: m.ParentID}
	if m.ClientID != "" {
		out.ClientOrderID = m.ClientID
	}
	oc := o.OrderConfiguration
	switch {
	case oc.MarketIOC != nil:
		out.Type, out.Quantity = domain.Market, dec(oc.MarketIOC.BaseSize)
	case oc.LimitGTC != nil:
		out.Type, out.Quantity, out.Price = domain.Limit, dec(oc.LimitGTC.BaseSize), ptr(dec(oc.LimitGTC.LimitPrice))
	case oc.StopLimitGTC != nil:
		// Kestrel's stop-loss is the trigger; the protective limit is Coinbase's detail.
		out.Type, out.Quantity, out.StopPrice = domain.StopLoss, dec(oc.StopLimitGTC.BaseSize), ptr(dec(oc.StopLimitGTC.StopPrice))
	}
	if out.FilledQuantity.IsPositive() {
		out.AvgFillPrice = ptr(dec(o.AverageFilledPrice))
	}
	if out.Status == domain.StatusRejected {
		out.RejectReason = strings.TrimSpace(o.RejectMessage + " " + o.RejectReason)
	}
	out.UpdatedAt = out.CreatedAt
	if t := parseTime(o.LastFillTime); t.After(out.UpdatedAt) {
		out.UpdatedAt = t
	}
	return out
}

// toFill maps one Coinbase fill onto Kestrel's.
func toFill(f Fill, m meta) domain.Fill {
	return domain.Fill{ID: f.EntryID, OrderID: f.OrderID, Symbol: f.ProductID, Side: domain.Side(f.Side), Quantity: dec(f.Size),
		Price: dec(f.Price), Fee: dec(f.Commission), Liquidity: strings.ToLower(f.LiquidityIndicator), Strategy: m.Strategy,
		Time: parseTime(f.TradeTime)}
}

// toProduct maps product metadata onto Kestrel's increments.
func toProduct(p Product) domain.Product {
	inc := dec(p.PriceIncrement)
	if !inc.IsPositive() {
		inc = dec(p.QuoteIncrement)
	}
	return domain.Product{Symbol: p.ProductID, BaseCurrency: p.BaseCurrencyID, QuoteCurrency: p.QuoteCurrencyID,
		PriceIncrement: inc, SizeIncrement: dec(p.BaseIncrement), MinSize: dec(p.BaseMinSize)}
}
