package loadgen

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

func TestOnlyLoopbackIsAllowed(t *testing.T) {
	for _, u := range []string{"http://127.0.0.1:8080", "http://localhost:1", "http://[::1]:9000", "http://127.0.0.2:80"} {
		if err := CheckLoopback(u); err != nil {
			t.Errorf("%s refused: %v", u, err)
		}
	}
	for _, u := range []string{"http://10.0.0.1:8080", "http://example.com", "ftp://127.0.0.1", "http://0.0.0.0:8080"} {
		if err := CheckLoopback(u); err == nil {
			t.Errorf("%s allowed", u)
		}
	}
}

func TestMix(t *testing.T) {
	m, err := ParseMix("limit:3,cancel:1")
	if err != nil {
		t.Fatal(err)
	}
	got := schedule(m)
	want := []Op{OpLimit, OpLimit, OpLimit, OpCancel}
	if len(got) != len(want) {
		t.Fatalf("schedule %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("schedule %v, want %v", got, want)
		}
	}
	for _, bad := range []string{"limit:x", "sell:1", "limit:-1"} {
		if _, err := ParseMix(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestPercentiles(t *testing.T) {
	s := &Stats{}
	for i := 1; i <= 100; i++ {
		s.lat = append(s.lat, time.Duration(i)*time.Millisecond)
	}
	for q, want := range map[float64]time.Duration{0.5: 50 * time.Millisecond, 0.99: 99 * time.Millisecond, 1: 100 * time.Millisecond} {
		if got := s.Percentile(q); got != want {
			t.Errorf("p%v = %s, want %s", q*100, got, want)
		}
	}
	if s.Max() != 100*time.Millisecond {
		t.Errorf("max %s", s.Max())
	}
}

// A paced run sends no more than the rate allows, whatever the clients
// could do; the server here answers at once.
func TestRatePacesAllClientsTogether(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"success":true,"data":{"order":{"id":"o1","status":"open"}}}`))
	}))
	defer srv.Close()
	cfg := Config{Clients: 8, Duration: 500 * time.Millisecond, Rate: 20, Mix: map[Op]int{OpLimit: 1}, IDPrefix: "t",
		Plan: Plan{Symbol: "BTC-USD", Side: "SELL", Quantity: decimal.RequireFromString("0.00000001"), LimitPrice: decimal.NewFromInt(1_000_000)}}
	res, err := Run(context.Background(), []string{srv.URL}, "token", cfg)
	if err != nil {
		t.Fatal(err)
	}
	// 20/s for half a second: a ticker every 50 ms fires at most 10 times
	// (eight clients paced each on their own would send up to 80). It
	// fires at least 3 times even on a busy machine: pacing that lets no
	// request through, or a run that sends none, is no pacing.
	got := n.Load()
	if got < 3 || got > 10 {
		t.Fatalf("%d requests reached the server, want 3 to 10", got)
	}
	if res.Ops[OpLimit] == nil || res.Ops[OpLimit].OK != int(got) {
		t.Fatalf("%d requests reached the server, counted %+v", got, res.Ops[OpLimit])
	}
	if _, err := Run(context.Background(), []string{srv.URL}, "token", Config{Clients: 1, Duration: time.Second, Rate: -1, Mix: map[Op]int{OpLimit: 1}}); err == nil {
		t.Fatal("a negative rate was accepted")
	}
}

// Several URLs (a cluster's instances) share the clients round-robin.
func TestClientsSpreadOverURLs(t *testing.T) {
	var hits [3]atomic.Int64
	var srvs []string
	for i := range hits {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits[i].Add(1)
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"success":true,"data":{"order":{"id":"o1","status":"open"}}}`))
		}))
		defer srv.Close()
		srvs = append(srvs, srv.URL)
	}
	cfg := Config{Clients: 6, Duration: 5 * time.Second, MaxOrders: 600, Mix: map[Op]int{OpLimit: 1}, IDPrefix: "t",
		Plan: Plan{Symbol: "BTC-USD", Side: "SELL", Quantity: decimal.RequireFromString("0.00000001"), LimitPrice: decimal.NewFromInt(1_000_000)}}
	res, err := Run(context.Background(), srvs, "token", cfg)
	if err != nil {
		t.Fatal(err)
	}
	total := int64(0)
	for i := range hits {
		if hits[i].Load() == 0 {
			t.Fatalf("instance %d got no request (%d, %d, %d)", i, hits[0].Load(), hits[1].Load(), hits[2].Load())
		}
		total += hits[i].Load()
	}
	if total != 600 || res.Ops[OpLimit].OK != 600 {
		t.Fatalf("%d requests reached the servers, %d counted, want 600", total, res.Ops[OpLimit].OK)
	}
}

// ReadCPU reads a process's CPU time from /proc: this test's own, after
// burning some, is at least what getrusage says it used before.
func TestReadCPUOfThisProcess(t *testing.T) {
	before := selfCPU()
	for x, end := 0, time.Now().Add(50*time.Millisecond); time.Now().Before(end); x++ {
		_ = x * x
	}
	got, err := ReadCPU(os.Getpid())
	if err != nil {
		t.Skip("no /proc here:", err)
	}
	if got < before-clockTick || got <= 0 {
		t.Fatalf("ReadCPU = %s, getrusage said %s before burning CPU", got, before)
	}
}
