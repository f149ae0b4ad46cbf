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

	// StrategyVersion is the configuration version of the strategy that placed it.
	StrategyVersion int `json:"strategy_version,omitempty"`

	// Trail makes a stop-limit Kestrel's trailing stop: its distance,
	// activation and mark (the high-water mark of a SELL), kept here since
	// Coinbase has no trailing stop; the stop price is Coinbase's.
	Trail *domain.Trail `json:"trail,omitempty"`
}

// baseScale is the places a base quantity worked out from a quote amount
// keeps: Coinbase's finest base increment (0.00000001).
const baseScale = 8

// fromQuote is the base quantity a quote amount buys at price.
func fromQuote(quote, price decimal.Decimal) decimal.Decimal {
	if !price.IsPositive() {
		return decimal.Zero
	}
	return quote.DivRound(price, baseScale)
}

// quoteSized reports whether Coinbase sized the order in quote currency.
func quoteSized(o Order) bool {
	oc := o.OrderConfiguration
	return o.SizeInQuote || (oc.MarketIOC != nil && oc.MarketIOC.BaseSize == "" && oc.MarketIOC.QuoteSize != "") ||
		(oc.LimitGTC != nil && oc.LimitGTC.BaseSize == "" && oc.LimitGTC.QuoteSize != "")
}

// quantity is an order's size in base currency. A quote-sized limit is its
// quote size at its limit price; a quote-sized market order is what it
// filled once done, and while live its quote size at the average price so
// far (its filled part alone before the first fill).
func quantity(o Order, base, quote string, limit decimal.Decimal, filled decimal.Decimal) decimal.Decimal {
	if !quoteSized(o) || base != "" {
		return dec(base)
	}
	switch st := status(o.Status); {
	case limit.IsPositive():
		return fromQuote(dec(quote), limit)
	case !st.Live():
		return filled
	case dec(o.AverageFilledPrice).IsPositive():
		return fromQuote(dec(quote), dec(o.AverageFilledPrice))
	}
	return filled
}

// toOrder maps a Coinbase order onto Kestrel's, with Kestrel's own fields.
// Quantities are in base currency whatever the order was sized in.
func toOrder(o Order, m meta) domain.Order {
	out := domain.Order{ID: o.OrderID, ClientOrderID: o.ClientOrderID, Symbol: o.ProductID, Side: domain.Side(o.Side),
		Status: status(o.Status), FilledQuantity: dec(o.FilledSize), Fee: dec(o.TotalFees), Hold: dec(o.OutstandingHold),
		CreatedAt: parseTime(o.CreatedTime), UserID: m.UserID, Strategy: m.Strategy, StrategyVersion: m.StrategyVersion, GroupID: m.GroupID, ParentID: m.ParentID}
	if m.ClientID != "" {
		out.ClientOrderID = m.ClientID
	}
	oc := o.OrderConfiguration
	switch {
	case oc.MarketIOC != nil:
		out.Type, out.Quantity = domain.Market, quantity(o, oc.MarketIOC.BaseSize, oc.MarketIOC.QuoteSize, decimal.Zero, out.FilledQuantity)
	case oc.LimitGTC != nil:
		limit := dec(oc.LimitGTC.LimitPrice)
		out.Type, out.Quantity, out.Price = domain.Limit, quantity(o, oc.LimitGTC.BaseSize, oc.LimitGTC.QuoteSize, limit, out.FilledQuantity), ptr(limit)
	case oc.StopLimitGTC != nil:
		// Kestrel's stop-loss is the trigger; the protective limit is Coinbase's detail.
		out.Type, out.Quantity, out.StopPrice = domain.StopLoss, dec(oc.StopLimitGTC.BaseSize), ptr(dec(oc.StopLimitGTC.StopPrice))
		if m.Trail != nil { // a stop Kestrel trails: its current stop is Coinbase's
			tr := *m.Trail
			out.Type, out.Trail = domain.TrailingStop, &tr
		}
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

// toFill maps one Coinbase fill onto Kestrel's. A quote-sized fill's size
// is in quote currency: its base quantity is size / price ($500 at 50,000
// is 0.01 BTC), so positions, cost basis and P&L count base as always.
func toFill(f Fill, m meta) domain.Fill {
	qty, price := dec(f.Size), dec(f.Price)
	if f.SizeInQuote {
		qty = fromQuote(qty, price)
	}
	return domain.Fill{ID: f.EntryID, OrderID: f.OrderID, Symbol: f.ProductID, Side: domain.Side(f.Side), Quantity: qty,
		Price: price, Fee: dec(f.Commission), Liquidity: strings.ToLower(f.LiquidityIndicator), Strategy: m.Strategy,
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
