package coinbasefake

import "encoding/json"

// The fake's own wire types, written from Coinbase's Advanced Trade API
// reference (REST v3 brokerage endpoints and the WebSocket channels), not
// from the adapter: wire_test.go decodes each documented sample payload
// (exchange/coinbase/testdata) strictly into these types and checks that
// encoding gives the sample back, so what the fake sends has Coinbase's
// field names and types. Numbers travel as decimal strings, as Coinbase
// sends them.

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
	CreatedAt        string `json:"created_at"`
	UpdatedAt        string `json:"updated_at"`
	DeletedAt        string `json:"deleted_at"`
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

// Product is GET /products/{id} and one entry of GET /products (and their
// public /market twins).
type Product struct {
	ProductID                 string `json:"product_id"`
	Price                     string `json:"price"`
	PricePercentageChange24h  string `json:"price_percentage_change_24h"`
	Volume24h                 string `json:"volume_24h"`
	VolumePercentageChange24h string `json:"volume_percentage_change_24h"`
	BaseIncrement             string `json:"base_increment"`
	QuoteIncrement            string `json:"quote_increment"`
	QuoteMinSize              string `json:"quote_min_size"`
	QuoteMaxSize              string `json:"quote_max_size"`
	BaseMinSize               string `json:"base_min_size"`
	BaseMaxSize               string `json:"base_max_size"`
	BaseName                  string `json:"base_name"`
	QuoteName                 string `json:"quote_name"`
	Watched                   bool   `json:"watched"`
	IsDisabled                bool   `json:"is_disabled"`
	New                       bool   `json:"new"`
	Status                    string `json:"status"`
	CancelOnly                bool   `json:"cancel_only"`
	LimitOnly                 bool   `json:"limit_only"`
	PostOnly                  bool   `json:"post_only"`
	TradingDisabled           bool   `json:"trading_disabled"`
	AuctionMode               bool   `json:"auction_mode"`
	ProductType               string `json:"product_type"`
	QuoteCurrencyID           string `json:"quote_currency_id"`
	BaseCurrencyID            string `json:"base_currency_id"`
	MidMarketPrice            string `json:"mid_market_price"`
	BaseDisplaySymbol         string `json:"base_display_symbol"`
	QuoteDisplaySymbol        string `json:"quote_display_symbol"`
	PriceIncrement            string `json:"price_increment,omitempty"`
}

// ProductsPage is GET /products.
type ProductsPage struct {
	Products    []Product `json:"products"`
	NumProducts int       `json:"num_products"`
}

// Candle is one bar; Start is Unix seconds.
type Candle struct {
	Start  string `json:"start"`
	Low    string `json:"low"`
	High   string `json:"high"`
	Open   string `json:"open"`
	Close  string `json:"close"`
	Volume string `json:"volume"`
}

// CandlesPage is GET /products/{id}/candles, newest first.
type CandlesPage struct {
	Candles []Candle `json:"candles"`
}

// MarketTrade is one public trade of GET /products/{id}/ticker.
type MarketTrade struct {
	TradeID   string `json:"trade_id"`
	ProductID string `json:"product_id"`
	Price     string `json:"price"`
	Size      string `json:"size"`
	Time      string `json:"time"`
	Side      string `json:"side"`
	Bid       string `json:"bid"`
	Ask       string `json:"ask"`
}

// MarketTradesPage is GET /products/{id}/ticker.
type MarketTradesPage struct {
	Trades  []MarketTrade `json:"trades"`
	BestBid string        `json:"best_bid"`
	BestAsk string        `json:"best_ask"`
}

// MarketIOC is market_market_ioc: sized in base or in quote currency.
type MarketIOC struct {
	QuoteSize string `json:"quote_size,omitempty"`
	BaseSize  string `json:"base_size,omitempty"`
}

// LimitGTC is limit_limit_gtc.
type LimitGTC struct {
	BaseSize   string `json:"base_size,omitempty"`
	QuoteSize  string `json:"quote_size,omitempty"`
	LimitPrice string `json:"limit_price"`
	PostOnly   bool   `json:"post_only"`
}

