package app_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"kestrel/app"
	"kestrel/domain"
	"kestrel/exchange/coinbase/coinbasefake"
)

// Paper trading on live prices: with the market source on (the fake)
// Coinbase and the venue on paper, the prices shown are Coinbase's, a paper
// market buy fills at Coinbase's price in the paper account (nothing is
// sent to Coinbase), no request carries a key, and switching the market
// back to the replay keeps the paper account.
func TestPaperTradingOnLiveCoinbasePrices(t *testing.T) {
	fake, srv, _, _ := fakeCoinbase(t)
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"
	s := startWith(t, t.TempDir(), func(c *app.Config) {
		c.CoinbaseAPIURL, c.CoinbaseWSURL, c.CoinbaseUserWSURL = srv.URL, wsURL, wsURL
	})
	op, trader := s.accounts()
	d := decimal.RequireFromString
	venue := func() (v struct{ Source, Venue string }) {
		var st struct {
			MarketData struct{ Source, Venue string } `json:"market_data"`
		}
		s.into(s.do("GET", "/api/system/status", op, ""), &st)
		return st.MarketData
	}
	if v := venue(); v.Venue != "Paper · replayed Coinbase candles" {
		t.Fatalf("default venue %+v", v)
	}
	// A trader may not switch the market: settings are the operator's.
	if r := s.do("PUT", "/api/settings", trader, `{"api":{"marketData":{"source":"coinbase"}}}`); r.Status != 403 {
		t.Fatalf("trader switching the market: %+v", r)
	}
	if r := s.do("PUT", "/api/settings", op, `{"api":{"marketData":{"source":"nasdaq"}}}`); r.Status != 400 || r.Error.Fields["api.marketData.source"] == "" {
		t.Fatalf("unknown source: %+v", r)
	}
	if r := s.do("PUT", "/api/settings", op, `{"api":{"marketData":{"source":"coinbase"}}}`); r.Status != 200 {
		t.Fatalf("save: %+v", r)
	}
	// The audit log names the switch, not only a save.
	if a := s.audit(op); len(a) == 0 || a[0].Detail != "saved settings; market data replay -> coinbase" {
		t.Fatalf("audit of the switch: %+v", a[:min(len(a), 1)])
	}
	waitUntil(t, "the public Coinbase market feed", func() bool { return fake.Subscribers("ticker") == 1 })
	for sym, p := range map[string]string{"BTC-USD": "61234.5", "ETH-USD": "3000", "SOL-USD": "150", "ADA-USD": "0.45"} {
		fake.SetPrice(sym, p)
	}
	var rt struct {
		Ticker struct{ Price decimal.Decimal }
		Source string
	}
	waitUntil(t, "the fake's price on the dashboard", func() bool {
		r := s.do("GET", "/api/market-data/realtime/BTC-USD", op, "")
		return r.Success && json.Unmarshal(r.Data, &rt) == nil && rt.Ticker.Price.Equal(d("61234.5"))
	})
	if v := venue(); v.Venue != "Paper · live Coinbase prices" || v.Source != "Coinbase live market data" {
		t.Fatalf("status %+v", v)
	}
	var placed struct{ Order domain.Order }
	r := s.do("POST", "/api/trading/execute", op, `{"symbol":"BTC-USD","action":"BUY","quantity":0.01}`)
	if !r.Success {
		t.Fatalf("paper buy: %+v", r)
	}
	s.into(r, &placed)
	o := placed.Order
	if o.Status != domain.StatusFilled || o.AvgFillPrice == nil || !o.AvgFillPrice.Equal(d("61234.5")) || !o.Fee.Equal(d("3.674070")) {
		t.Fatalf("paper buy on the live price: %+v", o) // fee: 0.01 x 61,234.5 x 0.6% taker
	}
	if n := fake.OrderCount(); n != 0 {
		t.Fatalf("%d orders reached Coinbase; paper orders stay in the paper engine", n)
	}
	reqs := fake.RequestLog()
	if len(reqs) == 0 {
		t.Fatal("no request reached the fake")
	}
	for _, q := range reqs {
		if q.Keyed {
			t.Fatalf("%s carried a key: %+v", q.Route, reqs)
		}
	}
	// Back to the replay: the same paper account, priced by the replay again.
	if r := s.do("PUT", "/api/settings", op, `{"api":{"marketData":{"source":"replay"}}}`); r.Status != 200 {
		t.Fatalf("save: %+v", r)
	}
	if v := venue(); v.Venue != "Paper · replayed Coinbase candles" {
		t.Fatalf("status after switching back %+v", v)
	}
	var pos struct {
		Positions []struct {
			Symbol   string
			Quantity decimal.Decimal
		}
	}
	s.into(s.do("GET", "/api/trading/positions", op, ""), &pos)
	if len(pos.Positions) != 1 || !pos.Positions[0].Quantity.Equal(d("0.01")) {
		t.Fatalf("paper positions after switching back: %+v", pos)
	}
}

