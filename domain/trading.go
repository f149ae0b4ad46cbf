package domain

import (
	"context"
	"encoding/json"
	"fmt"
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

// OrderType is market, limit, stop_loss or trailing_stop.
type OrderType string

const (
	Market   OrderType = "market"
	Limit    OrderType = "limit"
	StopLoss OrderType = "stop_loss"
	// TrailingStop is a stop whose stop price follows the best price since
	// it was placed (or activated) at a fixed distance: Trail says how far.
	TrailingStop OrderType = "trailing_stop"
)

// Trail is a trailing stop's distance and state.
type Trail struct {
	// Percent (5 = 5%) or Amount (in the quote currency): exactly one is set.
	Percent *decimal.Decimal `json:"trail_percent,omitempty"`
	Amount  *decimal.Decimal `json:"trail_amount,omitempty"`
	// Activation, when set, is the price the market must reach (at or above
	// it for a SELL, at or below for a BUY) before the stop starts trailing.
	Activation *decimal.Decimal `json:"activation_price,omitempty"`
	// Extreme is the best price seen since activation: the high-water mark
	// of a SELL, the low-water mark of a BUY. Nil until active. It is the
	// state a restart needs, stored with the order.
	Extreme *decimal.Decimal `json:"extreme_price,omitempty"`
}

// Stop is the stop price trailing extreme by the trail on side's
// protective direction (below it for a SELL, above for a BUY), on the price
// grid step (rounded away from the market, so it never triggers early).
func (t Trail) Stop(side Side, extreme, step decimal.Decimal) decimal.Decimal {
	dist := decimal.Zero
	if t.Percent != nil {
		dist = extreme.Mul(*t.Percent).Div(decimal.NewFromInt(100))
	} else if t.Amount != nil {
		dist = *t.Amount
	}
	if side == Sell {
		return extreme.Sub(dist).Div(step).Floor().Mul(step)
	}
	return extreme.Add(dist).Div(step).Ceil().Mul(step)
}

// Same reports whether two trails ask for the same distance and activation.
func (t *Trail) Same(o *Trail) bool {
	if t == nil || o == nil {
		return t == nil && o == nil
	}
	return eqPtr(t.Percent, o.Percent) && eqPtr(t.Amount, o.Amount) && eqPtr(t.Activation, o.Activation)
}

// Trailing stop messages, shared by the gateway and the engine.
const (
	MsgTrailOne      = "Give either trail_percent or trail_amount"
	MsgTrailPercent  = "Trail percent must be above 0 and below 100"
	MsgTrailAmount   = "Trail amount must be positive"
	MsgTrailActivate = "Activation price must be positive"
)

// CheckTrail returns field errors for a trailing stop's trail (nil when
// it is valid): exactly one of a percent (0 < p < 100) or a positive
// amount, and a positive activation price when one is given.
func CheckTrail(tr *Trail) map[string]string {
	f := map[string]string{}
	switch {
	case tr == nil || (tr.Percent == nil) == (tr.Amount == nil):
		f["trail_percent"] = MsgTrailOne
	case tr.Percent != nil && (!tr.Percent.IsPositive() || tr.Percent.GreaterThanOrEqual(decimal.NewFromInt(100))):
		f["trail_percent"] = MsgTrailPercent
	case tr.Amount != nil && !tr.Amount.IsPositive():
		f["trail_amount"] = MsgTrailAmount
	}
	if tr != nil && tr.Activation != nil && !tr.Activation.IsPositive() {
		f["activation_price"] = MsgTrailActivate
	}
	if len(f) == 0 {
		return nil
	}
	return f
}

// EncodeTrail is a trail as the ledger stores it (JSON; nil for none).
func EncodeTrail(t *Trail) *string {
	if t == nil {
		return nil
	}
	b, _ := json.Marshal(t) // decimals and pointers only: cannot fail
	s := string(b)
	return &s
}

// DecodeTrail reads a stored trail; "" is none.
func DecodeTrail(dst **Trail, s string) error {
	if s == "" {
		*dst = nil
		return nil
	}
	var t Trail
	if err := json.Unmarshal([]byte(s), &t); err != nil {
		return fmt.Errorf("stored trail %q: %w", s, err)
	}
	*dst = &t
	return nil
}

// IsStop reports whether an order type triggers at a stop price.
func (t OrderType) IsStop() bool { return t == StopLoss || t == TrailingStop }

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
	Trail         *Trail           // trailing stops: distance and activation
	Strategy      string           // "" for manual
	UserID        string
	// GroupID joins protective orders (a stop-loss and a take-profit) into one
	// OCO group: they share one hold, and one filling cancels the others.
	GroupID string
	// ParentID is the BUY order whose fill this protective order guards.
	ParentID string

	// StrategyVersion is the version of the strategy's configuration that
	// asked (0 for manual orders).
	StrategyVersion int
}

// StrategyUser prefixes the UserID of the orders a strategy places
// ("strategy:<name>"): nobody sent them from a form.
const StrategyUser = "strategy:"

// ByStrategy reports whether a strategy (not a person) placed the order.
func (r OrderRequest) ByStrategy() bool { return strings.HasPrefix(r.UserID, StrategyUser) }

// SameAs reports whether two requests ask for the same order, so a repeated
// client order id can be told from a reused one.
func (r OrderRequest) SameAs(o Order) bool {
	return r.Symbol == o.Symbol && r.Side == o.Side && r.Type == o.Type && r.Quantity.Equal(o.Quantity) &&
		eqPtr(r.Price, o.Price) && (r.Type == TrailingStop || eqPtr(r.StopPrice, o.StopPrice)) && r.Trail.Same(o.Trail)
}

