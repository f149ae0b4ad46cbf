package coinbasefake

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"kestrel/domain"
	cb "kestrel/exchange/coinbase"
)

func failed(w http.ResponseWriter, code, msg, preview string) {
	writeJSON(w, http.StatusOK, cb.CreateOrderResponse{Success: false, FailureReason: "UNKNOWN_FAILURE_REASON",
		ErrorResponse: &cb.ErrorResponse{Error: code, Message: msg, ErrorDetails: msg, PreviewFailureReason: preview}})
}

func parse(s string) (decimal.Decimal, bool) {
	d, err := decimal.NewFromString(s)
	return d, err == nil && d.IsPositive()
}

// createOrder is POST /orders: validation, funds, then matching at once
// for market and marketable orders; the rest rest with a hold.
func (f *Fake) createOrder(w http.ResponseWriter, r *http.Request, reject string) {
	var req cb.CreateOrderRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		apiErr(w, http.StatusBadRequest, "INVALID_ARGUMENT", "malformed request: "+err.Error())
		return
	}
	if req.ClientOrderID == "" || req.ProductID == "" || (req.Side != "BUY" && req.Side != "SELL") {
		apiErr(w, http.StatusBadRequest, "INVALID_ARGUMENT", "client_order_id, product_id and side are required")
		return
	}
	f.mu.Lock()
	var events []userEvent
	defer func() { f.mu.Unlock(); f.user.publish(events); f.flushTape() }()
	if prev, ok := f.byClient[req.ClientOrderID]; ok { // Coinbase: a repeated client_order_id returns the existing order
		writeJSON(w, http.StatusOK, cb.CreateOrderResponse{Success: true, OrderID: prev.OrderID, SuccessResponse: &cb.SuccessResponse{
			OrderID: prev.OrderID, ProductID: prev.ProductID, Side: prev.Side, ClientOrderID: prev.ClientOrderID}, OrderConfiguration: &prev.OrderConfiguration})
		return
	}
	if reject != "" {
		failed(w, reject, "order rejected: "+reject, "")
		return
	}
	prod, ok := f.products[req.ProductID]
	if !ok {
		failed(w, "INVALID_PRODUCT_ID", "product not found", "PREVIEW_INVALID_PRODUCT_ID")
		return
	}
	oc := req.OrderConfiguration
	o := &order{Order: cb.Order{OrderID: uuid.NewString(), ProductID: req.ProductID, UserID: "fake-user", OrderConfiguration: oc, Side: req.Side,
		ClientOrderID: req.ClientOrderID, Status: "OPEN", ProductType: "SPOT", OrderPlacementSource: "RETAIL_ADVANCED", TriggerStatus: "INVALID_ORDER_TYPE"},
		filled: decimal.Zero, value: decimal.Zero, fees: decimal.Zero, hold: decimal.Zero, created: f.now().UTC()}
	var sizeS, limitS, stopS string
	n := 0
	if c := oc.MarketIOC; c != nil {
		n++
		o.kind, o.OrderType, o.TimeInForce, sizeS = "market", "MARKET", "IMMEDIATE_OR_CANCEL", c.BaseSize
	}
	if c := oc.LimitGTC; c != nil {
		n++
		o.kind, o.OrderType, o.TimeInForce, sizeS, limitS = "limit", "LIMIT", "GOOD_UNTIL_CANCELLED", c.BaseSize, c.LimitPrice
	}
	if c := oc.StopLimitGTC; c != nil {
		n++
		o.kind, o.OrderType, o.TimeInForce, sizeS, limitS, stopS = "stop_limit", "STOP_LIMIT", "GOOD_UNTIL_CANCELLED", c.BaseSize, c.LimitPrice, c.StopPrice
		o.TriggerStatus = "STOP_PENDING"
	}
	if n != 1 {
		failed(w, "UNSUPPORTED_ORDER_CONFIGURATION", "exactly one supported order configuration is required", "")
		return
	}
	var good bool
	if o.size, good = parse(sizeS); !good || !o.size.Mod(dec(prod.BaseIncrement)).IsZero() {
		failed(w, "INVALID_SIZE_PRECISION", "Invalid order size", "PREVIEW_INVALID_SIZE_PRECISION")
		return
	}
	if o.size.LessThan(dec(prod.BaseMinSize)) {
		failed(w, "INVALID_SIZE", "Order size is too small", "PREVIEW_INVALID_BASE_SIZE_TOO_SMALL")
		return
	}
	inc := dec(prod.PriceIncrement)
	if limitS != "" {
		if o.limit, good = parse(limitS); !good || !o.limit.Mod(inc).IsZero() {
			failed(w, "INVALID_LIMIT_PRICE_PRECISION", "Invalid limit price", "PREVIEW_INVALID_LIMIT_PRICE")
			return
		}
	}
	p, priced := f.price[req.ProductID]
	if stopS != "" {
		if o.stop, good = parse(stopS); !good || !o.stop.Mod(inc).IsZero() {
			failed(w, "INVALID_STOP_PRICE_PRECISION", "Invalid stop price", "PREVIEW_INVALID_STOP_PRICE")
			return
		}
		dir := oc.StopLimitGTC.StopDirection
		if dir != "STOP_DIRECTION_STOP_DOWN" && dir != "STOP_DIRECTION_STOP_UP" {
			failed(w, "INVALID_STOP_DIRECTION", "Invalid stop direction", "")
			return
		}
		down := dir == "STOP_DIRECTION_STOP_DOWN"
		if priced && ((down && !o.stop.LessThan(p)) || (!down && !o.stop.GreaterThan(p))) {
			failed(w, "INVALID_STOP_PRICE", "Stop price would trigger immediately", "PREVIEW_STOP_PRICE_ABOVE_LAST_TRADE_PRICE")
			return
		}
	}
	if !priced && (o.kind == "market") {
		failed(w, "NO_MARKET", "No market for this product", "")
		return
	}
	takes := o.kind == "market" || (o.kind == "limit" && priced && f.marketable(o, p))
	base, quote := f.acct(domain.Base(o.ProductID)), f.acct(domain.Quote(o.ProductID))
	switch {
	case o.Side == "SELL":
		if base.available.LessThan(o.size) {
			failed(w, "INSUFFICIENT_FUND", "Insufficient balance in source account", "PREVIEW_INSUFFICIENT_FUND")
			return
		}
		if !takes {
			o.hold = o.size
		}
	case takes:
		if quote.available.LessThan(o.size.Mul(p).Mul(decimal.NewFromInt(1).Add(f.TakerFee))) {
			failed(w, "INSUFFICIENT_FUND", "Insufficient balance in source account", "PREVIEW_INSUFFICIENT_FUND")
			return
		}
	default:
		rate := f.MakerFee
		if o.kind == "stop_limit" {
			rate = f.TakerFee // a triggered stop takes
		}
		o.hold = o.size.Mul(o.limit).Mul(decimal.NewFromInt(1).Add(rate))
		if quote.available.LessThan(o.hold) {
			failed(w, "INSUFFICIENT_FUND", "Insufficient balance in source account", "PREVIEW_INSUFFICIENT_FUND")
			return
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
	events = f.userEvents([]*order{o})
	writeJSON(w, http.StatusOK, cb.CreateOrderResponse{Success: true, OrderID: o.OrderID, SuccessResponse: &cb.SuccessResponse{
		OrderID: o.OrderID, ProductID: o.ProductID, Side: o.Side, ClientOrderID: o.ClientOrderID}, OrderConfiguration: &o.OrderConfiguration})
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
	var req cb.CancelRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.OrderIDs) == 0 {
		apiErr(w, http.StatusBadRequest, "INVALID_ARGUMENT", "order_ids are required")
		return
	}
	f.mu.Lock()
	out := cb.CancelResponse{Results: []cb.CancelResult{}}
	var changed []*order
	for _, id := range req.OrderIDs {
		o, ok := f.byID[id]
		switch {
		case !ok:
			out.Results = append(out.Results, cb.CancelResult{OrderID: id, FailureReason: "UNKNOWN_CANCEL_ORDER"})
		case o.Status != "OPEN":
			out.Results = append(out.Results, cb.CancelResult{OrderID: id, FailureReason: "COMMANDER_REJECTED_CANCEL_ORDER"})
		default:
			f.release(o)
			o.Status = "CANCELLED"
			o.CancelMessage = "User requested cancel"
			o.sync()
			changed = append(changed, o)
			out.Results = append(out.Results, cb.CancelResult{OrderID: id, Success: true, FailureReason: "UNKNOWN_CANCEL_FAILURE_REASON"})
		}
	}
	events := f.userEvents(changed)
	f.mu.Unlock()
	f.user.publish(events)
	writeJSON(w, http.StatusOK, out)
}

