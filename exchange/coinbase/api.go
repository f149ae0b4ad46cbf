package coinbase

import "encoding/json"

// The Advanced Trade REST v3 request and response shapes this adapter uses
// (brokerage endpoints). Numbers travel as decimal strings, as Coinbase
// sends them; the fake exchange serves the same types.

// Money is a value in a currency.
type Money struct {
	Value    string `json:"value"`
	Currency string `json:"currency"`
}

// Account is one currency's account (GET /accounts).
type Account struct {
	UUID             string `json:"uuid"`
	Name             string `json:"name"`
	Currency         string `json:"currency"`
	AvailableBalance Money  `json:"available_balance"`
	Default          bool   `json:"default"`
	Active           bool   `json:"active"`
	Type             string `json:"type"`
	Ready            bool   `json:"ready"`
	Hold             Money  `json:"hold"`
}

// AccountsPage is GET /accounts.
type AccountsPage struct {
	Accounts []Account `json:"accounts"`
	HasNext  bool      `json:"has_next"`
	Cursor   string    `json:"cursor"`
	Size     int       `json:"size"`
}

// Product is one entry of GET /products.
type Product struct {
	ProductID       string `json:"product_id"`
	Price           string `json:"price"`
	PriceChange24h  string `json:"price_percentage_change_24h"`
	Volume24h       string `json:"volume_24h"`
	BaseIncrement   string `json:"base_increment"`
	QuoteIncrement  string `json:"quote_increment"`
	QuoteMinSize    string `json:"quote_min_size"`
	QuoteMaxSize    string `json:"quote_max_size"`
	BaseMinSize     string `json:"base_min_size"`
	BaseMaxSize     string `json:"base_max_size"`
	PriceIncrement  string `json:"price_increment"`
	Status          string `json:"status"`
	TradingDisabled bool   `json:"trading_disabled"`
	CancelOnly      bool   `json:"cancel_only"`
	LimitOnly       bool   `json:"limit_only"`
	ProductType     string `json:"product_type"`
	BaseCurrencyID  string `json:"base_currency_id"`
	QuoteCurrencyID string `json:"quote_currency_id"`
	BaseDisplaySym  string `json:"base_display_symbol"`
	QuoteDisplaySym string `json:"quote_display_symbol"`
	MidMarketPrice  string `json:"mid_market_price"`
	IsDisabled      bool   `json:"is_disabled"`
	AuctionMode     bool   `json:"auction_mode"`
	ViewOnly        bool   `json:"view_only"`
}

// ProductsPage is GET /products.
type ProductsPage struct {
	Products    []Product `json:"products"`
	NumProducts int       `json:"num_products"`
}

// Candle is one bar of GET /products/{id}/candles; Start is Unix seconds.
type Candle struct {
	Start  string `json:"start"`
	Low    string `json:"low"`
	High   string `json:"high"`
	Open   string `json:"open"`
	Close  string `json:"close"`
	Volume string `json:"volume"`
}

// CandlesPage is GET /products/{id}/candles (newest first).
type CandlesPage struct {
	Candles []Candle `json:"candles"`
}

// Trade is one public trade of GET /products/{id}/ticker.
type Trade struct {
	TradeID   string `json:"trade_id"`
	ProductID string `json:"product_id"`
	Price     string `json:"price"`
	Size      string `json:"size"`
	Time      string `json:"time"`
	Side      string `json:"side"`
}

// TickerPage is GET /products/{id}/ticker.
type TickerPage struct {
	Trades  []Trade `json:"trades"`
	BestBid string  `json:"best_bid"`
	BestAsk string  `json:"best_ask"`
}

// MarketIOC is market_market_ioc.
type MarketIOC struct {
	BaseSize  string `json:"base_size,omitempty"`
	QuoteSize string `json:"quote_size,omitempty"`
}

// LimitGTC is limit_limit_gtc. Kestrel sends base_size; an order placed
// elsewhere may be sized in quote_size instead.
type LimitGTC struct {
	BaseSize   string `json:"base_size,omitempty"`
	QuoteSize  string `json:"quote_size,omitempty"`
	LimitPrice string `json:"limit_price"`
	PostOnly   bool   `json:"post_only"`
}

// StopLimitGTC is stop_limit_stop_limit_gtc.
type StopLimitGTC struct {
	BaseSize      string `json:"base_size"`
	LimitPrice    string `json:"limit_price"`
	StopPrice     string `json:"stop_price"`
	StopDirection string `json:"stop_direction"` // STOP_DIRECTION_STOP_DOWN | STOP_DIRECTION_STOP_UP
}

// OrderConfiguration holds exactly one of the order kinds.
type OrderConfiguration struct {
	MarketIOC    *MarketIOC    `json:"market_market_ioc,omitempty"`
	LimitGTC     *LimitGTC     `json:"limit_limit_gtc,omitempty"`
	StopLimitGTC *StopLimitGTC `json:"stop_limit_stop_limit_gtc,omitempty"`
}