func eqPtr(a, b *decimal.Decimal) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(*b)
}

// Order is an order's current state.
type Order struct {
	ID            string           `json:"id"`
	ClientOrderID string           `json:"client_order_id,omitempty"`
	Symbol        string           `json:"symbol"`
	Side          Side             `json:"side"`
	Type          OrderType        `json:"order_type"`
	Quantity      decimal.Decimal  `json:"quantity"`
	Price         *decimal.Decimal `json:"price"`
	StopPrice     *decimal.Decimal `json:"stop_price,omitempty"`
	// Trail is a trailing stop's distance, activation and high-water (or
	// low-water) mark; its StopPrice is the current trigger (nil until the
	// activation price is reached).
	Trail          *Trail           `json:"trail,omitempty"`
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

	// StrategyVersion is the strategy configuration version that placed the
	// order (0: manual, or placed before versions existed).
	StrategyVersion int `json:"strategy_version"`
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
func (o Order) Remaining() decimal.Decimal { return Minus(o.Quantity, o.FilledQuantity) }

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
func (b Balance) Total() decimal.Decimal { return Plus(b.Available, b.Hold) }

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
	// Protection lists the live SELL stops (stop-loss) and SELL limits
	// (take-profit) that would close this position, from the exchange's
	// live orders when the position was read.
	Protection []ProtectiveLevel `json:"protection"`
	// ProtectionReduced is the last time Kestrel shrank or cancelled one of
	// its protective orders on this symbol to make room for a SELL, and why
	// (absent when it has not since the position was last protected).
	ProtectionReduced *ProtectionNotice `json:"protection_reduced,omitempty"`
}

// ProtectiveLevel is one live order guarding a position.
type ProtectiveLevel struct {
	OrderID string `json:"order_id"`
	// Kind is stop_loss (a SELL stop) or take_profit (a SELL limit).
	Kind  string          `json:"kind"`
	Price decimal.Decimal `json:"price"` // stop price or limit price
	// Quantity is what the order still covers (its unfilled remainder).
	Quantity decimal.Decimal `json:"quantity"`
	// Protective is true for an order Kestrel attached to a BUY fill, false
	// for one the trader placed.
	Protective bool `json:"protective"`
}

// ProtectionNotice records a protective order shrunk or cancelled by Kestrel.
type ProtectionNotice struct {
	Symbol  string          `json:"symbol"`
	OrderID string          `json:"order_id"`
	Kind    string          `json:"kind"`
	From    decimal.Decimal `json:"from_quantity"`
	To      decimal.Decimal `json:"to_quantity"` // zero when cancelled
	Reason  string          `json:"reason"`
	At      time.Time       `json:"at"`
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

// FeeSchedule is optional for an Exchange: the fee rates it charges this
// account, as fractions of a fill's notional (0.006 is 0.6%). Takers pay
// Taker (market orders, marketable limits, triggered stops), resting limits
// pay Maker. An exchange whose rates depend on the account's tier and are
// not known in advance leaves it out.
type FeeSchedule interface {
	Fees() (taker, maker decimal.Decimal)
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
	// Journaled says the update's notification event was committed with
	// it (LedgerChange.Notify), so it must not be queued again from the bus.
	Journaled bool `json:"-"`
}

// SymbolName lets the realtime hub route an update by symbol.
func (u TradeUpdate) SymbolName() string { return u.Order.Symbol }

// CheckIncrements returns field errors for a request that breaks the
// product's increments or minimum size (nil when it respects them). The
// gateway and the exchanges share it, so the rule is written once.
func (p Product) CheckIncrements(req OrderRequest) map[string]string {
	var f map[string]string // made at the first error: a valid order allocates none
	set := func(field, msg string) {
		if f == nil {
			f = map[string]string{}
		}
		f[field] = msg
	}
	switch {
	case p.SizeIncrement.IsPositive() && !multipleOf(req.Quantity, p.SizeIncrement):
		set("quantity", "Quantity must be a multiple of "+p.SizeIncrement.String())
	case req.Quantity.LessThan(p.MinSize):
		set("quantity", "Quantity must be at least "+p.MinSize.String())
	}
	for _, x := range [...]struct {
		field string
		v     *decimal.Decimal
	}{{"price", req.Price}, {"stop_price", req.StopPrice}} {
		if x.v != nil && p.PriceIncrement.IsPositive() && !multipleOf(*x.v, p.PriceIncrement) {
			set(x.field, "Price must be a multiple of "+p.PriceIncrement.String())
		}
	}
	return f
}

// multipleOf reports whether x is a whole multiple of step > 0
// (x.Mod(step) is zero), in 64-bit integers when both coefficients fit
// once on one exponent (an order's quantity and prices always do), else
// by x.Mod(step).
func multipleOf(x, step decimal.Decimal) bool {
	if x.NumDigits() <= 18 && step.NumDigits() <= 18 {
		a, b := x.CoefficientInt64(), step.CoefficientInt64()
		ea, eb := x.Exponent(), step.Exponent()
		for ; ea > eb && a > -1e17 && a < 1e17; ea-- {
			a *= 10
		}
		for ; eb > ea && b < 1e17; eb-- {
			b *= 10
		}
		if ea == eb && b > 0 {
			return a%b == 0
		}
	}
	return x.Mod(step).IsZero()
}
