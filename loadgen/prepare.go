package loadgen

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Plan is what every order of a run uses: a resting limit price far from
// the market (it never fills) and the quantity.
type Plan struct {
	Symbol     string
	Side       string // BUY or SELL
	Quantity   decimal.Decimal
	LimitPrice decimal.Decimal // resting price, about 10x away from the market
	AltPrice   decimal.Decimal // the price a modify moves an order to (one step further away)
}

type product struct {
	ProductID      string          `json:"product_id"`
	PriceIncrement decimal.Decimal `json:"price_increment"`
	BaseIncrement  decimal.Decimal `json:"base_increment"`
	BaseMinSize    decimal.Decimal `json:"base_min_size"`
}

type ticker struct {
	Bid decimal.Decimal `json:"bid"`
	Ask decimal.Decimal `json:"ask"`
}

type balance struct {
	Asset     string          `json:"asset"`
	Available decimal.Decimal `json:"available"`
}

// Order is the part of an order the tool reads back.
type Order struct {
	ID            string          `json:"id"`
	ClientOrderID string          `json:"client_order_id"`
	Symbol        string          `json:"symbol"`
	Side          string          `json:"side"`
	Status        string          `json:"status"`
	Quantity      decimal.Decimal `json:"quantity"`
	ParentID      string          `json:"parent_order_id"`
}

// OrderReply is the body of a placed or changed order.
type OrderReply struct {
	Order Order `json:"order"`
}

// Prepare makes the account able to rest orders orders of qty (zero: the
// product's minimum size) without running out, and returns the plan.
//
// SELL (the default for long runs) rests far above the market. A SELL of at
// most what the account holds only reduces a position, so the risk check
// passes it whatever the limits (daily trade count, minimum amount); when
// the free base currency is short, Prepare buys fundUSD of it at market and
// cancels the protective stop-loss/take-profit Kestrel attaches to that buy
// (they hold the quantity; each SELL would otherwise first shrink them).
// BUY rests far below the market; it is subject to every risk limit
// (minimum trade amount, daily trade count), so it suits short runs only.
func Prepare(ctx context.Context, c *Client, symbol, side string, qty decimal.Decimal, orders int, fundUSD decimal.Decimal, log io.Writer) (Plan, error) {
	p := Plan{Symbol: strings.ToUpper(symbol), Side: strings.ToUpper(side)}
	if p.Side != "BUY" && p.Side != "SELL" {
		return p, fmt.Errorf("side must be BUY or SELL")
	}
	var prods struct {
		Products []product `json:"products"`
	}
	if _, err := c.Do(ctx, http.MethodGet, "/api/market-data/products", nil, &prods); err != nil {
		return p, err
	}
	var pr *product
	for i := range prods.Products {
		if prods.Products[i].ProductID == p.Symbol {
			pr = &prods.Products[i]
		}
	}
	if pr == nil {
		return p, fmt.Errorf("unknown symbol %s", p.Symbol)
	}
	var t ticker
	if _, err := c.Do(ctx, http.MethodGet, "/api/market-data/ticker/"+url.PathEscape(p.Symbol), nil, &t); err != nil {
		return p, err
	}
	if !t.Bid.IsPositive() || !t.Ask.IsPositive() {
		return p, fmt.Errorf("no market price for %s yet", p.Symbol)
	}
	p.Quantity = qty
	if !p.Quantity.IsPositive() {
		p.Quantity = pr.BaseMinSize
	}
	step := pr.PriceIncrement
	ten := decimal.NewFromInt(10)
	if p.Side == "SELL" {
		p.LimitPrice = t.Ask.Mul(ten).Div(step).Ceil().Mul(step)
		p.AltPrice = p.LimitPrice.Add(step)
	} else {
		p.LimitPrice = t.Bid.Div(ten).Div(step).Floor().Mul(step)
		p.AltPrice = p.LimitPrice.Sub(step)
	}
	base, quote, _ := strings.Cut(p.Symbol, "-")
	free := func() (map[string]decimal.Decimal, error) {
		var out struct {
			Balances []balance `json:"balances"`
		}
		if _, err := c.Do(ctx, http.MethodGet, "/api/trading/balances", nil, &out); err != nil {
			return nil, err
		}
		m := map[string]decimal.Decimal{}
		for _, b := range out.Balances {
			m[b.Asset] = b.Available
		}
		return m, nil
	}
	bals, err := free()
	if err != nil {
		return p, err
	}
	need := p.Quantity.Mul(decimal.NewFromInt(int64(orders)))
	if p.Side == "BUY" {
		if usd := need.Mul(p.LimitPrice).Mul(decimal.RequireFromString("1.01")); bals[quote].LessThan(usd) {
			return p, fmt.Errorf("%s %s free, %s needed for %d resting BUYs", bals[quote], quote, usd.StringFixed(2), orders)
		}
		return p, nil
	}
	if bals[base].GreaterThanOrEqual(need) {
		return p, nil
	}
	buyQty := fundUSD.Div(t.Ask).Div(pr.BaseIncrement).Floor().Mul(pr.BaseIncrement)
	fmt.Fprintf(log, "setup: %s %s free, %s needed; buying %s %s at market\n", bals[base], base, need, buyQty, base)
	var buy OrderReply
	if _, err := c.Do(ctx, http.MethodPost, "/api/trading/execute", map[string]any{"symbol": p.Symbol, "action": "BUY",
		"quantity": buyQty.String(), "order_type": "market", "strategy": "kestrel-load"}, &buy); err != nil {
		return p, fmt.Errorf("fund the run: %w", err)
	}
	cancelProtection(ctx, c, buy.Order.ID, log)
	if bals, err = free(); err != nil {
		return p, err
	}
	if bals[base].LessThan(need) {
		return p, fmt.Errorf("%s %s free after buying, %s needed: raise --fund-usd or lower --max-orders", bals[base], base, need)
	}
	return p, nil
}

// cancelProtection waits briefly for the protective orders Kestrel attaches
// to a BUY fill and cancels them.
func cancelProtection(ctx context.Context, c *Client, parent string, log io.Writer) {
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		var out struct {
			Orders []Order `json:"orders"`
		}
		if _, err := c.Do(ctx, http.MethodGet, "/api/trading/orders?status_filter=open&limit=50", nil, &out); err == nil {
			n := 0
			for _, o := range out.Orders {
				if o.ParentID == parent {
					if _, err := c.Do(ctx, http.MethodDelete, "/api/trading/orders/"+url.PathEscape(o.ID), nil, nil); err == nil {
						n++
					}
				}
			}
			if n > 0 {
				fmt.Fprintf(log, "setup: cancelled %d protective order(s) of the funding buy\n", n)
				return
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
}
