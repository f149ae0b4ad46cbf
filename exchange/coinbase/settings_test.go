package coinbase_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"kestrel/exchange/coinbase"
	"kestrel/exchange/coinbase/coinbasefake"
)

// fakeAPI is the fake Coinbase behind a recorder: when each request
// arrived, the first one held back by stall (or until the client gives up).
type fakeAPI struct {
	url, name, secret string
	mu                sync.Mutex
	arrived           []time.Duration
}

func newFakeAPI(t *testing.T, stall time.Duration) *fakeAPI {
	t.Helper()
	creds, err := coinbasefake.NewKey(coinbasefake.ECDSA, "organizations/kestrel-test/apiKeys/settings")
	if err != nil {
		t.Fatal(err)
	}
	fake := coinbasefake.New(creds.Name, creds.Public)
	fake.Deposit("USD", "1000")
	f := &fakeAPI{name: creds.Name, secret: strings.ReplaceAll(creds.Secret, "\n", `\n`)}
	t0 := time.Now()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		at := time.Now()
		f.mu.Lock()
		first := len(f.arrived) == 0
		f.arrived = append(f.arrived, at.Sub(t0))
		f.mu.Unlock()
		if first && stall > 0 {
			select {
			case <-r.Context().Done():
			case <-time.After(stall):
			}
		}
		fake.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	f.url = srv.URL
	return f
}

func (f *fakeAPI) open(t *testing.T, timeout time.Duration, rate int) *coinbase.Exchange {
	t.Helper()
	x, err := coinbase.Open(coinbase.Config{KeyName: f.name, Secret: f.secret, APIURL: f.url, Timeout: timeout, RateLimit: rate})
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// The settings' exchange timeout (api.exchange.timeout) bounds each
// request: a stalled one is abandoned at the timeout and retried, not held
// for the client's default 30 seconds.
func TestConfigTimeoutBoundsEachRequest(t *testing.T) {
	f := newFakeAPI(t, 5*time.Second)
	x := f.open(t, 150*time.Millisecond, 0)
	start := time.Now()
	if _, err := x.Balances(context.Background()); err != nil {
		t.Fatalf("balances after a retry: %v", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.arrived) < 2 {
		t.Fatalf("%d requests: the stalled one was not given up and retried", len(f.arrived))
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("balances took %v with a 150ms timeout", took)
	}
}

// The settings' rate limit (api.exchange.rateLimit) spaces the requests:
// at 10 per second they start 100ms apart (the checks leave room for the
// network's jitter on a busy machine; unlimited, they come within 1ms).
func TestConfigRateLimitSpacesRequests(t *testing.T) {
	f := newFakeAPI(t, 0)
	x := f.open(t, 5*time.Second, 10)
	for i := 0; i < 4; i++ {
		if _, err := x.Balances(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.arrived) < 4 {
		t.Fatalf("%d requests", len(f.arrived))
	}
	for i := 1; i < len(f.arrived); i++ {
		if gap := f.arrived[i] - f.arrived[i-1]; gap < 50*time.Millisecond {
			t.Fatalf("requests %d and %d %v apart at 10 per second (arrivals %v)", i-1, i, gap, f.arrived)
		}
	}
	if span := f.arrived[len(f.arrived)-1] - f.arrived[0]; span < time.Duration(len(f.arrived)-1)*90*time.Millisecond {
		t.Fatalf("%d requests within %v at 10 per second", len(f.arrived), span)
	}
}

// The sandbox switch (api.exchange.sandbox) points the adapter's accounts
// and orders at Coinbase's sandbox host; off, at production.
func TestSandboxSwitchPicksTheHost(t *testing.T) {
	f := newFakeAPI(t, 0)
	for _, c := range []struct {
		sandbox bool
		host    string
	}{{true, coinbase.SandboxURL}, {false, coinbase.ProductionURL}} {
		x, err := coinbase.Open(coinbase.Config{KeyName: f.name, Secret: f.secret, Sandbox: c.sandbox})
		if err != nil {
			t.Fatal(err)
		}
		if x.IsSandbox() != c.sandbox || !strings.Contains(x.String(), c.host+" ") {
			t.Errorf("sandbox %v: adapter %s, IsSandbox %v", c.sandbox, x, x.IsSandbox())
		}
	}
}
