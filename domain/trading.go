package domain

import (
	"context"
	"strings"
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
	// GroupID joins protective orders (a stop-loss and a take-profit) into one
	// OCO group: they share one hold, and one filling cancels the others.
	GroupID string
	// ParentID is the BUY order whose fill this protective order guards.
	ParentID string
}

// SameAs reports whether two requests ask for the same order, so a repeated
// client order id can be told from a reused one.
func (r OrderRequest) SameAs(o Order) bool {
	return r.Symbol == o.Symbol && r.Side == o.Side && r.Type == o.Type && r.Quantity.Equal(o.Quantity) &&
		eqPtr(r.Price, o.Price) && eqPtr(r.StopPrice, o.StopPrice)
}

func eqPtr(a, b *decimal.Decimal) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(*b)
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
	// Hold is what the order still reserves, in HoldCurrency; it is fixed when
	// the order rests and stored with it, so a later fee change cannot alter it.
	Hold         decimal.Decimal `json:"hold"`
	GroupID      string          `json:"group_id,omitempty"`
	ParentID     string          `json:"parent_order_id,omitempty"`
	Status       OrderStatus     `json:"status"`
	RejectReason string          `json:"reject_reason,omitempty"`
	Strategy     string          `json:"strategy"`
	UserID       string          `json:"user_id,omitempty"`
	CreatedAt    time.Time       `json:"created_at"`
	UpdatedAt    time.Time       `json:"updated_at"`
}

// Base is the currency a symbol trades (BTC for BTC-USD).
func Base(symbol string) string { b, _, _ := strings.Cut(symbol, "-"); return b }

// Quote is the currency a symbol is priced in (USD for BTC-USD).
func Quote(symbol string) string { _, q, _ := strings.Cut(symbol, "-"); return q }

// HoldCurrency is what a resting order reserves: the base currency for sells,
// the quote currency for buy limits, nothing for buy stops (funds are checked
// when they trigger).
func (o Order) HoldCurrency() string {
	switch {
	case o.Side == Sell:
		return Base(o.Symbol)
	case o.Type == Limit:
		return Quote(o.Symbol)
	}
	return ""
}

// Remaining is the quantity still to fill.
func (o Order) Remaining() decimal.Decimal { return o.Quantity.Sub(o.FilledQuantity) }

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

// Total is available plus hold.
func (b Balance) Total() decimal.Decimal { return b.Available.Add(b.Hold) }

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

// Product is a symbol's trading rules, as the exchange publishes them.
type Product struct {
	Symbol         string          `json:"symbol"`
	BaseCurrency   string          `json:"base_currency"`
	QuoteCurrency  string          `json:"quote_currency"`
	PriceIncrement decimal.Decimal `json:"price_increment"`
	SizeIncrement  decimal.Decimal `json:"base_increment"`
	MinSize        decimal.Decimal `json:"base_min_size"`
}

// Exchange is the one trading interface: the sandbox and Coinbase implement
// it, so the gateway (and the strategies behind it) cannot tell which they
// talk to. Positions are not part of it: cost basis and P&L are Kestrel's
// own accounting of fills, not something a spot exchange reports.
// Errors: invalid (bad request), not_found, conflict (order not in a state
// that allows it), rejected (e.g. 'Insufficient balance for this trade'),
// unavailable (no price yet, exchange unreachable).
type Exchange interface {
	Name() string
	IsSandbox() bool
	// Products lists the tradable symbols with their increments and minimum sizes.
	Products(ctx context.Context) ([]Product, error)
	// PlaceOrder submits an order. The same (UserID, ClientOrderID) twice returns the first order.
	PlaceOrder(ctx context.Context, req OrderRequest) (Order, error)
	// CancelOrder cancels a pending or open order.
	CancelOrder(ctx context.Context, id string) (Order, error)
	// ModifyOrder changes quantity and/or price of a pending or open limit or
	// stop order; a limit made marketable fills at once as a taker.
	ModifyOrder(ctx context.Context, id string, quantity, price *decimal.Decimal) (Order, error)
	Order(ctx context.Context, id string) (Order, error)
	// OrderByClientID returns the user's order with that client id, or not_found.
	OrderByClientID(ctx context.Context, userID, clientID string) (Order, error)
	Orders(ctx context.Context, f OrderFilter) ([]Order, error)
	// LiveOrders lists the pending and open orders, oldest first (the risk
	// check reads them on every order, so an adapter should answer from
	// memory where it can).
	LiveOrders(ctx context.Context) ([]Order, error)
	Fills(ctx context.Context, f FillFilter) ([]Fill, error)
	// Balances is one consistent snapshot of every currency's funds.
	Balances(ctx context.Context) ([]Balance, error)
	// Updates delivers every committed order change (with its fill) from now
	// until ctx ends, in order. Receivers must keep up: the stream is not lossy.
	Updates(ctx context.Context) <-chan TradeUpdate
}