// CreateOrderRequest is POST /orders.
type CreateOrderRequest struct {
	ClientOrderID      string             `json:"client_order_id"`
	ProductID          string             `json:"product_id"`
	Side               string             `json:"side"` // BUY | SELL
	OrderConfiguration OrderConfiguration `json:"order_configuration"`
}

// SuccessResponse is the accepted half of POST /orders.
type SuccessResponse struct {
	OrderID       string `json:"order_id"`
	ProductID     string `json:"product_id"`
	Side          string `json:"side"`
	ClientOrderID string `json:"client_order_id"`
}

// ErrorResponse is the refused half of POST /orders.
type ErrorResponse struct {
	Error                 string `json:"error"`
	Message               string `json:"message"`
	ErrorDetails          string `json:"error_details"`
	PreviewFailureReason  string `json:"preview_failure_reason,omitempty"`
	NewOrderFailureReason string `json:"new_order_failure_reason,omitempty"`
}

// CreateOrderResponse is POST /orders: HTTP 200 whether or not the order was
// accepted; Success says which.
type CreateOrderResponse struct {
	Success            bool                `json:"success"`
	FailureReason      string              `json:"failure_reason,omitempty"`
	OrderID            string              `json:"order_id,omitempty"`
	SuccessResponse    *SuccessResponse    `json:"success_response,omitempty"`
	ErrorResponse      *ErrorResponse      `json:"error_response,omitempty"`
	OrderConfiguration *OrderConfiguration `json:"order_configuration,omitempty"`
}

// CancelRequest is POST /orders/batch_cancel.
type CancelRequest struct {
	OrderIDs []string `json:"order_ids"`
}

// CancelResult is one order's answer to a batch cancel.
type CancelResult struct {
	Success       bool   `json:"success"`
	FailureReason string `json:"failure_reason"`
	OrderID       string `json:"order_id"`
}

// CancelResponse is POST /orders/batch_cancel.
type CancelResponse struct {
	Results []CancelResult `json:"results"`
}

// EditRequest is POST /orders/edit, for GTC limit and GTC stop-limit
// orders: Price is the limit (a stop-limit's limit behind its stop),
// StopPrice a stop-limit's trigger (absent for a limit order).
type EditRequest struct {
	OrderID   string `json:"order_id"`
	Price     string `json:"price"`
	Size      string `json:"size"`
	StopPrice string `json:"stop_price,omitempty"`
}

// EditError is one reason an edit was refused.
type EditError struct {
	EditFailureReason    string `json:"edit_failure_reason,omitempty"`
	PreviewFailureReason string `json:"preview_failure_reason,omitempty"`
}

// EditResponse is POST /orders/edit.
type EditResponse struct {
	Success bool        `json:"success"`
	Errors  []EditError `json:"errors"`
}

// Order is an order as GET /orders/historical/{id} and /batch return it.
// FilledSize is in base currency; SizeInQuote says the order was sized in
// quote currency (quote_size), so its fills' sizes are in quote too.
type Order struct {
	OrderID              string             `json:"order_id"`
	ProductID            string             `json:"product_id"`
	UserID               string             `json:"user_id"`
	OrderConfiguration   OrderConfiguration `json:"order_configuration"`
	Side                 string             `json:"side"`
	ClientOrderID        string             `json:"client_order_id"`
	Status               string             `json:"status"` // PENDING OPEN FILLED CANCELLED EXPIRED FAILED QUEUED CANCEL_QUEUED UNKNOWN_ORDER_STATUS
	TimeInForce          string             `json:"time_in_force"`
	CreatedTime          string             `json:"created_time"`
	CompletionPercentage string             `json:"completion_percentage"`
	FilledSize           string             `json:"filled_size"`
	AverageFilledPrice   string             `json:"average_filled_price"`
	NumberOfFills        string             `json:"number_of_fills"`
	FilledValue          string             `json:"filled_value"`
	PendingCancel        bool               `json:"pending_cancel"`
	SizeInQuote          bool               `json:"size_in_quote"`
	TotalFees            string             `json:"total_fees"`
	SizeInclusiveOfFees  bool               `json:"size_inclusive_of_fees"`
	TotalValueAfterFees  string             `json:"total_value_after_fees"`
	TriggerStatus        string             `json:"trigger_status"`
	OrderType            string             `json:"order_type"` // MARKET LIMIT STOP_LIMIT
	RejectReason         string             `json:"reject_reason"`
	Settled              bool               `json:"settled"`
	ProductType          string             `json:"product_type"`
	RejectMessage        string             `json:"reject_message"`
	CancelMessage        string             `json:"cancel_message"`
	OrderPlacementSource string             `json:"order_placement_source"`
	OutstandingHold      string             `json:"outstanding_hold_amount"`
	LastFillTime         string             `json:"last_fill_time,omitempty"`
}

// OrderEnvelope is GET /orders/historical/{id}.
type OrderEnvelope struct {
	Order Order `json:"order"`
}