func editFailed(w http.ResponseWriter, reason, preview string) {
	writeJSON(w, http.StatusOK, cb.EditResponse{Success: false, Errors: []cb.EditError{{EditFailureReason: reason, PreviewFailureReason: preview}}})
}

// editOrder is POST /orders/edit: limit GTC orders only; the new size and
// price take a new hold and may cross the market at once.
func (f *Fake) editOrder(w http.ResponseWriter, r *http.Request) {
	var req cb.EditRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		apiErr(w, http.StatusBadRequest, "INVALID_ARGUMENT", "malformed request")
		return
	}
	f.mu.Lock()
	var events []userEvent
	defer func() { f.mu.Unlock(); f.user.publish(events); f.flushTape() }()
	o, ok := f.byID[req.OrderID]
	switch {
	case !ok:
		editFailed(w, "ORDER_NOT_FOUND", "")
		return
	case o.Status != "OPEN":
		editFailed(w, "ONLY_OPEN_ORDERS_CAN_BE_EDITED", "")
		return
	case o.kind != "limit":
		editFailed(w, "ONLY_LIMIT_ORDER_EDITS_SUPPORTED", "")
		return
	}
	prod := f.products[o.ProductID]
	size, okS := parse(req.Size)
	price, okP := parse(req.Price)
	switch {
	case !okS || !size.Mod(dec(prod.BaseIncrement)).IsZero():
		editFailed(w, "INVALID_EDITED_SIZE", "")
		return
	case !okP || !price.Mod(dec(prod.PriceIncrement)).IsZero():
		editFailed(w, "INVALID_EDITED_PRICE", "")
		return
	case size.LessThan(o.filled):
		editFailed(w, "CANNOT_EDIT_TO_BELOW_FILLED_SIZE", "")
		return
	case size.Equal(o.size) && price.Equal(o.limit):
		editFailed(w, "EDIT_REQUEST_EQUAL_TO_ORIGINAL_REQUEST", "")
		return
	}
	hold := size
	holder := f.acct(domain.Base(o.ProductID))
	if o.Side == "BUY" {
		hold = size.Mul(price).Mul(decimal.NewFromInt(1).Add(f.MakerFee))
		holder = f.acct(domain.Quote(o.ProductID))
	}
	if holder.available.Add(o.hold).LessThan(hold) {
		editFailed(w, "", "PREVIEW_INSUFFICIENT_FUND")
		return
	}
	f.release(o)
	holder.available = holder.available.Sub(hold)
	holder.hold = holder.hold.Add(hold)
	o.hold, o.size, o.limit = hold, size, price
	o.OrderConfiguration.LimitGTC.BaseSize, o.OrderConfiguration.LimitGTC.LimitPrice = size.String(), price.String()
	o.sync()
	if p, ok := f.price[o.ProductID]; ok && f.marketable(o, p) {
		f.execute(o, p, "TAKER")
	}
	events = f.userEvents([]*order{o})
	writeJSON(w, http.StatusOK, cb.EditResponse{Success: true, Errors: []cb.EditError{}})
}

