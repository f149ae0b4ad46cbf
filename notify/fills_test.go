package notify_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/exchange/coinbase"
	"kestrel/exchange/coinbase/coinbasefake"
	"kestrel/notify"
)

// coinbaseAccount is the fake Coinbase with a funded account and its key;
// each adapter made on it stands for one run of Kestrel.
type coinbaseAccount struct {
	fake *coinbasefake.Fake
	srv  *httptest.Server
	key  coinbase.Key
}

func newCoinbaseAccount(t *testing.T) *coinbaseAccount {
	t.Helper()
	creds, err := coinbasefake.NewKey(coinbasefake.ECDSA, "organizations/kestrel-notify/apiKeys/fills")
	mustNil(t, err)
	key, err := coinbase.ParseKey(creds.Name, creds.Secret)
	mustNil(t, err)
	a := &coinbaseAccount{fake: coinbasefake.New(creds.Name, creds.Public), key: key}
	a.fake.Deposit("USD", "100000")
	a.fake.SetPrice("BTC-USD", "50000")
	a.srv = httptest.NewServer(a.fake.Handler())
	t.Cleanup(a.srv.Close)
	return a
}

// adapter is a fresh Coinbase adapter (nothing seen yet, as after a start)
// keeping its order details in f's store, as the app's does.
func (a *coinbaseAccount) adapter(t *testing.T, f *fixture) *coinbase.Exchange {
	t.Helper()
	c, err := coinbase.NewClient(coinbase.ClientConfig{BaseURL: a.srv.URL, Key: a.key})
	mustNil(t, err)
	return coinbase.New(coinbase.Options{Client: c, Meta: f.store, FillsNotified: true})
}

func (a *coinbaseAccount) buy(t *testing.T, x *coinbase.Exchange, typ domain.OrderType, price string) domain.Order {
	t.Helper()
	req := domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: typ, Quantity: decimal.RequireFromString("0.01"), UserID: "u1"}
	if price != "" {
		p := decimal.RequireFromString(price)
		req.Price = &p
	}
	o, err := x.PlaceOrder(context.Background(), req)
	mustNil(t, err)
	return o
}

// coinbaseFixture is newFixture on the wall clock (the fake's fills are
// made now), routing fill events to rcv.
func coinbaseFixture(t *testing.T, dir string, rcv *receiver) *fixture {
	f := newFixture(t, dir)
	f.toWallClock()
	if rcv != nil {
		f.addChannel(t, rcv.srv.URL, 0, notify.OrderFilled, notify.OrderPartiallyFilled)
	}
	return f
}

func (f *fixture) toWallClock() { f.clock.Add(-time.Until(f.clock.Now())) }

// deliver routes what was committed and sends it (due: the clock is
// brought to the fills' time).
func (f *fixture) deliver(t *testing.T) {
	t.Helper()
	f.toWallClock()
	_, err := f.svc.RouteCommitted(context.Background())
	mustNil(t, err)
	_, err = f.svc.DeliverDue(context.Background())
	mustNil(t, err)
}

// filledOrders counts the order.filled messages rcv got, by order id.
func filledOrders(t *testing.T, rcv *receiver) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, r := range rcv.all() {
		var m notify.Message
		mustNil(t, json.Unmarshal(r.body, &m))
		if m.Type == notify.OrderFilled {
			out[m.OrderID]++
		}
	}
	return out
}

// resync is what the adapter's poll does at start: its first resync reports
// again every fill of the last day it has not seen (after a start: all).
func resync(t *testing.T, x *coinbase.Exchange) []domain.TradeUpdate {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ups := x.Updates(ctx)
	mustNil(t, x.Sync(context.Background()))
	var out []domain.TradeUpdate
	for {
		select {
		case u := <-ups:
			out = append(out, u)
		default:
			return out
		}
	}
}

// A Coinbase fill made while Kestrel was stopped is notified once after
// the start, and a fill notified before the stop is not notified again,
// although the restarted adapter, remembering nothing, reports both anew.
func TestACoinbaseFillMadeWhileStoppedIsNotifiedOnceAfterTheStart(t *testing.T) {
	dir := t.TempDir()
	rcv := newReceiver(t)
	cb := newCoinbaseAccount(t)
	f := coinbaseFixture(t, dir, rcv)
	x := cb.adapter(t, f)
	ctx := context.Background()
	_, err := f.svc.CatchUpFills(ctx, x) // the first start: the checkpoint is set
	mustNil(t, err)
	before := cb.buy(t, x, domain.Market, "")
	resting := cb.buy(t, x, domain.Limit, "49000")
	_, err = f.svc.CatchUpFills(ctx, x)
	mustNil(t, err)
	f.deliver(t)
	if got := filledOrders(t, rcv); got[before.ID] != 1 || len(got) != 1 {
		t.Fatalf("before the stop: order.filled messages %v, want one for %s", got, before.ID)
	}
	f.store.Close() // stopped

	cb.fake.SetPrice("BTC-USD", "48000") // the resting buy fills while Kestrel is down

	g := coinbaseFixture(t, dir, nil)
	y := cb.adapter(t, g)
	n, err := g.svc.CatchUpFills(ctx, y)
	mustNil(t, err)
	again, err := g.svc.CommitFills(ctx, y.Name(), resync(t, y))
	mustNil(t, err)
	if n != 1 || again != 0 {
		t.Fatalf("after the start: the catch-up queued %d, the adapter's resync %d; want 1 and 0", n, again)
	}
	g.deliver(t)
	if got := filledOrders(t, rcv); got[before.ID] != 1 || got[resting.ID] != 1 || len(got) != 2 {
		t.Fatalf("order.filled messages %v: want one for %s (before the stop) and one for %s (while stopped)", got, before.ID, resting.ID)
	}
}

