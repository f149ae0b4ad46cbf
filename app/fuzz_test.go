package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"kestrel/app"
	"kestrel/auth"
	"kestrel/httpapi"
	"kestrel/httpapi/openapi/openapitest"
)

// The request fuzz targets send fuzzed bodies to the real handler stack of a
// whole Kestrel (replayed market, sandbox, trading, strategies, backtests,
// settings on SQLite), in process. Properties: never a 5xx for bad input
// (a panic is a 500 through the recovery middleware, so it fails too), and
// every answer is a JSON envelope matching the OpenAPI description.

type fuzzServer struct {
	h              http.Handler
	op, trader     string
	restingOrderID string
	doc            *openapitest.Doc
}

// loopbackOnly keeps a fuzzed setting (an AI provider's base URL) from
// sending anything off this machine: the default transport refuses every
// address that is not loopback, before any name lookup.
func loopbackOnly() {
	tr := http.DefaultTransport.(*http.Transport)
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, err := net.SplitHostPort(addr)
		if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
			return nil, errors.New("fuzz: only loopback addresses may be dialled")
		}
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}
}

func newFuzzServer(f *testing.F) *fuzzServer {
	f.Helper()
	loopbackOnly()
	ctx := context.Background()
	cfg := app.Defaults()
	cfg.Addr, cfg.DataDir = "127.0.0.1:0", f.TempDir()
	a, err := app.New(ctx, cfg, httpapi.BuildInfo{Version: "fuzz"}, nil)
	if err != nil {
		f.Fatal(err)
	}
	go a.Run(ctx)
	f.Cleanup(func() { a.Close() })
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil))) // rejected input is logged by design
	for i := 0; i < 100 && a.Market.LastTickAge() < 0; i++ {
		time.Sleep(20 * time.Millisecond)
	}
	s := &fuzzServer{h: a.API.Handler()}
	if s.doc, err = openapitest.Load(); err != nil {
		f.Fatal(err)
	}
	token := func(email, role string) string {
		u, err := a.Auth.CreateUser(ctx, auth.NewUser{Email: email, Name: role, Password: "fuzz-password", Role: role})
		if err != nil {
			f.Fatal(err)
		}
		tok, err := a.Auth.OpenSession(ctx, u.ID)
		if err != nil {
			f.Fatal(err)
		}
		return tok
	}
	s.op, s.trader = token("op@example.com", "operator"), token("t@example.com", "trader")
	// A resting buy far below the market, for the modify route to work on.
	st, raw := s.send(f, "POST", "/api/trading/orders/limit", s.trader, []byte(`{"symbol":"BTC-USD","side":"BUY","quantity":"0.002","price":"10000"}`))
	var out struct {
		Data struct {
			OrderID string `json:"order_id"`
		} `json:"data"`
	}
	if json.Unmarshal(raw, &out); st != 201 || out.Data.OrderID == "" {
		f.Fatalf("resting order: %d %s", st, raw)
	}
	s.restingOrderID = out.Data.OrderID
	return s
}

