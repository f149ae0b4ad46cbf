package coinbasefake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// refusal is an order refused with HTTP 200 and success false.
func refusal(code, msg, preview string) CreateOrderResponse {
	return CreateOrderResponse{Success: false, FailureReason: "UNKNOWN_FAILURE_REASON",
		ErrorResponse: &ErrorResponse{Error: code, Message: msg, ErrorDetails: msg, PreviewFailureReason: preview, NewOrderFailureReason: "UNKNOWN_FAILURE_REASON"}}
}

// strict decodes a request body into the fake's own type, refusing a field
// Coinbase's reference does not have (a 400, as Coinbase answers).
func strict(r *http.Request, into any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	return dec.Decode(into)
}

func parse(s string) (decimal.Decimal, bool) {
	d, err := decimal.NewFromString(s)
	return d, err == nil && d.IsPositive()
}

// createOrder is POST /orders: validation, funds, then matching at once
// for market and marketable orders; the rest rest with a hold.
func (f *Fake) createOrder(w http.ResponseWriter, r *http.Request, reject string) {
	var req CreateOrderRequest
	if err := strict(r, &req); err != nil {
		apiErr(w, http.StatusBadRequest, "INVALID_ARGUMENT", "malformed request: "+err.Error())
		return
	}
	if req.ClientOrderID == "" || req.ProductID == "" || (req.Side != "BUY" && req.Side != "SELL") {
		apiErr(w, http.StatusBadRequest, "INVALID_ARGUMENT", "client_order_id, product_id and side are required")
		return
	}
	f.mu.Lock()
	f.creates[req.ClientOrderID]++
	resp, o := f.create(req, reject)
	var events []userEvent
	if o != nil {
		events = f.userEvents([]*order{o})
	}
	f.mu.Unlock()
	f.user.publish(events)
	f.flushTape()
	writeJSON(w, http.StatusOK, resp)
}

// PlaceQuoteOrder places a market order sized in quote currency, as one made
// in the Coinbase app ("buy $500 of BTC") would be: outside Kestrel, so
// Kestrel learns of it from the user channel and the fills listing. It
// returns the order id, or Coinbase's refusal.
func (f *Fake) PlaceQuoteOrder(product, side, quoteSize string) (string, error) {
	f.mu.Lock()
	resp, o := f.create(CreateOrderRequest{ClientOrderID: uuid.NewString(), ProductID: product, Side: side,
		OrderConfiguration: OrderConfiguration{MarketIOC: &MarketIOC{QuoteSize: quoteSize}}}, "")
	var events []userEvent
	if o != nil {
		o.OrderPlacementSource = "RETAIL_SIMPLE"
		events = f.userEvents([]*order{o})
	}
	f.mu.Unlock()
	f.user.publish(events)
	f.flushTape()
	if !resp.Success {
		return "", fmt.Errorf("%s: %s", resp.ErrorResponse.Error, resp.ErrorResponse.Message)
	}
	return resp.OrderID, nil
}

