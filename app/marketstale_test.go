package app_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/app"
	"kestrel/domain"
)

// marketClock is the fake Coinbase's market time: tickers carry it, so the
// test closes one-minute candles without waiting a minute for each.
type marketClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *marketClock) now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *marketClock) set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// evaluation is a stored strategy evaluation as the signals API gives it.
type evaluation struct {
	CandleTime time.Time `json:"candle_time"`
	Decision   string    `json:"decision"`
	Executed   bool      `json:"executed"`
	Reason     string    `json:"reason"`
	OrderID    string    `json:"order_id"`
}

// A Coinbase market feed that stops delivering prices (the connection
// stays up: heartbeats arrive) raises the 'Market data stale' alert; an
// AI strategy whose model says BUY does not trade while it lasts (its one
// evaluation says why, and no order reaches Coinbase); a trader's market
// order still fills (staleness pauses automation only); when prices
// return the alert resolves and the strategy trades on the next candle.
func TestStaleMarketPausesAutomationUntilPricesReturn(t *testing.T) {
	fake, srv, key, pemText := fakeCoinbase(t)
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"
	// Market time runs an hour behind the wall clock, so every candle the
	// strategy asks for has closed by the wall clock too.
	base := time.Now().UTC().Truncate(time.Minute).Add(-time.Hour)
	var cs []domain.Candle
	for m := -60; m <= 10; m++ {
		p := decimal.NewFromInt(50000)
		cs = append(cs, domain.Candle{Time: base.Add(time.Duration(m) * time.Minute), Open: p, High: p, Low: p, Close: p, Volume: decimal.NewFromInt(1)})
	}
	fake.SetCandles("BTC-USD", cs)
	clock := &marketClock{}
	fake.SetMarketClock(clock.now)
	prices := func(minute int) {
		clock.set(base.Add(time.Duration(minute)*time.Minute + 5*time.Second))
		for sym, p := range map[string]string{"BTC-USD": "50000", "ETH-USD": "3000", "SOL-USD": "150", "ADA-USD": "0.45"} {
			fake.SetPrice(sym, p)
		}
	}
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"model":"fake-model","choices":[{"message":{"role":"assistant","content":"{\"decision\":\"BUY\",\"confidence\":0.9,\"reasoning\":\"always\"}"}}]}`))
	}))
	defer model.Close()

	s := startWith(t, t.TempDir(), func(c *app.Config) {
		c.CoinbaseAPIURL, c.CoinbaseWSURL, c.CoinbaseUserWSURL = srv.URL, wsURL, wsURL
		c.MarketStaleAfter = time.Second
	})
	op, _ := s.accounts()
	for _, body := range []string{
		`{"api":{"ai":{"provider":"openai","baseUrl":"` + model.URL + `","model":"fake-model","timeout":10000}}}`,
		`{"trading":{"automation":{"autoTrading":true}}}`,
		`{"api":{"exchange":{"provider":"coinbase","apiKey":` + quote(key.Name) + `,"apiSecret":` + quote(pemText) + `,"sandbox":false,"timeout":5000,"rateLimit":20}}}`,
	} {
		if r := s.do("PUT", "/api/settings", op, body); r.Status != 200 {
			t.Fatalf("settings %s: %+v", body, r)
		}
	}
	if r := s.do("PUT", "/api/strategy/config/ai_strategy", op, `{"symbols":["BTC-USD"],"timeframe":"ONE_MINUTE","context_length":10,"min_confidence":0.6,"max_position_size":0.05}`); r.Status != 200 {
		t.Fatalf("strategy config: %+v", r)
	}
	waitUntil(t, "the Coinbase feeds", func() bool { return fake.Subscribers("ticker") == 1 && fake.Subscribers("user") == 1 })

	prices(0)
	waitUntil(t, "a Coinbase price", func() bool {
		r := s.do("GET", "/api/market-data/realtime/BTC-USD", op, "")
		return r.Success && strings.Contains(string(r.Data), `"price":"50000"`)
	})
	// Prices arriving leave no open stale alert (on a loaded machine the
	// switch to Coinbase can take longer than the 1 s threshold before the
	// first price, and the alert that raises is resolved by the prices).
	// They keep arriving while this is checked: one price alone goes stale
	// again a second later, and a busy machine can miss that window.
	arriving := make(chan struct{})
	feeding := sync.WaitGroup{}
	feeding.Add(1)
	go func() {
		defer feeding.Done()
		for {
			select {
			case <-arriving:
				return
			case <-time.After(100 * time.Millisecond):
				prices(0)
			}
		}
	}()
	waitUntil(t, "no open stale alert while prices arrive", func() bool { return staleAlert(s, op, "false") == nil })
	close(arriving)
	feeding.Wait()

	// The feed goes quiet: heartbeats only.
	quiet := make(chan struct{})
	beats := sync.WaitGroup{}
	beats.Add(1)
	go func() {
		defer beats.Done()
		for n := 0; ; n++ {
			select {
			case <-quiet:
				return
			case <-time.After(100 * time.Millisecond):
				fake.Heartbeat(n)
			}
		}
	}()
	waitUntil(t, "the stale alert", func() bool { return staleAlert(s, op, "false") != nil })
	if a := staleAlert(s, op, "false"); a.Severity != "high" || !strings.HasPrefix(a.Message, "No price update for ") {
		t.Fatalf("alert %+v", a)
	} else {
		t.Logf("raised: %s", a.Message)
	}
	// The status grades the feed by the same threshold: stale after a
	// second, not after a fixed 30 s.
	if market, exchange := feedStatus(s, op); market != "degraded" || exchange == "healthy" {
		t.Fatalf("status while stale: market data %q, exchange %q; want degraded and not healthy", market, exchange)
	}

	// Switched on while stale, the strategy evaluates the last closed candle
	// it can see, decides BUY, and does not trade.
	if r := s.do("POST", "/api/strategy/ai_strategy/enable", op, ""); r.Status != 200 {
		t.Fatalf("enable: %+v", r)
	}
	var paused evaluation
	waitUntil(t, "the strategy's evaluation", func() bool {
		evs := evaluations(s, op)
		if len(evs) > 0 {
			paused = evs[0]
		}
		return len(evs) > 0
	})
	if paused.Decision != "BUY" || paused.Executed || !strings.HasPrefix(paused.Reason, "Automation paused: no market data for ") || paused.OrderID != "" {
		t.Fatalf("evaluation while stale: %+v", paused)
	}
	if n := fake.OrderCount(); n != 0 {
		t.Fatalf("%d orders at Coinbase while the market is stale", n)
	}
	t.Logf("evaluated while stale: %s, %s", paused.Decision, paused.Reason)

	// A trader's market order still fills (with its protective stop). Its
	// execution is on the market's trade channel, which is market data: the
	// feed is fresh for a moment, then stale again.
	var placed struct {
		Order struct{ Status, Strategy string }
	}
	r := s.do("POST", "/api/trading/execute", op, `{"symbol":"BTC-USD","action":"BUY","quantity":0.01}`)
	s.into(r, &placed)
	if placed.Order.Status != "filled" || placed.Order.Strategy != "" {
		t.Fatalf("manual buy while stale: %+v", r)
	}
	waitUntil(t, "the manual buy's protective stop", func() bool { return fake.OrderCount() == 2 })
	time.Sleep(1200 * time.Millisecond) // more than one strategy step: still nothing
	if evs := evaluations(s, op); len(evs) != 1 || fake.OrderCount() != 2 {
		t.Fatalf("while stale: %d evaluations, %d orders at Coinbase; want 1 and 2", len(evs), fake.OrderCount())
	}
	close(quiet)
	beats.Wait()

	// Prices return (a minute on: the next candle has closed) and keep coming.
	done := make(chan struct{})
	ticking := sync.WaitGroup{}
	ticking.Add(1)
	go func() {
		defer ticking.Done()
		for {
			prices(1)
			select {
			case <-done:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	defer func() { close(done); ticking.Wait() }()
	waitUntil(t, "the stale alert resolved", func() bool {
		a := staleAlert(s, op, "true")
		return a != nil && staleAlert(s, op, "false") == nil
	})
	if a := staleAlert(s, op, "true"); a.ResolvedBy != "system" {
		t.Fatalf("resolved by %q, want system", a.ResolvedBy)
	}
	if market, exchange := feedStatus(s, op); market != "healthy" || exchange != "healthy" {
		t.Fatalf("status once prices returned: market data %q, exchange %q; want healthy", market, exchange)
	}
	var traded evaluation
	waitUntil(t, "the strategy's trade", func() bool {
		evs := evaluations(s, op)
		if len(evs) > 1 {
			traded = evs[0]
		}
		return len(evs) > 1
	})
	if !traded.Executed || traded.OrderID == "" || !traded.CandleTime.Equal(base) {
		t.Fatalf("evaluation once prices returned: %+v (candle %s)", traded, base)
	}
	// The manual buy and its stop, the strategy's buy and its stop.
	waitUntil(t, "the strategy's order and its stop at Coinbase", func() bool { return fake.OrderCount() == 4 })
	var orders struct {
		Orders []struct{ ID, Status, Strategy string }
	}
	s.into(s.do("GET", "/api/trading/orders", op, ""), &orders)
	for _, o := range orders.Orders {
		if o.ID == traded.OrderID && o.Strategy == "ai_strategy" && o.Status == "filled" {
			return
		}
	}
	t.Fatalf("the strategy's order %s is not among the orders: %+v", traded.OrderID, orders.Orders)
}

type alertRow struct {
	Severity, Title, Message string
	ResolvedBy               string `json:"resolved_by"`
}

// staleAlert is the 'Market data stale' alert among the resolved ("true")
// or unresolved ("false") ones, or nil.
func staleAlert(s *server, tok, resolved string) *alertRow {
	var list struct{ Alerts []alertRow }
	s.into(s.do("GET", "/api/system/alerts?resolved="+resolved, tok, ""), &list)
	for _, a := range list.Alerts {
		if a.Title == "Market data stale" {
			return &a
		}
	}
	return nil
}

// feedStatus is /api/system/status's grade of the market data and of the
// exchange (its entry named by exchange_api_key).
func feedStatus(s *server, tok string) (market, exchange string) {
	var st map[string]json.RawMessage
	s.into(s.do("GET", "/api/system/status", tok, ""), &st)
	var key string
	var m, x struct{ Status string }
	json.Unmarshal(st["exchange_api_key"], &key)
	json.Unmarshal(st["market_data"], &m)
	json.Unmarshal(st[key], &x)
	return m.Status, x.Status
}

// evaluations are the AI strategy's stored evaluations, newest first.
func evaluations(s *server, tok string) []evaluation {
	var out struct{ Signals []evaluation }
	s.into(s.do("GET", "/api/strategy/signals/ai_strategy?symbol=BTC-USD", tok, ""), &out)
	return out.Signals
}