// With Coinbase's level2 book at hand, a paper market buy larger than the
// best ask walks the book: part at the best ask, the rest at the next
// level, each paying the taker fee.
func TestPaperMarketOrderWalksTheLiveBook(t *testing.T) {
	fake, srv, _, _ := fakeCoinbase(t)
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"
	s := startWith(t, t.TempDir(), func(c *app.Config) {
		c.CoinbaseAPIURL, c.CoinbaseWSURL, c.CoinbaseUserWSURL = srv.URL, wsURL, wsURL
	})
	op, _ := s.accounts()
	if r := s.do("PUT", "/api/settings", op, `{"api":{"marketData":{"source":"coinbase"}}}`); r.Status != 200 {
		t.Fatalf("save: %+v", r)
	}
	waitUntil(t, "the level2 subscription", func() bool { return fake.Subscribers("level2") == 1 })
	fake.SetBook("BTC-USD", []coinbasefake.Level{{Price: "61230", Size: "1"}},
		[]coinbasefake.Level{{Price: "61234.5", Size: "0.005"}, {Price: "61240", Size: "0.004"}, {Price: "61250", Size: "2"}})
	// The ticker follows the book on the same connection: once its price
	// shows, the book before it was read.
	fake.SetPrice("BTC-USD", "61234.5")
	d := decimal.RequireFromString
	waitUntil(t, "the fake's price", func() bool {
		var rt struct {
			Ticker struct{ Price decimal.Decimal }
		}
		r := s.do("GET", "/api/market-data/realtime/BTC-USD", op, "")
		return r.Success && json.Unmarshal(r.Data, &rt) == nil && rt.Ticker.Price.Equal(d("61234.5"))
	})
	r := s.do("POST", "/api/trading/execute", op, `{"symbol":"BTC-USD","action":"BUY","quantity":0.01}`)
	if !r.Success {
		t.Fatalf("paper buy: %+v", r)
	}
	var placed struct{ Order domain.Order }
	s.into(r, &placed)
	o := placed.Order
	// 0.005 x 61,234.50 + 0.004 x 61,240 + 0.001 x 61,250
	// = 306.1725 + 244.96 + 61.25 = 612.3825, an average of 61,238.25.
	if o.Status != domain.StatusFilled || o.AvgFillPrice == nil || !o.AvgFillPrice.Equal(d("61238.25")) || !o.Fee.Equal(d("3.674295")) {
		t.Fatalf("paper buy walking the book: %+v", o) // fee: 0.6% of 612.3825
	}
}

// A resting paper limit on the live market fills only once a trade prints
// through its price (market_trades), at its limit with the maker fee: the
// ask coming down to it in the book is not a fill.
func TestPaperLimitFillsOnlyOnALiveTradeThroughIt(t *testing.T) {
	fake, srv, _, _ := fakeCoinbase(t)
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"
	s := startWith(t, t.TempDir(), func(c *app.Config) {
		c.CoinbaseAPIURL, c.CoinbaseWSURL, c.CoinbaseUserWSURL = srv.URL, wsURL, wsURL
	})
	op, _ := s.accounts()
	if r := s.do("PUT", "/api/settings", op, `{"api":{"marketData":{"source":"coinbase"}}}`); r.Status != 200 {
		t.Fatalf("save: %+v", r)
	}
	waitUntil(t, "the level2 and trades subscriptions", func() bool {
		return fake.Subscribers("level2") == 1 && fake.Subscribers("market_trades") == 1
	})
	d := decimal.RequireFromString
	// Each price is shown once the feed read it, and with it whatever came
	// before it on the connection (book, trades).
	price := func(p string) {
		fake.SetPrice("BTC-USD", p)
		waitUntil(t, "the price "+p, func() bool {
			var rt struct {
				Ticker struct{ Price decimal.Decimal }
			}
			r := s.do("GET", "/api/market-data/realtime/BTC-USD", op, "")
			return r.Success && json.Unmarshal(r.Data, &rt) == nil && rt.Ticker.Price.Equal(d(p))
		})
	}
	fake.SetBook("BTC-USD", []coinbasefake.Level{{Price: "61200", Size: "1"}}, []coinbasefake.Level{{Price: "61234.5", Size: "1"}})
	price("61234.5")
	var placed struct{ Order domain.Order }
	r := s.do("POST", "/api/trading/orders/limit", op, `{"symbol":"BTC-USD","side":"BUY","quantity":0.01,"price":61220}`)
	s.into(r, &placed)
	limit := placed.Order
	if limit.Status != domain.StatusOpen {
		t.Fatalf("limit below the ask: %+v", r)
	}
	status := func() domain.Order {
		var list struct{ Orders []domain.Order }
		s.into(s.do("GET", "/api/trading/orders", op, ""), &list)
		for _, o := range list.Orders {
			if o.ID == limit.ID {
				return o
			}
		}
		t.Fatalf("order %s not listed", limit.ID)
		return domain.Order{}
	}
	// The ask comes down through the limit with no trade printed.
	fake.SetBook("BTC-USD", []coinbasefake.Level{{Price: "61200", Size: "1"}}, []coinbasefake.Level{{Price: "61210", Size: "1"}})
	price("61234")
	// Another order makes the engine look at the market now, synchronously.
	if r := s.do("POST", "/api/trading/orders/limit", op, `{"symbol":"BTC-USD","side":"BUY","quantity":0.001,"price":50000}`); !r.Success {
		t.Fatalf("second limit: %+v", r)
	}
	if o := status(); o.Status != domain.StatusOpen {
		t.Fatalf("filled with no trade through it: %+v", o)
	}
	// A trade prints at 61,218, through the limit.
	fake.PrintTrade("BTC-USD", "61218", "0.5", "SELL")
	price("61225")
	waitUntil(t, "the limit filled by the trade", func() bool { return status().Status == domain.StatusFilled })
	o := status()
	if !o.AvgFillPrice.Equal(d("61220")) || !o.Fee.Equal(d("2.4488")) {
		t.Fatalf("fill %+v, want 61,220 with the 0.4%% maker fee", o)
	}
}
