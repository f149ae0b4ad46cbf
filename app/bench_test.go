package app_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"kestrel/app"
	"kestrel/httpapi"
)

// benchServer boots the whole server (SQLite in a temp dir) with an
// operator account and returns its URL and token.
func benchServer(b *testing.B) (string, string) {
	b.Helper()
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil))) // keep the figures readable
	b.Cleanup(func() { slog.SetDefault(prev) })
	cfg := app.Defaults()
	cfg.Addr, cfg.DataDir = "127.0.0.1:0", b.TempDir()
	cfg.StartingUSD = "1000000000"
	a, err := app.New(context.Background(), cfg, httpapi.BuildInfo{Version: "bench"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	go a.Run(context.Background())
	b.Cleanup(func() { a.Close() })
	// Generous limits so the benchmark measures the engine, not the risk refusals.
	post := func(path, token, body string) string {
		req, _ := http.NewRequest("POST", a.URL()+path, strings.NewReader(body))
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		return string(raw)
	}
	post("/api/auth/register", "", `{"email":"bench@example.com","name":"Bench","password":"bench-password"}`)
	raw := post("/api/auth/login", "", `{"email":"bench@example.com","password":"bench-password"}`)
	i := strings.Index(raw, `"token":"`)
	token := raw[i+9 : i+9+strings.Index(raw[i+9:], `"`)]
	req, _ := http.NewRequest("PUT", a.URL()+"/api/settings", strings.NewReader(
		`{"trading":{"riskManagement":{"maxDailyTrades":1000,"maxTradeAmount":1000000,"maxPositionSize":1}},"system":{"performance":{"maxConcurrentRequests":100}}}`))
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != 200 {
		b.Fatalf("raise limits: %v %v", err, res.Status)
	}
	res.Body.Close()
	return a.URL(), token
}

func benchDo(b *testing.B, c *http.Client, method, url, token, body string) {
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := c.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode >= 300 {
		b.Fatalf("%s %s: %s %s", method, url, res.Status, raw)
	}
}

// BenchmarkAPITicker: authenticated GET /api/market-data/ticker from parallel clients.
func BenchmarkAPITicker(b *testing.B) {
	url, token := benchServer(b)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		c := &http.Client{}
		for pb.Next() {
			benchDo(b, c, "GET", url+"/api/market-data/ticker/BTC-USD", token, "")
		}
	})
}

// BenchmarkAPIMarketOrder: POST /api/trading/execute end to end (validation,
// risk check, sandbox fill, one SQLite transaction), sequentially.
func BenchmarkAPIMarketOrder(b *testing.B) {
	url, token := benchServer(b)
	c := &http.Client{}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i > 0 && i%900 == 0 { // the daily trade limit tops out at 1000: continue on a fresh server
			b.StopTimer()
			url, token = benchServer(b)
			b.StartTimer()
		}
		side := "BUY"
		if i%2 == 1 {
			side = "SELL"
		}
		benchDo(b, c, "POST", url+"/api/trading/execute", token, `{"symbol":"ETH-USD","action":"`+side+`","quantity":0.01}`)
	}
}

// BenchmarkAPILimitOrder: POST /api/trading/orders/limit through the real HTTP
// stack with persistence; each order rests (far below the market), holding
// funds. Reports orders/s and p50/p99 latency.
func BenchmarkAPILimitOrder(b *testing.B) {
	url, token := benchServer(b)
	c := &http.Client{}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	start := time.Now()
	paused := time.Duration(0)
	for i := 0; i < b.N; i++ {
		if i > 0 && i%900 == 0 { // the daily trade limit tops out at 1000: continue on a fresh server
			b.StopTimer()
			p := time.Now()
			url, token = benchServer(b)
			paused += time.Since(p)
			b.StartTimer()
		}
		t0 := time.Now()
		benchDo(b, c, "POST", url+"/api/trading/orders/limit", token, `{"symbol":"BTC-USD","side":"BUY","quantity":0.001,"price":`+strconv.Itoa(20000+i%1000)+`}`)
		lat = append(lat, time.Since(t0))
	}
	elapsed := time.Since(start) - paused
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "orders/s")
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}