// OrdersPage is GET /orders/historical/batch.
type OrdersPage struct {
	Orders   []Order `json:"orders"`
	Sequence string  `json:"sequence"`
	HasNext  bool    `json:"has_next"`
	Cursor   string  `json:"cursor"`
}

// Fill is one execution of GET /orders/historical/fills. With SizeInQuote
// (the order was placed with quote_size) Size is in quote currency.
type Fill struct {
	EntryID            string `json:"entry_id"`
	TradeID            string `json:"trade_id"`
	OrderID            string `json:"order_id"`
	TradeTime          string `json:"trade_time"`
	TradeType          string `json:"trade_type"`
	Price              string `json:"price"`
	Size               string `json:"size"`
	Commission         string `json:"commission"`
	ProductID          string `json:"product_id"`
	SequenceTimestamp  string `json:"sequence_timestamp"`
	LiquidityIndicator string `json:"liquidity_indicator"` // MAKER | TAKER
	SizeInQuote        bool   `json:"size_in_quote"`
	UserID             string `json:"user_id"`
	Side               string `json:"side"`
	RetailPortfolioID  string `json:"retail_portfolio_id,omitempty"`
}

// FillsPage is GET /orders/historical/fills (newest first).
type FillsPage struct {
	Fills  []Fill `json:"fills"`
	Cursor string `json:"cursor"`
}

// APIError is the body of a non-2xx answer.
type APIError struct {
	Error   string `json:"error"`
	Code    int    `json:"code,omitempty"`
	Message string `json:"message"`
	Details string `json:"error_details,omitempty"`
}

// WSSubscribe is a WebSocket subscribe (or unsubscribe) message: one
// channel per message; the user channel needs a fresh JWT (no uri claim).
type WSSubscribe struct {
	Type       string   `json:"type"` // subscribe | unsubscribe
	ProductIDs []string `json:"product_ids,omitempty"`
	Channel    string   `json:"channel"`
	JWT        string   `json:"jwt,omitempty"`
}

// WSMessage is every WebSocket message's envelope; SequenceNum counts the
// connection's messages, so a gap means one was lost.
type WSMessage struct {
	Channel     string            `json:"channel"`
	ClientID    string            `json:"client_id"`
	Timestamp   string            `json:"timestamp"`
	SequenceNum int64             `json:"sequence_num"`
	Events      []json.RawMessage `json:"events"`
}

// WSOrder is an order on the user channel.
type WSOrder struct {
	OrderID            string `json:"order_id"`
	ClientOrderID      string `json:"client_order_id"`
	CumulativeQuantity string `json:"cumulative_quantity"`
	LeavesQuantity     string `json:"leaves_quantity"`
	AvgPrice           string `json:"avg_price"`
	TotalFees          string `json:"total_fees"`
	Status             string `json:"status"`
	ProductID          string `json:"product_id"`
	CreationTime       string `json:"creation_time"`
	OrderSide          string `json:"order_side"`
	OrderType          string `json:"order_type"`
}

// WSUserEvent is one event of the user channel: a snapshot of the open
// orders on subscribing, then updates.
type WSUserEvent struct {
	Type   string    `json:"type"` // snapshot | update
	Orders []WSOrder `json:"orders"`
}

// WSTicker is one product on the ticker channel.
type WSTicker struct {
	Type               string `json:"type"`
	ProductID          string `json:"product_id"`
	Price              string `json:"price"`
	Volume24h          string `json:"volume_24_h"`
	Low24h             string `json:"low_24_h"`
	High24h            string `json:"high_24_h"`
	Low52w             string `json:"low_52_w,omitempty"`
	High52w            string `json:"high_52_w,omitempty"`
	PricePercentChg24h string `json:"price_percent_chg_24_h"`
	BestBid            string `json:"best_bid"`
	BestAsk            string `json:"best_ask"`
	BestBidQuantity    string `json:"best_bid_quantity,omitempty"`
	BestAskQuantity    string `json:"best_ask_quantity,omitempty"`
}

// WSTickerEvent is one event of the ticker channel.
type WSTickerEvent struct {
	Type    string     `json:"type"`
	Tickers []WSTicker `json:"tickers"`
}

// WSTrade is one public trade on the market_trades channel.
type WSTrade struct {
	TradeID   string `json:"trade_id"`
	ProductID string `json:"product_id"`
	Price     string `json:"price"`
	Size      string `json:"size"`
	Side      string `json:"side"`
	Time      string `json:"time"`
}

// WSTradesEvent is one event of the market_trades channel.
type WSTradesEvent struct {
	Type   string    `json:"type"`
	Trades []WSTrade `json:"trades"`
}

// WSCandle is a five-minute candle on the candles channel.
type WSCandle struct {
	Start     string `json:"start"`
	High      string `json:"high"`
	Low       string `json:"low"`
	Open      string `json:"open"`
	Close     string `json:"close"`
	Volume    string `json:"volume"`
	ProductID string `json:"product_id"`
}

// WSCandlesEvent is one event of the candles channel.
type WSCandlesEvent struct {
	Type    string     `json:"type"`
	Candles []WSCandle `json:"candles"`
}