// LimitGTD is limit_limit_gtd (the fake refuses it: Kestrel never sends one).
type LimitGTD struct {
	BaseSize   string `json:"base_size"`
	LimitPrice string `json:"limit_price"`
	EndTime    string `json:"end_time"`
	PostOnly   bool   `json:"post_only"`
}

// StopLimitGTC is stop_limit_stop_limit_gtc.
type StopLimitGTC struct {
	BaseSize      string `json:"base_size"`
	LimitPrice    string `json:"limit_price"`
	StopPrice     string `json:"stop_price"`
	StopDirection string `json:"stop_direction"`
}

// StopLimitGTD is stop_limit_stop_limit_gtd (refused like LimitGTD).
type StopLimitGTD struct {
	BaseSize      string `json:"base_size"`
	LimitPrice    string `json:"limit_price"`
	StopPrice     string `json:"stop_price"`
	EndTime       string `json:"end_time"`
	StopDirection string `json:"stop_direction"`
}

// OrderConfiguration holds one order kind (the reference's sample shows all).
type OrderConfiguration struct {
	MarketIOC    *MarketIOC    `json:"market_market_ioc,omitempty"`
	LimitGTC     *LimitGTC     `json:"limit_limit_gtc,omitempty"`
	LimitGTD     *LimitGTD     `json:"limit_limit_gtd,omitempty"`
	StopLimitGTC *StopLimitGTC `json:"stop_limit_stop_limit_gtc,omitempty"`
	StopLimitGTD *StopLimitGTD `json:"stop_limit_stop_limit_gtd,omitempty"`
}

// CreateOrderRequest is POST /orders.
type CreateOrderRequest struct {
	ClientOrderID      string             `json:"client_order_id"`
	ProductID          string             `json:"product_id"`
	Side               string             `json:"side"`
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
	PreviewFailureReason  string `json:"preview_failure_reason"`
	NewOrderFailureReason string `json:"new_order_failure_reason"`
}

// CreateOrderResponse is POST /orders: HTTP 200 either way; Success says which.
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

// EditRequest is POST /orders/edit: price is a limit order's limit (a
// stop-limit's limit behind its stop), stop_price a stop-limit's trigger.
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

// Order is GET /orders/historical/{id} and one row of /batch. FilledSize
// is in base currency whatever the order was sized in; SizeInQuote says
// the configuration's size is quote_size.
type Order struct {
	OrderID              string             `json:"order_id"`
	ProductID            string             `json:"product_id"`
	UserID               string             `json:"user_id"`
	OrderConfiguration   OrderConfiguration `json:"order_configuration"`
	Side                 string             `json:"side"`
	ClientOrderID        string             `json:"client_order_id"`
	Status               string             `json:"status"`
	TimeInForce          string             `json:"time_in_force"`
	CreatedTime          string             `json:"created_time"`
	CompletionPercentage string             `json:"completion_percentage"`
	FilledSize           string             `json:"filled_size"`
	AverageFilledPrice   string             `json:"average_filled_price"`
	Fee                  string             `json:"fee"`
	NumberOfFills        string             `json:"number_of_fills"`
	FilledValue          string             `json:"filled_value"`
	PendingCancel        bool               `json:"pending_cancel"`
	SizeInQuote          bool               `json:"size_in_quote"`
	TotalFees            string             `json:"total_fees"`
	SizeInclusiveOfFees  bool               `json:"size_inclusive_of_fees"`
	TotalValueAfterFees  string             `json:"total_value_after_fees"`
	TriggerStatus        string             `json:"trigger_status"`
	OrderType            string             `json:"order_type"`
	RejectReason         string             `json:"reject_reason"`
	Settled              bool               `json:"settled"`
	ProductType          string             `json:"product_type"`
	RejectMessage        string             `json:"reject_message"`
	CancelMessage        string             `json:"cancel_message"`
	OrderPlacementSource string             `json:"order_placement_source"`
	OutstandingHold      string             `json:"outstanding_hold_amount,omitempty"`
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
// the Size is in quote currency (the order was placed with quote_size).
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
	LiquidityIndicator string `json:"liquidity_indicator"`
	SizeInQuote        bool   `json:"size_in_quote"`
	UserID             string `json:"user_id"`
	Side               string `json:"side"`
}