func (f *Fake) getOrder(w http.ResponseWriter, id string) {
	f.mu.Lock()
	o, ok := f.byID[id]
	var out cb.Order
	if ok {
		out = o.Order
	}
	f.mu.Unlock()
	if !ok {
		apiErr(w, http.StatusNotFound, "NOT_FOUND", "order with this orderID was not found")
		return
	}
	writeJSON(w, http.StatusOK, cb.OrderEnvelope{Order: out})
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
	var rows []cb.Order
	for i := len(f.orders) - 1; i >= 0; i-- { // newest first
		o := f.orders[i]
		if (len(statuses) == 0 || contains(statuses, o.Status)) && (len(products) == 0 || contains(products, o.ProductID)) && !o.created.Before(since) {
			rows = append(rows, o.Order)
		}
	}
	f.mu.Unlock()
	from, to, next := page(len(rows), r, 100, PageMax)
	out := cb.OrdersPage{Orders: append([]cb.Order{}, rows[from:to]...), Sequence: "0", HasNext: next != "", Cursor: next}
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
	var rows []cb.Fill
	for i := len(f.fills) - 1; i >= 0; i-- {
		fl := f.fills[i]
		t, _ := time.Parse(time.RFC3339Nano, fl.SequenceTimestamp)
		if (len(ids) == 0 || contains(ids, fl.OrderID)) && (len(products) == 0 || contains(products, fl.ProductID)) && !t.Before(since) {
			rows = append(rows, fl)
		}
	}
	f.mu.Unlock()
	from, to, next := page(len(rows), r, 100, PageMax)
	writeJSON(w, http.StatusOK, cb.FillsPage{Fills: append([]cb.Fill{}, rows[from:to]...), Cursor: next})
}
