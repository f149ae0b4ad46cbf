package cluster_test

import (
	"context"
	crand "crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/exchange/coinbase/coinbasefake"
)

// TestCoinbaseFrozenLeader runs two real instances trading on Coinbase (the
// local fake, in this process) and freezes the leader (SIGSTOP), while it
// waits on an order Coinbase has placed but not yet answered, during a
// flood of limit orders, each with a client order id and a quantity of its
// own, retried with that id on 504 or no answer until answered for certain
// (and on 503 half the time; the other half takes the 503 at its word,
// unless an earlier attempt's outcome was unknown). The follower takes
// over; the old leader resumes with commands in its buffers and requests
// of a client that kept sending to it. Then, from the fake's own record:
// no order was placed twice at the exchange (by client order id, and by
// the quantity that names each of the test's orders); every acknowledged
// order is at the exchange exactly once, under the id it was acknowledged
// with; no order whose every attempt was answered 503 is there.
func TestCoinbaseFrozenLeader(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two servers")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	dbURL := freshDatabase(t)
	natsURL := natsOrSkip(t)
	bin := buildKestrel(t, ctx)

	key, err := coinbasefake.NewKey(coinbasefake.ECDSA, "organizations/kestrel-cluster/apiKeys/trading")
	if err != nil {
		t.Fatal(err)
	}
	fake := coinbasefake.New(key.Name, key.Public)
	fake.Deposit("USD", "100000")
	prices := map[string]string{"BTC-USD": "50000", "ETH-USD": "3000", "SOL-USD": "150", "ADA-USD": "0.45"}
	tick := func() {
		for sym, p := range prices {
			fake.SetPrice(sym, p)
		}
	}
	tick()
	srv := httptest.NewServer(fake.Handler())
	t.Cleanup(srv.Close)
	go func() { // Coinbase's ticker keeps the market fresh
		for n := 1; ctx.Err() == nil; n++ {
			time.Sleep(time.Second)
			fake.Heartbeat(n)
			tick()
		}
	}()
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"

	suffix := randHex(4)
	name := "kestrelcb" + suffix
	sealKey := make([]byte, 32) // one key for the cluster: it seals the stored Coinbase key
	_, _ = crand.Read(sealKey)
	var all []*instance
	for i := 1; i <= 2; i++ {
		all = append(all, start(t, bin, dbURL, natsURL, name, fmt.Sprintf("cb%d-%s", i, suffix), "KESTREL_FORWARD_TIMEOUT=1s",
			"KESTREL_SECRET_KEY="+base64.StdEncoding.EncodeToString(sealKey),
			"KESTREL_COINBASE_API_URL="+srv.URL, "KESTREL_COINBASE_WS_URL="+wsURL, "KESTREL_COINBASE_USER_WS_URL="+wsURL))
	}
	for _, in := range all {
		waitReady(t, ctx, in)
	}
	token := register(t, ctx, all[0].url)
	secret, _ := json.Marshal(key.Secret)
	keyName, _ := json.Marshal(key.Name)
	settings := fmt.Sprintf(`{"api":{"exchange":{"provider":"coinbase","apiKey":%s,"apiSecret":%s,"sandbox":false,"timeout":5000,"rateLimit":100}},
		"trading":{"riskManagement":{"maxDailyTrades":1000,"maxPositionSize":0.9}}}`, keyName, secret)
	waitFor(t, ctx, 20*time.Second, "the cluster to switch to Coinbase", func() bool { // once a leader is elected
		s, msg := callWithError(ctx, "PUT", all[1].url+"/api/settings", token, settings, nil)
		if s != http.StatusOK && s != http.StatusServiceUnavailable {
			t.Fatalf("switch the cluster to Coinbase through %s: %d %s", all[1].id, s, msg)
		}
		return s == http.StatusOK
	})
	waitFor(t, ctx, 20*time.Second, "the leader's Coinbase user feed", func() bool { return fake.Subscribers("user") >= 1 })

	// Each order is a limit BUY far below the market (it rests) with a
	// quantity of its own, so the exchange's record names it whatever
	// client_order_id it was sent with.
	var seq atomic.Int64
	newOrder := func() (cid, qty string) {
		n := seq.Add(1)
		return fmt.Sprintf("cbf-%s-%d", suffix, n), decimal.New(1000000+n, -8).String() // 0.01000001, 0.01000002, ...
	}
	type attempt struct {
		cid, qty, id string
		status       int
		msg          string
		at           time.Time
	}
	var mu sync.Mutex
	var attempts []attempt
	placeVia := func(url, cid, qty string, limit time.Duration) attempt {
		rctx, cancel := context.WithTimeout(ctx, limit)
		defer cancel()
		var out struct {
			Order order `json:"order"`
		}
		body := fmt.Sprintf(`{"symbol":"BTC-USD","side":"BUY","quantity":%q,"price":"1000","client_order_id":%q}`, qty, cid)
		s, msg := callWithError(rctx, "POST", url+"/api/trading/orders/limit", token, body, &out)
		a := attempt{cid: cid, qty: qty, id: out.Order.ID, status: s, msg: msg, at: time.Now()}
		mu.Lock()
		attempts = append(attempts, a)
		mu.Unlock()
		return a
	}
	// Warm up: a first order reaches Coinbase.
	waitFor(t, ctx, 20*time.Second, "a first order through "+all[1].id, func() bool {
		cid, qty := newOrder()
		for range 20 {
			a := placeVia(all[1].url, cid, qty, 10*time.Second)
			if a.status == http.StatusCreated || a.status == http.StatusOK {
				return true
			}
			if a.status != http.StatusServiceUnavailable && a.status != http.StatusGatewayTimeout && a.status != 0 {
				t.Fatalf("first order: %d %s", a.status, a.msg)
			}
			time.Sleep(200 * time.Millisecond)
		}
		return false
	})

	// The switch restarts the engine, and leadership may move with it: the
	// leader is the one both name once an order has gone through.
	time.Sleep(time.Second)
	var leader string
	waitFor(t, ctx, 20*time.Second, "both instances to agree on a leader", func() bool {
		seen := map[string]bool{}
		for _, in := range all {
			v, ok := clusterOf(ctx, in.url, token)
			if !ok || len(v.Instances) != 2 || v.Leader == "" {
				return false
			}
			seen[v.Leader] = true
			leader = v.Leader
		}
		return len(seen) == 1
	})
	old, next := all[0], all[1]
	if next.id == leader {
		old, next = next, old
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	client := func(c int, url string, limit time.Duration) {
		defer wg.Done()
		rng := rand.New(rand.NewSource(int64(c)))
		for {
			select {
			case <-stop:
				return
			default:
			}
			cid, qty := newOrder()
			unknown := false       // an attempt may have placed it: retried until answered for certain
			for ctx.Err() == nil { // until answered for certain, or a 503 taken at its word
				a := placeVia(url, cid, qty, limit)
				if a.status == http.StatusCreated || a.status == http.StatusOK {
					break
				}
				if a.status == http.StatusServiceUnavailable && !unknown && rng.Intn(2) == 0 {
					break
				}
				unknown = unknown || a.status == http.StatusGatewayTimeout || a.status == 0
				if a.status != http.StatusServiceUnavailable && a.status != http.StatusGatewayTimeout && a.status != 0 {
					t.Errorf("order %s: %d %s", cid, a.status, a.msg)
					break
				}
				time.Sleep(100 * time.Millisecond)
			}
			time.Sleep(150 * time.Millisecond)
		}
	}
	for c := range 3 {
		wg.Add(1)
		go client(c, next.url, 10*time.Second)
	}
	// One client keeps sending to the leader itself: its requests wait out
	// the freeze and are handled when the old leader wakes, no longer leading.
	wg.Add(1)
	go client(3, old.url, 30*time.Second)
	time.Sleep(time.Second)

	// The leader is frozen with an order in flight at Coinbase: the next
	// create is carried out and its answer held back, the leader waits on
	// it, and then it is stopped. That order's client is answered 504 (or
	// nothing) and retries it on the new leader, which must find it at
	// Coinbase rather than place it again; the old leader, woken, must not
	// place it again either.
	fake.Inject(coinbasefake.Fault{Match: "POST /orders", Times: 1, Hang: true})
	waitFor(t, ctx, 10*time.Second, "an order to reach Coinbase and hang there", func() bool { return fake.PendingFaults() == 0 })
	if err := old.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	frozen := time.Now()
	resumed := false
	resume := func() {
		if !resumed {
			resumed = true
			_ = old.cmd.Process.Signal(syscall.SIGCONT)
		}
	}
	defer resume()
	waitFor(t, ctx, 15*time.Second, next.id+" to name itself the leader", func() bool {
		v, ok := clusterOf(ctx, next.url, token)
		return ok && v.Leader == next.id
	})
	named := time.Since(frozen)
	namedAt := time.Now()
	waitFor(t, ctx, 20*time.Second, "an order through the new leader", func() bool {
		mu.Lock()
		defer mu.Unlock()
		for _, a := range attempts {
			if a.at.After(namedAt) && a.status == http.StatusCreated {
				return true
			}
		}
		return false
	})
	firstOrder := time.Since(frozen)
	time.Sleep(2 * time.Second) // the flood goes on through the new leader
	resume()
	time.Sleep(4 * time.Second) // the old leader wakes with commands in its buffers, and its client's requests
	close(stop)
	wg.Wait()
	t.Logf("%s named itself the leader %s after the SIGSTOP of %s; first order through it acknowledged %s after",
		next.id, named.Round(time.Millisecond), old.id, firstOrder.Round(time.Millisecond))
	if named > 10*time.Second {
		t.Errorf("a new leader was named %s after the freeze, want at most 10 s", named)
	}

	// The exchange's record.
	exOrders := fake.Orders()
	byQty := map[string][]coinbasefake.Order{}
	byCOID := map[string]int{}
	for _, o := range exOrders {
		byCOID[o.ClientOrderID]++
		if c := o.OrderConfiguration.LimitGTC; c != nil && c.LimitPrice == "1000" {
			q := decimal.RequireFromString(c.BaseSize).String()
			byQty[q] = append(byQty[q], o)
		} else {
			t.Errorf("an order the test did not place is at the exchange: %+v", o)
		}
	}
	for coid, n := range byCOID {
		if n > 1 {
			t.Errorf("client_order_id %s is at the exchange %d times", coid, n)
		}
	}
	type fate struct {
		qty       string
		acked     map[string]bool // order ids it was acknowledged with
		refused   bool            // every attempt 503
		attempts  int
		unknowns  int
		lastError string
	}
	fates := map[string]*fate{}
	counts := map[int]int{}
	for _, a := range attempts {
		counts[a.status]++
		f := fates[a.cid]
		if f == nil {
			f = &fate{qty: a.qty, acked: map[string]bool{}, refused: true}
			fates[a.cid] = f
		}
		f.attempts++
		switch a.status {
		case http.StatusCreated, http.StatusOK:
			f.acked[a.id] = true
			f.refused = false
		case http.StatusServiceUnavailable:
			f.lastError = a.msg
		default:
			f.refused = false
			f.unknowns++
		}
	}
	acked, refused := 0, 0
	for cid, f := range fates {
		at := byQty[f.qty]
		if len(at) > 1 {
			t.Errorf("order %s (quantity %s) was placed %d times at the exchange", cid, f.qty, len(at))
		}
		switch {
		case len(f.acked) > 0:
			acked++
			if len(f.acked) > 1 {
				t.Errorf("order %s was acknowledged with %d different ids: %v", cid, len(f.acked), f.acked)
			}
			if len(at) != 1 {
				t.Errorf("acknowledged order %s is at the exchange %d times", cid, len(at))
			} else if !f.acked[at[0].OrderID] {
				t.Errorf("order %s was acknowledged as %v, but the exchange has it as %s", cid, f.acked, at[0].OrderID)
			}
		case f.refused:
			refused++
			if len(at) != 0 {
				t.Errorf("order %s was answered 503 at every attempt (%s), but it is at the exchange", cid, f.lastError)
			}
		}
		delete(byQty, f.qty)
	}
	for q, os := range byQty {
		t.Errorf("an order of quantity %s is at the exchange but no client sent it: %+v", q, os)
	}
	repeats := 0
	for _, n := range fake.Creates() {
		if n > 1 {
			repeats++
		}
	}
	t.Logf("%d orders (%d acknowledged, %d given up after 503s), %d at the exchange; attempts by status %v; client_order_ids sent to the exchange more than once: %d (Coinbase answered the repeat with the order it had)",
		len(fates), acked, refused, len(exOrders), counts, repeats)
	if counts[http.StatusServiceUnavailable]+counts[http.StatusGatewayTimeout]+counts[0] == 0 {
		t.Error("no attempt was refused or unanswered: the freeze was not exercised")
	}
}