func (s *fuzzServer) send(tb testing.TB, method, path, token string, body []byte) (int, []byte) {
	req := httptest.NewRequest(method, path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	rec := httptest.NewRecorder()
	s.h.ServeHTTP(rec, req)
	if rec.Code >= 500 {
		tb.Fatalf("%s %s with %q: %d %s", method, path, body, rec.Code, rec.Body.Bytes())
	}
	if err := s.doc.Check(req, rec.Code, rec.Header(), rec.Body.Bytes()); err != nil {
		tb.Fatalf("with %q: %v", body, err)
	}
	return rec.Code, rec.Body.Bytes()
}

type fuzzRoute struct{ method, path string }

// fuzzRoutes runs one request target: which route and whose token come from
// the input, so one corpus covers a family of decoders.
func fuzzRoutes(f *testing.F, routes []fuzzRoute, seeds ...string) {
	for i, s := range seeds {
		f.Add(uint8(i), []byte(s))
	}
	s := newFuzzServer(f)
	f.Fuzz(func(t *testing.T, pick uint8, body []byte) {
		r := routes[int(pick>>1)%len(routes)]
		token := s.trader
		if pick&1 == 1 {
			token = s.op
		}
		if r.path == "/api/trading/orders/{id}" {
			r.path = "/api/trading/orders/" + s.restingOrderID
		}
		s.send(t, r.method, r.path, token, body)
	})
}

// FuzzHTTPOrders: the order decoders and the gateway's validation.
func FuzzHTTPOrders(f *testing.F) {
	fuzzRoutes(f, []fuzzRoute{
		{"POST", "/api/trading/execute"}, {"POST", "/api/trading/orders/limit"},
		{"POST", "/api/trading/orders/stop-loss"}, {"PUT", "/api/trading/orders/{id}"},
	},
		`{"symbol":"BTC-USD","action":"BUY","quantity":"0.001","order_type":"market"}`,
		`{"symbol":"ETH-USD","action":"SELL","quantity":1e400,"order_type":"limit","price":"-1"}`,
		`{"symbol":"BTC-USD","side":"BUY","quantity":"0.001","price":"1.005","client_order_id":"c1"}`,
		`{"symbol":"btc-usd","side":"sell","quantity":"abc","price":null,"strategy":"`+string(bytes.Repeat([]byte("x"), 300))+`"}`,
		`{"symbol":"BTC-USD","side":"SELL","quantity":"0.001","stop_price":"0.0000000000000000001"}`,
		`{"symbol":"ADA-USD","side":"BUY","quantity":"0.00001","stop_price":"1e-30"}`,
		`{"quantity":"0.002"}`, `{"price":"2.5"}`, `{"quantity":"-0","price":"NaN"}`,
		`{}`, `[]`, `{"symbol":1}`, `{"unknown":true}`, ``, `{"symbol":"BTC-USD"} {}`,
	)
}

// FuzzHTTPSettings: settings documents through save, validate, reset and
// the connection test (whose AI provider can only reach loopback here).
func FuzzHTTPSettings(f *testing.F) {
	fuzzRoutes(f, []fuzzRoute{
		{"PUT", "/api/settings"}, {"POST", "/api/settings/validate"},
		{"POST", "/api/settings/reset"}, {"POST", "/api/settings/test-connection"},
	},
		`{"trading":{"riskManagement":{"maxPositionSize":0.2}}}`,
		`{"trading":{"riskManagement":{"maxPositionSize":7,"dailyLossLimit":-1}}}`,
		`{"ui":{"theme":{"mode":"dark"}}}`,
		`{"system":{"logging":{"level":"NOPE"}},"api":{"exchange":{"timeout":-3}}}`,
		`{"section":"trading"}`, `{"section":"everything"}`,
		`{"provider":"exchange"}`, `{"provider":"ai","settings":{"ai":{"provider":"openai","baseUrl":"http://127.0.0.1:1/v1"}}}`,
		`{"provider":"ai","settings":[]}`,
		`{}`, `null`, `{"trading":null}`, `{"ui":{"theme":{"mode":5}}}`,
	)
}

// FuzzHTTPSettingsImport: an exported settings file, or anything else.
func FuzzHTTPSettingsImport(f *testing.F) {
	fuzzRoutes(f, []fuzzRoute{{"POST", "/api/settings/import"}},
		`{"settings":{"ui":{"theme":{"mode":"light"}}},"exportDate":"2026-01-01T00:00:00Z","version":"1.0.0","checksum":"x"}`,
		`{"settings":{"trading":{"automation":{"emergencyStop":false}}}}`,
		`{"settings":{"bogus":1}}`, `{"settings":"{}"}`, `{"settings":[]}`, `{"settings":null}`, `{}`, `{"settings":{}}x`,
	)
}

// FuzzHTTPStrategyConfig: creating instances and changing a configuration.
func FuzzHTTPStrategyConfig(f *testing.F) {
	fuzzRoutes(f, []fuzzRoute{
		{"PUT", "/api/strategy/config/technical_strategy"}, {"PUT", "/api/strategy/config/hybrid_strategy"},
		{"POST", "/api/strategy"},
	},
		`{"min_confidence":0.65,"symbols":["BTC-USD"]}`,
		`{"indicators":{"sma_short":30,"sma_long":10}}`,
		`{"min_confidence":2,"max_position_size":0,"timeframe":"ONE_WEEK","symbols":[]}`,
		`{"temperature":9,"max_tokens":-1,"model":"gpt-4.1-nano"}`,
		`{"name":"fuzzed","type":"technical","config":{"symbols":["ETH-USD"]}}`,
		`{"name":"","type":"quantum"}`, `{"name":"x","type":"ai_driven","config":[1]}`,
		`{"enabled":"yes"}`, `{}`, `[]`,
	)
}

// FuzzHTTPBacktest: backtest requests (a valid one runs a real backtest).
func FuzzHTTPBacktest(f *testing.F) {
	fuzzRoutes(f, []fuzzRoute{{"POST", "/api/backtests"}},
		`{"strategy_name":"technical_strategy","symbol":"BTC-USD","start_date":"2025-01-01","end_date":"2025-01-09","initial_capital":"10000"}`,
		`{"strategy_name":"technical_strategy","symbol":"ETH-USD","start_date":"2025-01-01","end_date":"2025-01-09","initial_capital":"500","params":{"indicators":{"sma_short":50,"sma_long":5}}}`,
		`{"strategy_name":"nope","symbol":"BTC-USD","start_date":"2025-02-01","end_date":"2025-01-01"}`,
		`{"strategy_name":"technical_strategy","start_date":"2025-01-01T00:00:00Z","end_date":"2030-01-01","initial_capital":"-1","slippage_bps":"5000","volume_cap":"2"}`,
		`{"strategy_name":"technical_strategy","params":"x"}`, `{}`, `{"initial_capital":"1e99999"}`,
	)
}