// OrderPipeline is optional for an Exchange: it takes a place or modify into
// its book at once and returns a wait that reports the outcome once it is
// durable. The gateway holds its risk lock only until the submit returns,
// so concurrent orders share the exchange's journal commits (group commit).
// The book, and so the next risk check, already counts a submitted order.
type OrderPipeline interface {
	SubmitOrder(ctx context.Context, req OrderRequest) (wait func() (Order, error))
	SubmitModify(ctx context.Context, id string, quantity, price *decimal.Decimal) (wait func() (Order, error))
}

// LiveIndex is optional for an Exchange: what the risk check needs from the
// live orders without copying the whole book on every order.
type LiveIndex interface {
	// BuyExposure is, per symbol, what the live BUY orders add if they fill
	// (remaining quantity x limit or stop price).
	BuyExposure(ctx context.Context) (map[string]decimal.Decimal, error)
	// ProtectiveOrders lists symbol's live SELLs attached to a BUY (ParentID
	// set), oldest first.
	ProtectiveOrders(ctx context.Context, symbol string) ([]Order, error)
}

// Switcher is an Exchange that stands for another chosen at run time (the
// app switches venues when the settings change). The optional interfaces
// above are those of the current one: see Underlying.
type Switcher interface {
	Current() Exchange
}

// Underlying is the exchange x stands for now: x itself, or a Switcher's
// current exchange, so a caller can look up OrderPipeline and LiveIndex.
func Underlying(x Exchange) Exchange {
	for {
		sw, ok := x.(Switcher)
		if !ok {
			return x
		}
		x = sw.Current()
	}
}

// TradeUpdate is one order state change, with its fill when it traded; the
// realtime channel "trades" carries it.
type TradeUpdate struct {
	Order Order `json:"order"`
	Fill  *Fill `json:"fill,omitempty"`
}

// SymbolName lets the realtime hub route an update by symbol.
func (u TradeUpdate) SymbolName() string { return u.Order.Symbol }

// CheckIncrements returns field errors for a request that breaks the
// product's increments or minimum size (nil when it respects them). The
// gateway and the exchanges share it, so the rule is written once.
func (p Product) CheckIncrements(req OrderRequest) map[string]string {
	f := map[string]string{}
	switch {
	case p.SizeIncrement.IsPositive() && !req.Quantity.Mod(p.SizeIncrement).IsZero():
		f["quantity"] = "Quantity must be a multiple of " + p.SizeIncrement.String()
	case req.Quantity.LessThan(p.MinSize):
		f["quantity"] = "Quantity must be at least " + p.MinSize.String()
	}
	for field, v := range map[string]*decimal.Decimal{"price": req.Price, "stop_price": req.StopPrice} {
		if v != nil && p.PriceIncrement.IsPositive() && !v.Mod(p.PriceIncrement).IsZero() {
			f[field] = "Price must be a multiple of " + p.PriceIncrement.String()
		}
	}
	if len(f) == 0 {
		return nil
	}
	return f
}