// FillsPage is GET /orders/historical/fills, newest first.
type FillsPage struct {
	Fills  []Fill `json:"fills"`
	Cursor string `json:"cursor"`
}

// APIError is the body of a non-2xx answer.
type APIError struct {
	Error        string `json:"error"`
	Message      string `json:"message"`
	ErrorDetails string `json:"error_details"`
}

// WSSubscribe is a subscribe message: one channel per message.
type WSSubscribe struct {
	Type       string   `json:"type"`
	ProductIDs []string `json:"product_ids,omitempty"`
	Channel    string   `json:"channel"`
	JWT        string   `json:"jwt,omitempty"`
}

// WSEnvelope is every WebSocket message; SequenceNum counts the
// connection's messages.
type WSEnvelope struct {
	Channel     string            `json:"channel"`
	ClientID    string            `json:"client_id"`
	Timestamp   string            `json:"timestamp"`
	SequenceNum int64             `json:"sequence_num"`
	Events      []json.RawMessage `json:"events"`
}

// WSHeartbeat is the heartbeats channel's event.
type WSHeartbeat struct {
	CurrentTime      string `json:"current_time"`
	HeartbeatCounter string `json:"heartbeat_counter"`
}

// WSUserOrder is an order on the user channel. CumulativeQuantity is in
// base currency; LeavesQuantity in the currency the order was sized in.
type WSUserOrder struct {
	AvgPrice             string `json:"avg_price"`
	CancelReason         string `json:"cancel_reason"`
	ClientOrderID        string `json:"client_order_id"`
	CompletionPercentage string `json:"completion_percentage"`
	ContractExpiryType   string `json:"contract_expiry_type"`
	CumulativeQuantity   string `json:"cumulative_quantity"`
	FilledValue          string `json:"filled_value"`
	LeavesQuantity       string `json:"leaves_quantity"`
	LimitPrice           string `json:"limit_price"`
	NumberOfFills        string `json:"number_of_fills"`
	OrderID              string `json:"order_id"`
	OrderSide            string `json:"order_side"`
	OrderType            string `json:"order_type"`
	OutstandingHold      string `json:"outstanding_hold_amount"`
	PostOnly             string `json:"post_only"`
	ProductID            string `json:"product_id"`
	ProductType          string `json:"product_type"`
	RejectReason         string `json:"reject_reason"`
	RetailPortfolioID    string `json:"retail_portfolio_id"`
	RiskManagedBy        string `json:"risk_managed_by"`
	Status               string `json:"status"`
	StopPrice            string `json:"stop_price"`
	TimeInForce          string `json:"time_in_force"`
	TotalFees            string `json:"total_fees"`
	TotalValueAfterFees  string `json:"total_value_after_fees"`
	TriggerStatus        string `json:"trigger_status"`
	CreationTime         string `json:"creation_time"`
	EndTime              string `json:"end_time"`
	StartTime            string `json:"start_time"`
}

// WSUserEvent is one event of the user channel (snapshot, then updates).
// Positions are futures figures the fake never has.
type WSUserEvent struct {
	Type      string          `json:"type"`
	Orders    []WSUserOrder   `json:"orders"`
	Positions json.RawMessage `json:"positions,omitempty"`
}

// WSTicker is one product on the ticker channel.
type WSTicker struct {
	Type               string `json:"type"`
	ProductID          string `json:"product_id"`
	Price              string `json:"price"`
	Volume24h          string `json:"volume_24_h"`
	Low24h             string `json:"low_24_h"`
	High24h            string `json:"high_24_h"`
	Low52w             string `json:"low_52_w"`
	High52w            string `json:"high_52_w"`
	PricePercentChg24h string `json:"price_percent_chg_24_h"`
	BestBid            string `json:"best_bid"`
	BestBidQuantity    string `json:"best_bid_quantity"`
	BestAsk            string `json:"best_ask"`
	BestAskQuantity    string `json:"best_ask_quantity"`
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
