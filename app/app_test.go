package app_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/shopspring/decimal"

	"kestrel/app"
	"kestrel/domain"
	"kestrel/httpapi"
	"kestrel/httpapi/openapi/openapitest"
	"kestrel/logbook"
	"kestrel/store/postgres/pgtest"
	"kestrel/store/sqlite"
)

// server is a whole Kestrel (replayed market, sandbox, trading, realtime) on port 0.
type server struct {
	t   *testing.T
	app *app.App
	url string
	dir string
}

func start(t *testing.T, dir string) *server {
	t.Helper()
	return startWith(t, dir, func(*app.Config) {})
}

// startWith starts a server after edit has changed its configuration.
func startWith(t *testing.T, dir string, edit func(*app.Config)) *server {
	t.Helper()
	cfg := app.Defaults()
	cfg.Addr = "127.0.0.1:0"
	cfg.DataDir = dir
	edit(&cfg)
	a, err := app.New(context.Background(), cfg, httpapi.BuildInfo{Version: "test"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	go a.Run(context.Background())
	s := &server{t: t, app: a, url: a.URL(), dir: dir}
	t.Cleanup(func() { a.Close() })
	// Wait for the first market tick so prices exist.
	for i := 0; i < 100 && a.Market.LastTickAge() < 0; i++ {
		time.Sleep(20 * time.Millisecond)
	}
	return s
}

type reply struct {
	Status  int
	Success bool            `json:"success"`
	Data    json.RawMessage `json:"data"`
	Error   struct {
		Code    string            `json:"code"`
		Message string            `json:"message"`
		Fields  map[string]string `json:"fields"`
		Gates   []gateSeen        `json:"gates"`
	} `json:"error"`
}

func (s *server) do(method, path, token, body string) reply {
	s.t.Helper()
	req, _ := http.NewRequest(method, s.url+path, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	openapitest.Check(s.t, req, res.StatusCode, res.Header, raw)
	r := reply{Status: res.StatusCode}
	if err := json.Unmarshal(raw, &r); err != nil {
		s.t.Fatalf("%s %s: %d %q", method, path, res.StatusCode, raw)
	}
	return r
}

func (s *server) into(r reply, v any) {
	s.t.Helper()
	if err := json.Unmarshal(r.Data, v); err != nil {
		s.t.Fatalf("decode %s: %v", r.Data, err)
	}
}

func (s *server) login(email, password string) string {
	s.t.Helper()
	r := s.do("POST", "/api/auth/login", "", `{"email":"`+email+`","password":"`+password+`"}`)
	var out struct{ Token string }
	s.into(r, &out)
	if out.Token == "" {
		s.t.Fatalf("login %s: %+v", email, r)
	}
	return out.Token
}

// accounts creates the first user (an operator) and a trader.
func (s *server) accounts() (op, trader string) {
	s.t.Helper()
	if r := s.do("POST", "/api/auth/register", "", `{"email":"op@example.com","name":"Olga","password":"operator-pass"}`); r.Status != 201 && r.Status != 200 {
		s.t.Fatalf("register: %+v", r)
	}
	op = s.login("op@example.com", "operator-pass")
	if r := s.do("POST", "/api/users", op, `{"email":"t@example.com","name":"Tess","password":"trader-pass","role":"trader"}`); !r.Success {
		s.t.Fatalf("create trader: %+v", r)
	}
	return op, s.login("t@example.com", "trader-pass")
}

type order struct {
	ID       string          `json:"id"`
	Status   string          `json:"status"`
	Quantity decimal.Decimal `json:"quantity"`
	Price    *decimal.Decimal
	Type     string           `json:"order_type"`
	ParentID string           `json:"parent_order_id"`
	AvgFill  *decimal.Decimal `json:"average_fill_price"`
}

// ownOrders leaves out the protective orders Kestrel attached to BUY fills
// (stop-loss is on by default), and checks each has its parent.
func ownOrders(t *testing.T, os []order) []order {
	t.Helper()
	var out []order
	for _, o := range os {
		if o.ParentID == "" {
			out = append(out, o)
		} else if o.Type != "stop_loss" {
			t.Errorf("protective order %s is a %s, want stop_loss", o.ID, o.Type)
		}
	}
	return out
}

func TestTradingValidationMessages(t *testing.T) {
	s := start(t, t.TempDir())
	_, tok := s.accounts()
	cases := []struct {
		path, body string
		fields     map[string]string
	}{
		{"/api/trading/execute", `{"action":"BUY"}`, map[string]string{"symbol": "Symbol is required", "quantity": "Valid quantity is required"}},
		{"/api/trading/execute", `{"symbol":"BTC-USD","action":"BUY","quantity":-1}`, map[string]string{"quantity": "Valid quantity is required"}},
		{"/api/trading/execute", `{"symbol":"BTC-USD","action":"BUY","quantity":"abc"}`, map[string]string{"quantity": "Valid quantity is required"}},
		{"/api/trading/orders/limit", `{"symbol":"BTC-USD","side":"BUY","quantity":0.01}`, map[string]string{"price": "Valid price is required for limit orders"}},
		{"/api/trading/orders/limit", `{"symbol":"BTC-USD","side":"BUY","quantity":0.01,"price":0}`, map[string]string{"price": "Valid price is required for limit orders"}},
		{"/api/trading/orders/stop-loss", `{"symbol":"BTC-USD","side":"SELL","quantity":0.01}`, map[string]string{"stop_price": "Valid stop price is required for stop orders"}},
	}
	for _, c := range cases {
		r := s.do("POST", c.path, tok, c.body)
		if r.Status != 400 {
			t.Errorf("%s %s: status %d, want 400", c.path, c.body, r.Status)
		}
		for f, msg := range c.fields {
			if r.Error.Fields[f] != msg {
				t.Errorf("%s %s: field %s = %q, want %q", c.path, c.body, f, r.Error.Fields[f], msg)
			}
		}
	}
	if r := s.do("GET", "/api/trading/orders", tok, ""); !strings.Contains(string(r.Data), `"orders":[]`) {
		t.Errorf("invalid requests placed orders: %s", r.Data)
	}
	if r := s.do("POST", "/api/trading/execute", "", `{}`); r.Status != 401 {
		t.Errorf("no token: %d", r.Status)
	}
}

func TestTradeEndToEnd(t *testing.T) {
	s := start(t, t.TempDir())
	op, tok := s.accounts()

	// The realtime socket sees the fill.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, strings.Replace(s.url, "http", "ws", 1)+"/api/ws", &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + tok}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"action":"subscribe","channels":["trades"],"symbols":["BTC-USD"]}`)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)

	// A risk refusal answers 422 with the reason and places nothing.
	r := s.do("POST", "/api/trading/execute", tok, `{"symbol":"BTC-USD","action":"BUY","quantity":1}`)
	if r.Status != 422 || !strings.Contains(r.Error.Message, "exceeds the maximum trade amount of $10000.00") {
		t.Fatalf("oversized trade: %d %+v", r.Status, r.Error)
	}

	r = s.do("POST", "/api/trading/execute", tok, `{"symbol":"BTC-USD","action":"BUY","quantity":0.01}`)
	var placed struct{ Order order }
	s.into(r, &placed)
	if placed.Order.Status != "filled" {
		t.Fatalf("market buy: %+v", r)
	}
	for {
		_, msg, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("no trade_update on the socket: %v", err)
		}
		if strings.Contains(string(msg), `"type":"trade_update"`) && strings.Contains(string(msg), placed.Order.ID) {
			break
		}
	}

	var pos struct {
		Positions []struct {
			Symbol   string
			Quantity decimal.Decimal
		}
	}
	s.into(s.do("GET", "/api/trading/positions", tok, ""), &pos)
	if len(pos.Positions) != 1 || !pos.Positions[0].Quantity.Equal(decimal.RequireFromString("0.01")) {
		t.Fatalf("positions: %+v", pos)
	}
	// Issue 27: the history lists the buy's one fill, executed at its price,
	// and no pending SELL; the protective stop-loss the update loop attaches
	// to the fill is in Orders, tied to the buy (the screen labels it).
	var orders struct{ Orders []order }
	var stops []order
	for i := 0; i < 100 && len(stops) == 0; i++ {
		s.into(s.do("GET", "/api/trading/orders", tok, ""), &orders)
		for _, o := range orders.Orders {
			if o.ParentID == placed.Order.ID {
				stops = append(stops, o)
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(stops) != 1 || stops[0].Type != "stop_loss" || stops[0].Status == "filled" {
		t.Fatalf("orders: %+v, want the resting protective stop of %s", orders, placed.Order.ID)
	}
	var hist struct {
		Trades []struct {
			ID, Status, Side string
			OrderID          string           `json:"order_id"`
			OrderType        string           `json:"order_type"`
			Price            decimal.Decimal  `json:"price"`
			RealizedPnL      *decimal.Decimal `json:"realized_pnl"`
		}
		Total int
	}
	s.into(s.do("GET", "/api/trading/history?symbol=BTC-USD", tok, ""), &hist)
	if hist.Total != 1 || len(hist.Trades) != 1 {
		t.Fatalf("history: %+v, want the one fill", hist)
	}
	if f := hist.Trades[0]; f.Status != "executed" || f.Side != "BUY" || f.OrderID != placed.Order.ID || f.OrderType != "market" ||
		!f.Price.Equal(*placed.Order.AvgFill) || f.RealizedPnL != nil {
		t.Fatalf("history row: %+v, want the market BUY's fill at %s", f, placed.Order.AvgFill)
	}
	var perf struct {
		TotalTrades int     `json:"total_trades"`
		WinRate     float64 `json:"win_rate"`
	}
	s.into(s.do("GET", "/api/trading/performance", tok, ""), &perf)
	if perf.TotalTrades != 0 || perf.WinRate != 0 {
		t.Fatalf("performance: %+v, want no closed trade yet", perf)
	}

	// A limit far below the market rests, can be modified and cancelled once.
	r = s.do("POST", "/api/trading/orders/limit", tok, `{"symbol":"ETH-USD","side":"BUY","quantity":0.1,"price":100}`)
	var lim struct{ Order order }
	s.into(r, &lim)
	if lim.Order.Status != "open" {
		t.Fatalf("limit: %+v", r)
	}
	if r := s.do("PUT", "/api/trading/orders/"+lim.Order.ID, tok, `{}`); r.Status != 400 || r.Error.Message != "Please provide at least one field to modify" {
		t.Fatalf("empty modify: %+v", r)
	}
	if r := s.do("PUT", "/api/trading/orders/"+lim.Order.ID, tok, `{"price":105.5}`); r.Status != 200 {
		t.Fatalf("modify: %+v", r)
	}
	if r := s.do("PUT", "/api/trading/orders/"+placed.Order.ID, tok, `{"price":1}`); r.Status != 409 || r.Error.Message != "Only pending or open limit and stop orders can be modified (this one is filled)" {
		t.Fatalf("modify filled: %+v", r)
	}
	if r := s.do("DELETE", "/api/trading/orders/"+lim.Order.ID, tok, ""); r.Status != 200 {
		t.Fatalf("cancel: %+v", r)
	}
	if r := s.do("DELETE", "/api/trading/orders/"+lim.Order.ID, tok, ""); r.Status != 409 {
		t.Fatalf("second cancel: %+v", r)
	}

	// Emergency stop: cancels open orders, refuses new ones, shows in status; only operators resume.
	s.do("POST", "/api/trading/orders/limit", tok, `{"symbol":"ETH-USD","side":"BUY","quantity":0.1,"price":100}`)
	r = s.do("POST", "/api/trading/stop", tok, "")
	var stop struct {
		Cancelled int `json:"cancelled_orders"`
	}
	s.into(r, &stop)
	if stop.Cancelled != 1 {
		t.Fatalf("stop: %+v", r)
	}
	var st struct {
		Engine struct {
			Halted bool `json:"trading_halted"`
		} `json:"trading_engine"`
		Risk struct {
			EmergencyStop bool `json:"emergency_stop"`
		} `json:"risk_management"`
	}
	s.into(s.do("GET", "/api/system/status", tok, ""), &st)
	if !st.Engine.Halted || !st.Risk.EmergencyStop {
		t.Fatalf("status after stop: %+v", st)
	}
	if r := s.do("POST", "/api/trading/execute", tok, `{"symbol":"BTC-USD","action":"BUY","quantity":0.001}`); r.Status != 422 || !strings.Contains(r.Error.Message, "emergency stop") {
		t.Fatalf("trade while halted: %+v", r)
	}
	var alerts struct {
		Alerts []struct{ Severity, Title string }
	}
	s.into(s.do("GET", "/api/system/alerts?resolved=false", tok, ""), &alerts)
	found := false
	for _, a := range alerts.Alerts {
		found = found || (a.Severity == "critical" && a.Title == "Emergency stop active")
	}
	if !found {
		t.Fatalf("no critical alert: %+v", alerts)
	}
	if r := s.do("POST", "/api/trading/resume", tok, ""); r.Status != 403 {
		t.Fatalf("trader resume: %d", r.Status)
	}
	if r := s.do("POST", "/api/trading/resume", op, ""); r.Status != 200 {
		t.Fatalf("operator resume: %+v", r)
	}
	// Resume resolves the emergency stop's alert on the server (issue 27).
	s.into(s.do("GET", "/api/system/alerts?resolved=false", tok, ""), &alerts)
	for _, a := range alerts.Alerts {
		if a.Title == "Emergency stop active" {
			t.Fatalf("the emergency stop's alert is still open after Resume: %+v", alerts)
		}
	}
}

func TestRiskLimitFromSettings(t *testing.T) {
	s := start(t, t.TempDir())
	op, tok := s.accounts()
	if r := s.do("POST", "/api/trading/execute", tok, `{"symbol":"ETH-USD","action":"BUY","quantity":0.2}`); !r.Success {
		t.Fatalf("trade under default limits: %+v", r)
	}
	if r := s.do("PUT", "/api/settings", op, `{"trading":{"riskManagement":{"maxTradeAmount":100}}}`); r.Status != 200 {
		t.Fatalf("save settings: %+v", r)
	}
	r := s.do("POST", "/api/trading/execute", tok, `{"symbol":"ETH-USD","action":"BUY","quantity":0.2}`)
	if r.Status != 422 || !strings.Contains(r.Error.Message, "maximum trade amount of $100.00") {
		t.Fatalf("trade after lowering the limit: %d %+v", r.Status, r.Error)
	}
	// The settings' emergency-stop switch is the Stop button.
	if r := s.do("PUT", "/api/settings", op, `{"trading":{"automation":{"emergencyStop":true}}}`); r.Status != 200 {
		t.Fatalf("switch on emergency stop: %+v", r)
	}
	if !s.app.Trading.Halt().Active {
		t.Fatal("settings switch did not halt trading")
	}
}

func TestRestartKeepsTheAccount(t *testing.T) {
	dir := t.TempDir()
	s := start(t, dir)
	_, tok := s.accounts()
	s.do("POST", "/api/trading/execute", tok, `{"symbol":"SOL-USD","action":"BUY","quantity":1}`)
	r := s.do("POST", "/api/trading/orders/limit", tok, `{"symbol":"BTC-USD","side":"BUY","quantity":0.02,"price":1000}`)
	var lim struct{ Order order }
	s.into(r, &lim)
	before := s.do("GET", "/api/trading/positions", tok, "")
	s.app.Close()

	s2 := start(t, dir)
	tok = s2.login("t@example.com", "trader-pass")
	after := s2.do("GET", "/api/trading/positions", tok, "")
	var a, b struct {
		Positions []struct {
			Symbol   string
			Quantity decimal.Decimal
			AvgPrice decimal.Decimal `json:"avg_price"`
		}
	}
	s2.into(before, &b)
	s2.into(after, &a)
	if len(a.Positions) != 1 || !a.Positions[0].Quantity.Equal(b.Positions[0].Quantity) || !a.Positions[0].AvgPrice.Equal(b.Positions[0].AvgPrice) {
		t.Fatalf("positions changed across restart: %+v -> %+v", b, a)
	}
	var orders struct{ Orders []order }
	s2.into(s2.do("GET", "/api/trading/orders?status_filter=open", tok, ""), &orders)
	if own := ownOrders(t, orders.Orders); len(own) != 1 || own[0].ID != lim.Order.ID || len(orders.Orders) != 2 {
		t.Fatalf("open orders after restart: %+v (want the limit and the buy's protective stop)", orders)
	}
}

func TestLogsRestartAndBackup(t *testing.T) {
	book := logbook.New(100)
	prev := slog.Default()
	slog.SetDefault(slog.New(book.Handler(slog.NewTextHandler(io.Discard, nil))))
	t.Cleanup(func() { slog.SetDefault(prev) })
	dir := t.TempDir()
	cfg := app.Defaults()
	cfg.Addr, cfg.DataDir, cfg.LogBook = "127.0.0.1:0", dir, book
	a, err := app.New(context.Background(), cfg, httpapi.BuildInfo{Version: "test"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	go a.Run(context.Background())
	t.Cleanup(func() { a.Close() })
	s := &server{t: t, app: a, url: a.URL(), dir: dir}
	op, tok := s.accounts()

	// A refused order logs a warning that /system/logs lists (operators only).
	s.do("POST", "/api/trading/execute", tok, `{"symbol":"BTC-USD","action":"BUY","quantity":3}`)
	if r := s.do("GET", "/api/system/logs", tok, ""); r.Status != 403 {
		t.Fatalf("trader reading logs: %d", r.Status)
	}
	var logs struct {
		Logs []struct{ Level, Message, Component string }
	}
	s.into(s.do("GET", "/api/system/logs?level=WARNING&component=trading", op, ""), &logs)
	if len(logs.Logs) == 0 || logs.Logs[0].Level != "WARNING" || !strings.Contains(logs.Logs[0].Message, "Order refused by risk check") {
		t.Fatalf("logs: %+v", logs)
	}
	if r := s.do("GET", "/api/system/logs?level=LOUD", op, ""); r.Status != 400 {
		t.Fatalf("bad level: %d", r.Status)
	}

	// Restart: the engine comes back and keeps trading.
	if r := s.do("POST", "/api/system/restart", tok, ""); r.Status != 403 {
		t.Fatalf("trader restart: %d", r.Status)
	}
	if r := s.do("POST", "/api/system/restart", op, ""); r.Status != 200 {
		t.Fatalf("restart: %+v", r)
	}
	time.Sleep(1500 * time.Millisecond)
	if age := a.Market.LastTickAge(); age < 0 || age > time.Second+500*time.Millisecond {
		t.Fatalf("market not ticking after restart: %s", age)
	}
	if r := s.do("POST", "/api/trading/execute", tok, `{"symbol":"ETH-USD","action":"BUY","quantity":0.01}`); !r.Success {
		t.Fatalf("trade after restart: %+v", r)
	}

	// A backup is a consistent, openable copy of the database.
	path, err := a.Backups.Take(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	cp, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	if n, err := cp.CountUsers(context.Background()); err != nil || n != 2 {
		t.Fatalf("backup users = %d, %v", n, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "backups")); err != nil {
		t.Fatal(err)
	}
}

func TestMarketDataAPI(t *testing.T) {
	s := start(t, t.TempDir())
	_, tok := s.accounts()
	var tk struct {
		Symbol    string
		Price     decimal.Decimal
		Bid, Ask  decimal.Decimal
		Volume24h decimal.Decimal `json:"volume_24h"`
	}
	s.into(s.do("GET", "/api/market-data/ticker/btc-usd", tok, ""), &tk)
	if tk.Symbol != "BTC-USD" || !tk.Price.IsPositive() || !tk.Bid.LessThan(tk.Ask) || !tk.Volume24h.IsPositive() {
		t.Fatalf("ticker: %+v", tk)
	}
	if r := s.do("GET", "/api/market-data/ticker/DOGE-USD", tok, ""); r.Status != 404 || !strings.Contains(r.Error.Message, "Unknown symbol") {
		t.Fatalf("unknown symbol: %+v", r)
	}
	var cs struct {
		Candles []struct {
			Timestamp time.Time
			Low, High decimal.Decimal
		}
	}
	s.into(s.do("GET", "/api/market-data/candles/ETH-USD", tok, ""), &cs)
	if len(cs.Candles) != 100 || !cs.Candles[0].Timestamp.Before(cs.Candles[99].Timestamp) || cs.Candles[1].Timestamp.Sub(cs.Candles[0].Timestamp) != time.Hour {
		t.Fatalf("candles: %d, ascending hourly expected", len(cs.Candles))
	}
	for _, c := range []string{
		"/api/market-data/candles/ETH-USD?granularity=TEN_SECONDS",
		"/api/market-data/candles/ETH-USD?start=2026-05-02&end=2026-05-01",
		"/api/market-data/candles/ETH-USD?limit=0",
		"/api/market-data/historical/ETH-USD?start_date=yesterday",
		"/api/market-data/indicators/ETH-USD?indicator_type=VWAP",
	} {
		if r := s.do("GET", c, tok, ""); r.Status != 400 {
			t.Errorf("%s: %d %+v", c, r.Status, r.Error)
		}
	}
	var hist struct {
		Candles []struct{ Timestamp time.Time }
	}
	s.into(s.do("GET", "/api/market-data/historical/BTC-USD?granularity=ONE_DAY&start_date=2025-01-01&end_date=2025-02-01", tok, ""), &hist)
	if len(hist.Candles) != 31 {
		t.Fatalf("historical January 2025 daily candles: %d", len(hist.Candles))
	}
	var ind struct {
		Readings []struct {
			Value        float64
			Upper, Lower *float64
		}
	}
	s.into(s.do("GET", "/api/market-data/indicators/BTC-USD?indicator_type=RSI&limit=10", tok, ""), &ind)
	if len(ind.Readings) != 10 || ind.Readings[9].Value <= 0 || ind.Readings[9].Value >= 100 {
		t.Fatalf("RSI readings: %+v", ind)
	}
	s.into(s.do("GET", "/api/market-data/indicators/BTC-USD?indicator_type=BOLLINGER&limit=5", tok, ""), &ind)
	if r := ind.Readings[4]; r.Upper == nil || !(*r.Upper > r.Value && r.Value > *r.Lower) {
		t.Fatalf("Bollinger: %+v", ind)
	}
	if r := s.do("GET", "/api/market-data/products", tok, ""); !r.Success || !strings.Contains(string(r.Data), "ADA-USD") {
		t.Fatalf("products: %+v", r)
	}
}

func TestSecretsNeverInResponses(t *testing.T) {
	s := start(t, t.TempDir())
	op, _ := s.accounts()
	const key, secret = "KEY-PLAINTEXT-AAAA1111", "SECRET-PLAINTEXT-BBBB2222"
	if r := s.do("PUT", "/api/settings", op, `{"api":{"exchange":{"provider":"coinbase","apiKey":"`+key+`","apiSecret":"`+secret+`"}}}`); r.Status != 200 {
		t.Fatalf("save: %+v", r)
	}
	for _, path := range []string{"/api/settings", "/api/settings/export", "/api/system/config", "/api/system/logs?level=DEBUG"} {
		req, _ := http.NewRequest("GET", s.url+path, nil)
		req.Header.Set("Authorization", "Bearer "+op)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || strings.Contains(string(raw), "PLAINTEXT") {
			t.Errorf("%s: %d, leaks a secret: %v", path, res.StatusCode, strings.Contains(string(raw), "PLAINTEXT"))
		}
	}
	// The connection test uses the stored secret (not a PEM key here) and says why it fails, without echoing it.
	var tc struct{ Status, Message string }
	s.into(s.do("POST", "/api/settings/test-connection", op, `{"provider":"exchange"}`), &tc)
	if tc.Status != "Failed" || !strings.Contains(tc.Message, "PEM") || strings.Contains(tc.Message, "PLAINTEXT") {
		t.Fatalf("test connection: %+v", tc)
	}
	s.into(s.do("POST", "/api/settings/test-connection", op, `{"provider":"exchange","settings":{"exchange":{"provider":"sandbox"}}}`), &tc)
	if tc.Status != "Connected" {
		t.Fatalf("sandbox test connection: %+v", tc)
	}
}

// Every risk refusal through the real API: 422 with the reason, nothing placed.
func TestEveryRiskRefusal(t *testing.T) {
	s := start(t, t.TempDir())
	op, tok := s.accounts()
	ctx := context.Background()
	setRisk := func(body string) {
		t.Helper()
		if r := s.do("PUT", "/api/settings", op, `{"trading":{"riskManagement":`+body+`}}`); r.Status != 200 {
			t.Fatalf("settings %s: %+v", body, r)
		}
	}
	// Orders the trader placed (protective stops arrive on their own, after fills).
	own := func() int {
		var os struct{ Orders []order }
		s.into(s.do("GET", "/api/trading/orders", tok, ""), &os)
		n := 0
		for _, o := range os.Orders {
			if o.ParentID == "" {
				n++
			}
		}
		return n
	}
	refused := func(body, want string) {
		t.Helper()
		before := own()
		r := s.do("POST", "/api/trading/execute", tok, body)
		if r.Status != 422 || !strings.Contains(r.Error.Message, want) {
			t.Fatalf("%s: %d %q, want 422 containing %q", body, r.Status, r.Error.Message, want)
		}
		if after := own(); after != before {
			t.Fatalf("%s: a refused order was placed", body)
		}
	}
	placed := func(body string) {
		t.Helper()
		if r := s.do("POST", "/api/trading/execute", tok, body); !r.Success {
			t.Fatalf("%s: %+v", body, r)
		}
	}

	refused(`{"symbol":"BTC-USD","action":"BUY","quantity":0.0001}`, "below the minimum trade amount of $10.00")
	refused(`{"symbol":"BTC-USD","action":"BUY","quantity":1}`, "exceeds the maximum trade amount of $10000.00")
	refused(`{"symbol":"ETH-USD","action":"SELL","quantity":1}`, "Insufficient balance for this trade")

	setRisk(`{"maxPositionSize":0.01}`) // 1% of 100,000
	refused(`{"symbol":"ETH-USD","action":"BUY","quantity":1}`, "the maximum position size is 1.0%")
	setRisk(`{"maxPositionSize":0.1,"maxOpenPositions":1}`)
	placed(`{"symbol":"ETH-USD","action":"BUY","quantity":0.1}`)
	refused(`{"symbol":"SOL-USD","action":"BUY","quantity":1}`, "Maximum open positions reached (1)")
	placed(`{"symbol":"ETH-USD","action":"SELL","quantity":0.05}`) // reducing is always allowed

	setRisk(`{"maxOpenPositions":10,"maxDailyTrades":2}`)
	refused(`{"symbol":"ETH-USD","action":"BUY","quantity":0.01}`, "Daily trade limit reached (2 trades today)")
	setRisk(`{"maxDailyTrades":50}`)

	// A portfolio that was worth much more at midnight is past the daily loss limit;
	// one worth much more at its peak is past the drawdown limit.
	now := time.Now().UTC()
	midnight := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	if err := s.app.Store.AppendPortfolioPoint(ctx, domain.PortfolioPoint{Time: midnight, Value: decimal.NewFromInt(106_000), Cash: decimal.NewFromInt(106_000)}); err != nil {
		t.Fatal(err)
	}
	s.app.Trading.ReloadMarks() // the history was written behind the gateway's back
	refused(`{"symbol":"ETH-USD","action":"BUY","quantity":0.01}`, "Daily loss limit reached")
	setRisk(`{"dailyLossLimit":0.2}`)
	if err := s.app.Store.AppendPortfolioPoint(ctx, domain.PortfolioPoint{Time: midnight.Add(-48 * time.Hour), Value: decimal.NewFromInt(150_000), Cash: decimal.NewFromInt(150_000)}); err != nil {
		t.Fatal(err)
	}
	s.app.Trading.ReloadMarks()
	refused(`{"symbol":"ETH-USD","action":"BUY","quantity":0.01}`, "Maximum drawdown reached")
	setRisk(`{"maxDrawdown":0.5}`)
	placed(`{"symbol":"ETH-USD","action":"BUY","quantity":0.01}`)

	s.do("POST", "/api/trading/stop", tok, "")
	refused(`{"symbol":"ETH-USD","action":"BUY","quantity":0.01}`, "Trading is halted: emergency stop is active")
}

func TestLogLevelFromSettings(t *testing.T) {
	lv := new(slog.LevelVar)
	cfg := app.Defaults()
	cfg.Addr, cfg.DataDir, cfg.LogLevelVar = "127.0.0.1:0", t.TempDir(), lv
	a, err := app.New(context.Background(), cfg, httpapi.BuildInfo{Version: "test"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	go a.Run(context.Background())
	t.Cleanup(func() { a.Close() })
	s := &server{t: t, app: a, url: a.URL()}
	op, _ := s.accounts()
	for _, c := range []struct {
		level string
		want  slog.Level
	}{{"DEBUG", slog.LevelDebug}, {"ERROR", slog.LevelError}, {"CRITICAL", logbook.LevelCritical}, {"INFO", slog.LevelInfo}} {
		if r := s.do("PUT", "/api/settings", op, `{"system":{"logging":{"level":"`+c.level+`"}}}`); r.Status != 200 {
			t.Fatalf("save level %s: %+v", c.level, r)
		}
		if lv.Level() != c.want {
			t.Fatalf("level %s: logger at %s", c.level, lv.Level())
		}
	}
}

func TestResetAndImportNeverLiftTheEmergencyStop(t *testing.T) {
	s := start(t, t.TempDir())
	op, _ := s.accounts()
	r := s.do("GET", "/api/settings/export", op, "")
	s.do("POST", "/api/trading/stop", op, "")
	for _, c := range []struct{ path, body string }{{"/api/settings/reset", `{"section":""}`}, {"/api/settings/reset", `{"section":"trading"}`}, {"/api/settings/import", string(r.Data)}} {
		if r := s.do("POST", c.path, op, c.body); r.Status != 200 {
			t.Fatalf("%s: %+v", c.path, r)
		}
		if !s.app.Trading.Halt().Active {
			t.Fatalf("%s %s lifted the emergency stop", c.path, c.body)
		}
	}
	if r := s.do("PUT", "/api/settings", op, `{"trading":{"automation":{"emergencyStop":false}}}`); r.Status != 200 || s.app.Trading.Halt().Active {
		t.Fatalf("switching it off explicitly: %+v, halted %v", r, s.app.Trading.Halt().Active)
	}
}

// The whole server on PostgreSQL: trade, restart, nothing lost.
func TestTradingOnPostgres(t *testing.T) {
	dbURL := pgtest.URL(t)
	open := func(dir string) *server {
		cfg := app.Defaults()
		cfg.Addr, cfg.DataDir, cfg.DatabaseURL = "127.0.0.1:0", dir, dbURL
		a, err := app.New(context.Background(), cfg, httpapi.BuildInfo{Version: "test"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		go a.Run(context.Background())
		for i := 0; i < 100 && a.Market.LastTickAge() < 0; i++ {
			time.Sleep(20 * time.Millisecond)
		}
		return &server{t: t, app: a, url: a.URL(), dir: dir}
	}
	dir := t.TempDir()
	s := open(dir)
	_, tok := s.accounts()
	if r := s.do("POST", "/api/trading/execute", tok, `{"symbol":"ETH-USD","action":"BUY","quantity":0.5}`); !r.Success {
		t.Fatalf("market buy: %+v", r)
	}
	var lim struct{ Order order }
	s.into(s.do("POST", "/api/trading/orders/limit", tok, `{"symbol":"BTC-USD","side":"BUY","quantity":0.01,"price":2000}`), &lim)
	if lim.Order.Status != "open" {
		t.Fatalf("limit: %+v", lim)
	}
	s.app.Close()

	s2 := open(dir)
	t.Cleanup(func() { s2.app.Close() })
	tok = s2.login("t@example.com", "trader-pass")
	var pos struct {
		Positions []struct {
			Symbol   string
			Quantity decimal.Decimal
		}
	}
	s2.into(s2.do("GET", "/api/trading/positions", tok, ""), &pos)
	if len(pos.Positions) != 1 || !pos.Positions[0].Quantity.Equal(decimal.RequireFromString("0.5")) {
		t.Fatalf("positions after restart: %+v", pos)
	}
	var orders struct{ Orders []order }
	s2.into(s2.do("GET", "/api/trading/orders?status_filter=open", tok, ""), &orders)
	if own := ownOrders(t, orders.Orders); len(own) != 1 || own[0].ID != lim.Order.ID || len(orders.Orders) != 2 {
		t.Fatalf("open orders after restart: %+v (want the limit and the buy's protective stop)", orders)
	}
}

func TestFeedSwitchIsOperatorOnly(t *testing.T) {
	s := start(t, t.TempDir())
	op, trader := s.accounts()
	for _, path := range []string{"/api/market-data/websocket/subscribe", "/api/market-data/websocket/unsubscribe"} {
		body := `{"symbols":["BTC-USD"],"channels":["ticker"]}`
		if r := s.do("POST", path, trader, body); r.Status != http.StatusForbidden {
			t.Errorf("trader %s = %d %+v, want 403", path, r.Status, r.Error)
		}
		if r := s.do("POST", path, op, body); r.Status != http.StatusOK {
			t.Errorf("operator %s = %d %+v, want 200", path, r.Status, r.Error)
		}
	}
}