// A crash right after the adapter saw a fill, before its notification was
// queued (the update was told, nothing committed it), loses nothing: the
// checkpoint is behind the fill, and the catch-up at the start queues it,
// once.
func TestACoinbaseFillSeenJustBeforeACrashIsQueuedOnceOnRestart(t *testing.T) {
	dir := t.TempDir()
	rcv := newReceiver(t)
	cb := newCoinbaseAccount(t)
	f := coinbaseFixture(t, dir, rcv)
	x := cb.adapter(t, f)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := f.svc.CatchUpFills(ctx, x)
	mustNil(t, err)
	seen := x.Updates(ctx)
	o := cb.buy(t, x, domain.Market, "")
	if u := <-seen; u.Fill == nil || u.Order.ID != o.ID || !u.Journaled {
		t.Fatalf("the adapter reported %+v; want the fill, marked as queued by its follower", u)
	}
	f.store.Close() // the crash: the follower never committed it

	g := coinbaseFixture(t, dir, nil)
	y := cb.adapter(t, g)
	n, err := g.svc.CatchUpFills(ctx, y)
	mustNil(t, err)
	again, err := g.svc.CommitFills(ctx, y.Name(), resync(t, y))
	mustNil(t, err)
	if n != 1 || again != 0 {
		t.Fatalf("after the restart: the catch-up queued %d, the adapter's resync %d; want 1 and 0", n, again)
	}
	g.deliver(t)
	if got := filledOrders(t, rcv); got[o.ID] != 1 || len(got) != 1 {
		t.Fatalf("order.filled messages %v, want one for %s", got, o.ID)
	}
}

// The same fill reported by two instances' adapters (an old leader's user
// channel and a new leader's resync) and listed by a catch-up is queued once.
func TestTheSameCoinbaseFillSeenTwiceIsQueuedOnce(t *testing.T) {
	dir := t.TempDir()
	rcv := newReceiver(t)
	cb := newCoinbaseAccount(t)
	f := coinbaseFixture(t, dir, rcv)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	old, next := cb.adapter(t, f), cb.adapter(t, f)
	reported := old.Updates(ctx)
	o := cb.buy(t, old, domain.Market, "")
	u := <-reported
	n1, err := f.svc.CommitFills(ctx, "coinbase", []domain.TradeUpdate{u})
	mustNil(t, err)
	n2, err := f.svc.CommitFills(ctx, "coinbase", resync(t, next))
	mustNil(t, err)
	n3, err := f.svc.CatchUpFills(ctx, next)
	mustNil(t, err)
	if n1 != 1 || n2 != 0 || n3 != 0 {
		t.Fatalf("queued %d (user channel), %d (other instance's resync), %d (catch-up); want 1, 0, 0", n1, n2, n3)
	}
	f.deliver(t)
	if got := filledOrders(t, rcv); got[o.ID] != 1 || len(got) != 1 {
		t.Fatalf("order.filled messages %v, want one for %s", got, o.ID)
	}
	var m notify.Message
	mustNil(t, json.Unmarshal(rcv.all()[0].body, &m))
	if !strings.Contains(string(m.Data), `"user_id":"u1"`) {
		t.Fatalf("message data %s: want the order's owner", m.Data)
	}
}

// A first start looks back FillWindow: a fill older than that is history
// and is not notified.
func TestAFillOlderThanTheWindowIsNotNotified(t *testing.T) {
	rcv := newReceiver(t)
	cb := newCoinbaseAccount(t)
	f := coinbaseFixture(t, t.TempDir(), rcv)
	x := cb.adapter(t, f)
	cb.buy(t, x, domain.Market, "")
	f.clock.Add(notify.FillWindow + time.Minute)
	n, err := f.svc.CatchUpFills(context.Background(), x)
	mustNil(t, err)
	if n != 0 {
		t.Fatalf("queued %d fills older than the window", n)
	}
}
