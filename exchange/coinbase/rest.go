package coinbase

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Typed endpoint calls. Paged listings follow the cursor until has_next is
// false (or the cursor is empty) or enough rows are read.

// Accounts lists every account (all pages).
func (c *Client) Accounts(ctx context.Context) ([]Account, error) {
	var all []Account
	q := url.Values{"limit": {"250"}}
	for {
		var p AccountsPage
		if err := c.do(ctx, call{method: http.MethodGet, path: "/accounts", query: q, safe: true}, &p); err != nil {
			return nil, err
		}
		all = append(all, p.Accounts...)
		if !p.HasNext || p.Cursor == "" {
			return all, nil
		}
		q.Set("cursor", p.Cursor)
	}
}

// Market data comes from Coinbase's public endpoints (/market/...): no key
// is sent, so the live market works with no credentials stored.

// Products lists the spot products with these ids.
func (c *Client) Products(ctx context.Context, ids []string) ([]Product, error) {
	q := url.Values{"product_type": {"SPOT"}, "product_ids": ids}
	var p ProductsPage
	err := c.do(ctx, call{method: http.MethodGet, path: "/market/products", query: q, safe: true, public: true}, &p)
	return p.Products, err
}

// MaxCandles is the most candles Coinbase returns per request.
const MaxCandles = 350

// Candles returns the candles of granularity g (width w) opening in
// [start, end), ascending, in requests of at most MaxCandles.
func (c *Client) Candles(ctx context.Context, product, g string, w time.Duration, start, end time.Time) ([]Candle, error) {
	var out []Candle
	for from := start; from.Before(end); {
		to := from.Add(w * MaxCandles)
		if to.After(end) {
			to = end
		}
		// end is inclusive at Coinbase: stop one second short of the next window.
		q := url.Values{"start": {strconv.FormatInt(from.Unix(), 10)}, "end": {strconv.FormatInt(to.Unix()-1, 10)},
			"granularity": {g}, "limit": {strconv.Itoa(MaxCandles)}}
		var p CandlesPage
		if err := c.do(ctx, call{method: http.MethodGet, path: "/market/products/" + url.PathEscape(product) + "/candles", query: q, safe: true, public: true}, &p); err != nil {
			return nil, err
		}
		for i := len(p.Candles) - 1; i >= 0; i-- { // newest first on the wire
			out = append(out, p.Candles[i])
		}
		from = to
	}
	return out, nil
}

// Ticker returns the latest trades and the best bid and ask.
func (c *Client) Ticker(ctx context.Context, product string) (TickerPage, error) {
	var p TickerPage
	err := c.do(ctx, call{method: http.MethodGet, path: "/market/products/" + url.PathEscape(product) + "/ticker", query: url.Values{"limit": {"1"}}, safe: true, public: true}, &p)
	return p, err
}

// CreateOrder sends one order. It is not retried here: an unknown outcome
// comes back as such (see unknownOutcome) for the caller to look first.
func (c *Client) CreateOrder(ctx context.Context, r CreateOrderRequest) (CreateOrderResponse, error) {
	var out CreateOrderResponse
	err := c.do(ctx, call{method: http.MethodPost, path: "/orders", body: r, write: true}, &out)
	return out, err
}

// CancelOrders cancels orders by id (cancelling twice is harmless, so it is retried).
func (c *Client) CancelOrders(ctx context.Context, ids []string) (CancelResponse, error) {
	var out CancelResponse
	err := c.do(ctx, call{method: http.MethodPost, path: "/orders/batch_cancel", body: CancelRequest{OrderIDs: ids}, safe: true, write: true}, &out)
	return out, err
}

// EditOrder changes a limit GTC order's price and size.
func (c *Client) EditOrder(ctx context.Context, r EditRequest) (EditResponse, error) {
	var out EditResponse
	err := c.do(ctx, call{method: http.MethodPost, path: "/orders/edit", body: r, write: true}, &out)
	return out, err
}

// Order returns one order.
func (c *Client) Order(ctx context.Context, id string) (Order, error) {
	var out OrderEnvelope
	err := c.do(ctx, call{method: http.MethodGet, path: "/orders/historical/" + url.PathEscape(id), safe: true}, &out)
	return out.Order, err
}

// OrderQuery narrows GET /orders/historical/batch.
type OrderQuery struct {
	Statuses []string
	Products []string
	Start    time.Time
	Limit    int // rows wanted in all (0: every page)
}

// Orders lists orders newest first, following the cursor.
func (c *Client) Orders(ctx context.Context, oq OrderQuery) ([]Order, error) {
	q := url.Values{"limit": {"250"}}
	for _, s := range oq.Statuses {
		q.Add("order_status", s)
	}
	for _, p := range oq.Products {
		q.Add("product_ids", p)
	}
	if !oq.Start.IsZero() {
		q.Set("start_date", oq.Start.UTC().Format(time.RFC3339))
	}
	var all []Order
	for {
		var p OrdersPage
		if err := c.do(ctx, call{method: http.MethodGet, path: "/orders/historical/batch", query: q, safe: true}, &p); err != nil {
			return nil, err
		}
		all = append(all, p.Orders...)
		if oq.Limit > 0 && len(all) >= oq.Limit {
			return all[:oq.Limit], nil
		}
		if !p.HasNext || p.Cursor == "" {
			return all, nil
		}
		q.Set("cursor", p.Cursor)
	}
}

// FillQuery narrows GET /orders/historical/fills.
type FillQuery struct {
	OrderIDs []string
	Products []string
	Start    time.Time
	Limit    int // rows wanted in all (0: every page)
}

// Fills lists fills newest first, following the cursor.
func (c *Client) Fills(ctx context.Context, fq FillQuery) ([]Fill, error) {
	q := url.Values{"limit": {"250"}}
	for _, id := range fq.OrderIDs {
		q.Add("order_ids", id)
	}
	for _, p := range fq.Products {
		q.Add("product_ids", p)
	}
	if !fq.Start.IsZero() {
		q.Set("start_sequence_timestamp", fq.Start.UTC().Format(time.RFC3339Nano))
	}
	var all []Fill
	for {
		var p FillsPage
		if err := c.do(ctx, call{method: http.MethodGet, path: "/orders/historical/fills", query: q, safe: true}, &p); err != nil {
			return nil, err
		}
		all = append(all, p.Fills...)
		if fq.Limit > 0 && len(all) >= fq.Limit {
			return all[:fq.Limit], nil
		}
		if p.Cursor == "" || len(p.Fills) == 0 {
			return all, nil
		}
		q.Set("cursor", p.Cursor)
	}
}