// create validates and books an order; callers hold mu. It returns the
// answer and the order made (nil when refused or already known).
func (f *Fake) create(req CreateOrderRequest, reject string) (CreateOrderResponse, *order) {
	if prev, ok := f.byClient[req.ClientOrderID]; ok { // Coinbase: a repeated client_order_id returns the existing order
		return CreateOrderResponse{Success: true, OrderID: prev.OrderID, SuccessResponse: &SuccessResponse{
			OrderID: prev.OrderID, ProductID: prev.ProductID, Side: prev.Side, ClientOrderID: prev.ClientOrderID}, OrderConfiguration: &prev.OrderConfiguration}, nil
	}
	if reject != "" {
		return refusal(reject, "order rejected: "+reject, ""), nil
	}
	prod, ok := f.products[req.ProductID]
	if !ok {
		return refusal("INVALID_PRODUCT_ID", "product not found", "PREVIEW_INVALID_PRODUCT_ID"), nil
	}
	oc := req.OrderConfiguration
	o := &order{Order: Order{OrderID: uuid.NewString(), ProductID: req.ProductID, UserID: "fake-user", OrderConfiguration: oc, Side: req.Side,
		ClientOrderID: req.ClientOrderID, Status: "OPEN", ProductType: "SPOT", OrderPlacementSource: "RETAIL_ADVANCED", TriggerStatus: "INVALID_ORDER_TYPE",
		RejectReason: "REJECT_REASON_UNSPECIFIED"}, filled: decimal.Zero, value: decimal.Zero, fees: decimal.Zero, hold: decimal.Zero, created: f.now().UTC()}
	var sizeS, limitS, stopS string
	n := 0
	if c := oc.MarketIOC; c != nil {
		n++
		o.kind, o.OrderType, o.TimeInForce, sizeS = "market", "MARKET", "IMMEDIATE_OR_CANCEL", c.BaseSize
		if c.BaseSize == "" {
			sizeS, o.quote = c.QuoteSize, true
		}
	}
	if c := oc.LimitGTC; c != nil {
		n++
		o.kind, o.OrderType, o.TimeInForce, sizeS, limitS = "limit", "LIMIT", "GOOD_UNTIL_CANCELLED", c.BaseSize, c.LimitPrice
		if c.BaseSize == "" {
			sizeS, o.quote = c.QuoteSize, true
		}
	}
	if c := oc.StopLimitGTC; c != nil {
		n++
		o.kind, o.OrderType, o.TimeInForce, sizeS, limitS, stopS = "stop_limit", "STOP_LIMIT", "GOOD_UNTIL_CANCELLED", c.BaseSize, c.LimitPrice, c.StopPrice
		o.TriggerStatus = "STOP_PENDING"
	}
	if n != 1 || oc.LimitGTD != nil || oc.StopLimitGTD != nil {
		return refusal("UNSUPPORTED_ORDER_CONFIGURATION", "exactly one supported order configuration is required", ""), nil
	}
	var good bool
	if o.quote {
		if o.size, good = parse(sizeS); !good || !o.size.Mod(dec(prod.QuoteIncrement)).IsZero() {
			return refusal("INVALID_SIZE_PRECISION", "Invalid quote size", "PREVIEW_INVALID_QUOTE_SIZE_PRECISION"), nil
		}
		if o.size.LessThan(dec(prod.QuoteMinSize)) {
			return refusal("INVALID_SIZE", "Order size is too small", "PREVIEW_INVALID_QUOTE_SIZE_TOO_SMALL"), nil
		}
	} else {
		if o.size, good = parse(sizeS); !good || !o.size.Mod(dec(prod.BaseIncrement)).IsZero() {
			return refusal("INVALID_SIZE_PRECISION", "Invalid order size", "PREVIEW_INVALID_SIZE_PRECISION"), nil
		}
		if o.size.LessThan(dec(prod.BaseMinSize)) {
			return refusal("INVALID_SIZE", "Order size is too small", "PREVIEW_INVALID_BASE_SIZE_TOO_SMALL"), nil
		}
	}
	inc := dec(prod.PriceIncrement)
	if limitS != "" {
		if o.limit, good = parse(limitS); !good || !o.limit.Mod(inc).IsZero() {
			return refusal("INVALID_LIMIT_PRICE_PRECISION", "Invalid limit price", "PREVIEW_INVALID_LIMIT_PRICE"), nil
		}
	}
	p, priced := f.price[req.ProductID]
	if stopS != "" {
		if o.stop, good = parse(stopS); !good || !o.stop.Mod(inc).IsZero() {
			return refusal("INVALID_STOP_PRICE_PRECISION", "Invalid stop price", "PREVIEW_INVALID_STOP_PRICE"), nil
		}
		dir := oc.StopLimitGTC.StopDirection
		if dir != "STOP_DIRECTION_STOP_DOWN" && dir != "STOP_DIRECTION_STOP_UP" {
			return refusal("INVALID_STOP_DIRECTION", "Invalid stop direction", ""), nil
		}
		down := dir == "STOP_DIRECTION_STOP_DOWN"
		if priced && ((down && !o.stop.LessThan(p)) || (!down && !o.stop.GreaterThan(p))) {
			return refusal("INVALID_STOP_PRICE", "Stop price would trigger immediately", "PREVIEW_STOP_PRICE_ABOVE_LAST_TRADE_PRICE"), nil
		}
	}
	if !priced && (o.kind == "market") {
		return refusal("NO_MARKET", "No market for this product", ""), nil
	}
	takes := o.kind == "market" || (o.kind == "limit" && priced && f.marketable(o, p))
	at := p
	if !takes {
		at = o.limit
	}
	base, quote := f.acct(domain.Base(o.ProductID)), f.acct(domain.Quote(o.ProductID))
	baseNeed, quoteNeed := o.size, o.size.Mul(at) // what the order spends, before fees
	if o.quote {
		baseNeed, quoteNeed = o.size.Div(at), o.size
	}
	switch {
	case o.Side == "SELL":
		if base.available.LessThan(baseNeed) {
			return refusal("INSUFFICIENT_FUND", "Insufficient balance in source account", "PREVIEW_INSUFFICIENT_FUND"), nil
		}
		if !takes {
			o.hold = baseNeed
		}
	case takes:
		if quote.available.LessThan(quoteNeed.Mul(decimal.NewFromInt(1).Add(f.TakerFee))) {
			return refusal("INSUFFICIENT_FUND", "Insufficient balance in source account", "PREVIEW_INSUFFICIENT_FUND"), nil
		}
	default:
		rate := f.MakerFee
		if o.kind == "stop_limit" {
			rate = f.TakerFee // a triggered stop takes
		}
		o.hold = quoteNeed.Mul(decimal.NewFromInt(1).Add(rate))
		if quote.available.LessThan(o.hold) {
			return refusal("INSUFFICIENT_FUND", "Insufficient balance in source account", "PREVIEW_INSUFFICIENT_FUND"), nil
		}
	}
	holder := quote
	if o.Side == "SELL" {
		holder = base
	}
	holder.available = holder.available.Sub(o.hold)
	holder.hold = holder.hold.Add(o.hold)
	o.CreatedTime = o.created.Format(time.RFC3339Nano)
	o.sync()
	f.orders = append(f.orders, o)
	f.byID[o.OrderID] = o
	f.byClient[o.ClientOrderID] = o
	if takes {
		f.execute(o, p, "TAKER")
	}
	return CreateOrderResponse{Success: true, OrderID: o.OrderID, SuccessResponse: &SuccessResponse{
		OrderID: o.OrderID, ProductID: o.ProductID, Side: o.Side, ClientOrderID: o.ClientOrderID}, OrderConfiguration: &o.OrderConfiguration}, o
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// release returns a resting order's hold to available; callers hold mu.
func (f *Fake) release(o *order) {
	a := f.acct(domain.Quote(o.ProductID))
	if o.Side == "SELL" {
		a = f.acct(domain.Base(o.ProductID))
	}
	a.hold = a.hold.Sub(o.hold)
	a.available = a.available.Add(o.hold)
	o.hold = decimal.Zero
}

func (f *Fake) cancelOrders(w http.ResponseWriter, r *http.Request) {
	var req CancelRequest
	if err := strict(r, &req); err != nil || len(req.OrderIDs) == 0 {
		apiErr(w, http.StatusBadRequest, "INVALID_ARGUMENT", "order_ids are required")
		return
	}
	f.mu.Lock()
	out := CancelResponse{Results: []CancelResult{}}
	var changed []*order
	for _, id := range req.OrderIDs {
		o, ok := f.byID[id]
		switch {
		case !ok:
			out.Results = append(out.Results, CancelResult{OrderID: id, FailureReason: "UNKNOWN_CANCEL_ORDER"})
		case o.Status != "OPEN":
			out.Results = append(out.Results, CancelResult{OrderID: id, FailureReason: "COMMANDER_REJECTED_CANCEL_ORDER"})
		default:
			f.release(o)
			o.Status = "CANCELLED"
			o.CancelMessage = "User requested cancel"
			o.sync()
			changed = append(changed, o)
			out.Results = append(out.Results, CancelResult{OrderID: id, Success: true, FailureReason: "UNKNOWN_CANCEL_FAILURE_REASON"})
		}
	}
	events := f.userEvents(changed)
	f.mu.Unlock()
	f.user.publish(events)
	writeJSON(w, http.StatusOK, out)
}

func editFailed(w http.ResponseWriter, reason, preview string) {
	writeJSON(w, http.StatusOK, EditResponse{Success: false, Errors: []EditError{{EditFailureReason: reason, PreviewFailureReason: preview}}})
}

// editOrder is POST /orders/edit: GTC limit orders, and GTC stop-limit
// orders whose stop has not triggered (their stop_price too). The new size
// and prices take a new hold; a limit may cross the market at once; a stop
// the last trade has already reached is refused, as a new one would be.
func (f *Fake) editOrder(w http.ResponseWriter, r *http.Request, reject string) {
	var req EditRequest
	if err := strict(r, &req); err != nil {
		apiErr(w, http.StatusBadRequest, "INVALID_ARGUMENT", "malformed request")
		return
	}
	f.mu.Lock()
	var events []userEvent
	defer func() { f.mu.Unlock(); f.user.publish(events); f.flushTape() }()
	o, ok := f.byID[req.OrderID]
	if reason := f.editable(o, ok, req, reject); reason != "" {
		editFailed(w, reason, "")
		return
	}
	size, price, stop, reason, preview := f.editedTerms(o, req)
	if reason != "" || preview != "" {
		editFailed(w, reason, preview)
		return
	}
	switch {
	case size.LessThan(o.filled):
		editFailed(w, "CANNOT_EDIT_TO_BELOW_FILLED_SIZE", "")
		return
	case size.Equal(o.size) && price.Equal(o.limit) && stop.Equal(o.stop):
		editFailed(w, "EDIT_REQUEST_EQUAL_TO_ORIGINAL_REQUEST", "")
		return
	}
	hold := size
	holder := f.acct(domain.Base(o.ProductID))
	if o.Side == "BUY" {
		rate := f.MakerFee
		if o.kind == "stop_limit" {
			rate = f.TakerFee // a triggered stop takes
		}
		hold = size.Mul(price).Mul(decimal.NewFromInt(1).Add(rate))
		holder = f.acct(domain.Quote(o.ProductID))
	}
	if holder.available.Add(o.hold).LessThan(hold) {
		editFailed(w, "", "PREVIEW_INSUFFICIENT_FUND")
		return
	}
	f.release(o)
	holder.available = holder.available.Sub(hold)
	holder.hold = holder.hold.Add(hold)
	o.hold, o.size, o.limit, o.stop = hold, size, price, stop
	if c := o.OrderConfiguration.StopLimitGTC; c != nil {
		c.BaseSize, c.LimitPrice, c.StopPrice = size.String(), price.String(), stop.String()
	} else {
		o.OrderConfiguration.LimitGTC.BaseSize, o.OrderConfiguration.LimitGTC.LimitPrice = size.String(), price.String()
	}
	o.sync()
	if p, ok := f.price[o.ProductID]; ok && o.kind == "limit" && f.marketable(o, p) {
		f.execute(o, p, "TAKER")
	}
	events = f.userEvents([]*order{o})
	writeJSON(w, http.StatusOK, EditResponse{Success: true, Errors: []EditError{}})
}

// editable is the edit_failure_reason for an order that cannot be edited
// at all ("" when it can); callers hold mu.
func (f *Fake) editable(o *order, ok bool, req EditRequest, reject string) string {
	switch {
	case reject != "":
		return reject
	case !ok:
		return "ORDER_NOT_FOUND"
	case o.Status != "OPEN":
		return "ONLY_OPEN_ORDERS_CAN_BE_EDITED"
	case o.quote: // the fake edits base-sized orders only
		return "ONLY_LIMIT_ORDER_EDITS_SUPPORTED"
	case o.kind == "stop_limit" && f.noStopEdits:
		return "ONLY_LIMIT_ORDER_EDITS_SUPPORTED"
	case o.kind == "stop_limit" && o.triggered: // resting as a limit now: its stop is spent
		return "COMMANDER_REJECTED_EDIT_ORDER"
	case o.kind != "limit" && o.kind != "stop_limit":
		return "ONLY_LIMIT_ORDER_EDITS_SUPPORTED"
	case o.kind == "limit" && req.StopPrice != "":
		return "INVALID_EDITED_PRICE"
	}
	return ""
}

// editedTerms reads an edit's size, limit and stop (the stop unchanged when
// not sent), or the edit or preview failure reason that refuses them;
// callers hold mu.
func (f *Fake) editedTerms(o *order, req EditRequest) (size, price, stop decimal.Decimal, reason, preview string) {
	prod := f.products[o.ProductID]
	inc := dec(prod.PriceIncrement)
	size, okS := parse(req.Size)
	price, okP := parse(req.Price)
	stop = o.stop
	switch {
	case !okS || !size.Mod(dec(prod.BaseIncrement)).IsZero():
		return size, price, stop, "INVALID_EDITED_SIZE", ""
	case !okP || !price.Mod(inc).IsZero():
		return size, price, stop, "INVALID_EDITED_PRICE", ""
	}
	if o.kind != "stop_limit" || req.StopPrice == "" {
		return size, price, stop, "", ""
	}
	stop, okT := parse(req.StopPrice)
	if !okT || !stop.Mod(inc).IsZero() {
		return size, price, stop, "", "PREVIEW_INVALID_STOP_PRICE"
	}
	last, priced := f.price[o.ProductID]
	down := o.OrderConfiguration.StopLimitGTC.StopDirection == "STOP_DIRECTION_STOP_DOWN"
	switch {
	case priced && down && !stop.LessThan(last): // it would trigger at once
		return size, price, stop, "", "PREVIEW_STOP_PRICE_ABOVE_LAST_TRADE_PRICE"
	case priced && !down && !stop.GreaterThan(last):
		return size, price, stop, "", "PREVIEW_STOP_PRICE_BELOW_LAST_TRADE_PRICE"
	}
	return size, price, stop, "", ""
}

func (f *Fake) getOrder(w http.ResponseWriter, id string) {
	f.mu.Lock()
	o, ok := f.byID[id]
	var out Order
	if ok {
		out = o.Order
	}
	f.mu.Unlock()
	if !ok {
		apiErr(w, http.StatusNotFound, "NOT_FOUND", "order with this orderID was not found")
		return
	}
	writeJSON(w, http.StatusOK, OrderEnvelope{Order: out})
}

// PageMax caps rows per page of the order and fill listings, so tests can
// make the adapter follow cursors.
var PageMax = 250

func (f *Fake) listOrders(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	statuses, products := q["order_status"], q["product_ids"]
	var since time.Time
	if s := q.Get("start_date"); s != "" {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			apiErr(w, http.StatusBadRequest, "INVALID_ARGUMENT", "start_date must be RFC 3339")
			return
		}
		since = t
	}
	f.mu.Lock()
	var rows []Order
	for i := len(f.orders) - 1; i >= 0; i-- { // newest first
		o := f.orders[i]
		if (len(statuses) == 0 || contains(statuses, o.Status)) && (len(products) == 0 || contains(products, o.ProductID)) && !o.created.Before(since) {
			rows = append(rows, o.Order)
		}
	}
	f.mu.Unlock()
	from, to, next := page(len(rows), r, 100, PageMax)
	out := OrdersPage{Orders: append([]Order{}, rows[from:to]...), Sequence: "0", HasNext: next != "", Cursor: next}
	writeJSON(w, http.StatusOK, out)
}

func (f *Fake) listFills(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	ids, products := q["order_ids"], q["product_ids"]
	var since time.Time
	if s := q.Get("start_sequence_timestamp"); s != "" {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			apiErr(w, http.StatusBadRequest, "INVALID_ARGUMENT", "start_sequence_timestamp must be RFC 3339")
			return
		}
		since = t
	}
	f.mu.Lock()
	var rows []Fill
	for i := len(f.fills) - 1; i >= 0; i-- {
		fl := f.fills[i]
		t, _ := time.Parse(time.RFC3339Nano, fl.SequenceTimestamp)
		if (len(ids) == 0 || contains(ids, fl.OrderID)) && (len(products) == 0 || contains(products, fl.ProductID)) && !t.Before(since) {
			rows = append(rows, fl)
		}
	}
	f.mu.Unlock()
	from, to, next := page(len(rows), r, 100, PageMax)
	writeJSON(w, http.StatusOK, FillsPage{Fills: append([]Fill{}, rows[from:to]...), Cursor: next})
}
