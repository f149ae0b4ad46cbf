package notify_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/notify"
	"kestrel/settings"
	"kestrel/store/sqlite"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }
func newClock() *clock               { return &clock{t: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)} }
func mustNil(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// received is one request a test receiver got.
type received struct {
	id, ts, sig string
	body        []byte
	status      int
}

// receiver is a loopback webhook endpoint that can be down (503).
type receiver struct {
	mu   sync.Mutex
	down bool
	got  []received
	srv  *httptest.Server
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		defer r.mu.Unlock()
		status := http.StatusNoContent
		if r.down {
			status = http.StatusServiceUnavailable
		}
		r.got = append(r.got, received{req.Header.Get("webhook-id"), req.Header.Get("webhook-timestamp"), req.Header.Get("webhook-signature"), body, status})
		w.WriteHeader(status)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) setDown(v bool) { r.mu.Lock(); r.down = v; r.mu.Unlock() }
func (r *receiver) all() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

type fixture struct {
	svc    *notify.Service
	store  *sqlite.Store
	clock  *clock
	sealer *settings.Sealer
	secret string
}

func newFixture(t *testing.T, dir string) *fixture {
	st, err := sqlite.Open(context.Background(), filepath.Join(dir, "kestrel.db"))
	mustNil(t, err)
	t.Cleanup(func() { st.Close() })
	key := make([]byte, 32)
	copy(key, "a fixed key for the notify tests")
	sealer, err := settings.NewSealer(key)
	mustNil(t, err)
	c := newClock()
	return &fixture{store: st, clock: c, sealer: sealer,
		svc: notify.New(st, sealer, c, notify.Options{Servers: loopbackAllowed, FirstRetry: time.Second, MaxRetry: time.Minute, Window: time.Hour})}
}

// addChannel stores a webhook channel of u1 to url and routes types to it.
func (f *fixture) addChannel(t *testing.T, url string, aggregate int, types ...string) string {
	ctx := context.Background()
	f.secret = notify.NewSecret()
	sealed, err := f.sealer.Seal(notify.SecretField, f.secret)
	mustNil(t, err)
	id := notify.NewID("ch_")
	mustNil(t, f.store.CreateNotifyChannel(ctx, domain.NotifyChannel{ID: id, Owner: "u1", Kind: "webhook", Name: "test", URL: url, Secret: sealed, Enabled: true, CreatedAt: f.clock.Now()}))
	r := domain.NotifyRouting{Owner: "u1", Routes: map[string][]string{}, MinSeverity: domain.SeverityLow, Aggregate: aggregate > 0, AggregateSeconds: aggregate}
	for _, ty := range types {
		r.Routes[ty] = []string{id}
	}
	mustNil(t, f.store.PutNotifyRouting(ctx, r))
	return id
}

func fill(n int, at time.Time) domain.TradeUpdate {
	id := "ord-" + string(rune('a'+n%26)) + strings.Repeat("x", n/26)
	price := decimal.RequireFromString("100.5")
	o := domain.Order{ID: id, Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: decimal.RequireFromString("0.01"),
		FilledQuantity: decimal.RequireFromString("0.01"), AvgFillPrice: &price, Status: domain.StatusFilled, UserID: "u1", UpdatedAt: at}
	return domain.TradeUpdate{Order: o, Fill: &domain.Fill{ID: "f-" + id, OrderID: id, Symbol: "BTC-USD", Side: domain.Buy,
		Quantity: o.Quantity, Price: price, Time: at}}
}

func enqueueFill(t *testing.T, f *fixture, n int) {
	e, ok := notify.FromTradeUpdate(fill(n, f.clock.Now()))
	if !ok || e.Type != notify.OrderFilled {
		t.Fatalf("fill event = %+v, %v", e, ok)
	}
	_, err := f.svc.Enqueue(context.Background(), e)
	mustNil(t, err)
}

// verify checks a signature the way a receiver would, from the secret alone.
func verify(t *testing.T, secret string, r received) {
	t.Helper()
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	mustNil(t, err)
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(r.id + "." + r.ts + "." + string(r.body)))
	want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	if !hmac.Equal([]byte(r.sig), []byte(want)) {
		t.Fatalf("signature %q, want %q", r.sig, want)
	}
}

func TestFillArrivesSigned(t *testing.T) {
	f := newFixture(t, t.TempDir())
	rcv := newReceiver(t)
	f.addChannel(t, rcv.srv.URL+"/hook", 0, notify.OrderFilled)
	enqueueFill(t, f, 0)
	n, err := f.svc.DeliverDue(context.Background())
	mustNil(t, err)
	got := rcv.all()
	if n != 1 || len(got) != 1 {
		t.Fatalf("attempted %d, received %d", n, len(got))
	}
	verify(t, f.secret, got[0])
	var m map[string]any
	mustNil(t, json.Unmarshal(got[0].body, &m))
	if m["type"] != "order.filled" || m["order_id"] != "ord-a" || m["id"] != got[0].id || m["timestamp"] == nil {
		t.Fatalf("body = %s", got[0].body)
	}
	data := m["data"].(map[string]any)
	if data["order"].(map[string]any)["id"] != "ord-a" || data["fill"].(map[string]any)["price"] != "100.5" {
		t.Fatalf("data = %v", data)
	}
	log, err := f.store.NotifyDeliveries(context.Background(), "u1", "", 10)
	mustNil(t, err)
	if len(log) != 1 || log[0].Status != domain.NotifyDelivered || log[0].Attempts != 1 || log[0].LastError != "" {
		t.Fatalf("delivery log = %+v", log)
	}
	// A tampered body fails the same check.
	bad := got[0]
	bad.body = append([]byte(nil), bad.body...)
	bad.body[len(bad.body)-2] ^= 1
	key, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(f.secret, "whsec_"))
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(bad.id + "." + bad.ts + "." + string(bad.body)))
	if "v1,"+base64.StdEncoding.EncodeToString(mac.Sum(nil)) == bad.sig {
		t.Fatal("a tampered body verified")
	}
}

func TestDownReceiverGetsEveryMessageOnceWhenBack(t *testing.T) {
	f := newFixture(t, t.TempDir())
	rcv := newReceiver(t)
	f.addChannel(t, rcv.srv.URL, 0, notify.OrderFilled)
	rcv.setDown(true)
	for i := range 3 {
		enqueueFill(t, f, i)
	}
	ctx := context.Background()
	_, err := f.svc.DeliverDue(ctx)
	mustNil(t, err)
	downIDs := map[string]bool{}
	for _, r := range rcv.all() {
		downIDs[r.id] = true
	}
	if len(downIDs) != 3 {
		t.Fatalf("attempts while down: %d distinct ids", len(downIDs))
	}
	// Not yet due again: nothing is sent before the backoff ends.
	if n, _ := f.svc.DeliverDue(ctx); n != 0 {
		t.Fatalf("retried %d before the backoff ended", n)
	}
	f.clock.Add(time.Second)
	rcv.setDown(false)
	_, err = f.svc.DeliverDue(ctx)
	mustNil(t, err)
	f.clock.Add(time.Hour)
	if n, _ := f.svc.DeliverDue(ctx); n != 0 {
		t.Fatalf("attempted %d after all were delivered", n)
	}
	ok := map[string]int{}
	for _, r := range rcv.all() {
		if r.status < 300 {
			ok[r.id]++
			verify(t, f.secret, r)
		}
	}
	if len(ok) != 3 {
		t.Fatalf("delivered ids = %v", ok)
	}
	for id, n := range ok {
		if n != 1 || !downIDs[id] {
			t.Fatalf("id %s delivered %d times (retry kept its id: %v)", id, n, downIDs[id])
		}
	}
	log, _ := f.store.NotifyDeliveries(ctx, "u1", domain.NotifyDelivered, 10)
	if len(log) != 3 || log[0].Attempts != 2 {
		t.Fatalf("log = %+v", log)
	}
}

func TestRetriesEndWithTheWindow(t *testing.T) {
	f := newFixture(t, t.TempDir())
	rcv := newReceiver(t)
	f.addChannel(t, rcv.srv.URL, 0, notify.OrderFilled)
	rcv.setDown(true)
	enqueueFill(t, f, 0)
	ctx := context.Background()
	for range 200 {
		_, err := f.svc.DeliverDue(ctx)
		mustNil(t, err)
		f.clock.Add(time.Minute)
	}
	log, _ := f.store.NotifyDeliveries(ctx, "u1", "", 10)
	// 1 s, 2 s, ... capped at 1 min, inside a 1 h window.
	if len(log) != 1 || log[0].Status != domain.NotifyFailed || log[0].LastError != "receiver answered HTTP 503" || log[0].Attempts < 50 || log[0].Attempts > 70 {
		t.Fatalf("log = %+v", log)
	}
	if len(rcv.all()) != log[0].Attempts {
		t.Fatalf("receiver saw %d attempts, log says %d", len(rcv.all()), log[0].Attempts)
	}
}

func TestBurstOf200FillsIsOneMessage(t *testing.T) {
	f := newFixture(t, t.TempDir())
	rcv := newReceiver(t)
	f.addChannel(t, rcv.srv.URL, 2, notify.OrderFilled)
	ctx := context.Background()
	for i := range 200 {
		enqueueFill(t, f, i)
		if n, _ := f.svc.DeliverDue(ctx); n != 0 {
			t.Fatalf("sent during the aggregation window")
		}
		f.clock.Add(5 * time.Millisecond) // 200 fills in 1 s
	}
	f.clock.Add(time.Second)
	_, err := f.svc.DeliverDue(ctx)
	mustNil(t, err)
	got := rcv.all()
	if len(got) != 1 {
		t.Fatalf("received %d messages, want 1", len(got))
	}
	verify(t, f.secret, got[0])
	var m notify.Message
	mustNil(t, json.Unmarshal(got[0].body, &m))
	if m.Count != 200 || m.Type != notify.OrderFilled || m.OrderID != "ord-a" {
		t.Fatalf("message = %+v", m)
	}
	// A fill after the burst went out starts a new message.
	enqueueFill(t, f, 0)
	f.clock.Add(3 * time.Second)
	_, _ = f.svc.DeliverDue(ctx)
	if got := rcv.all(); len(got) != 2 {
		t.Fatalf("received %d messages, want 2", len(got))
	}
}

func TestRoutingFiltersTypeAndSeverity(t *testing.T) {
	f := newFixture(t, t.TempDir())
	rcv := newReceiver(t)
	f.addChannel(t, rcv.srv.URL, 0, notify.EmergencyStop)
	ctx := context.Background()
	enqueueFill(t, f, 0) // not routed
	r, _, _ := f.store.NotifyRouting(ctx, "u1")
	r.MinSeverity = domain.SeverityCritical
	mustNil(t, f.store.PutNotifyRouting(ctx, r))
	stop, ok := notify.FromAlert(domain.Alert{Key: "trading:Emergency stop active", Severity: domain.SeverityCritical, Component: "trading", Title: "Emergency stop active", LastSeen: f.clock.Now()})
	if !ok || stop.Type != notify.EmergencyStop || stop.Owner != "" {
		t.Fatalf("emergency stop event = %+v", stop)
	}
	n, err := f.svc.Enqueue(ctx, stop)
	mustNil(t, err)
	resumed, _ := notify.FromAlert(domain.Alert{Key: "trading:Trading resumed", Severity: domain.SeverityMedium, Component: "trading"})
	if n2, _ := f.svc.Enqueue(ctx, resumed); n != 1 || n2 != 0 {
		t.Fatalf("enqueued %d emergency stops and %d (below minimum) resumes", n, n2)
	}
	_, _ = f.svc.DeliverDue(ctx)
	if got := rcv.all(); len(got) != 1 || !strings.Contains(string(got[0].body), `"type":"trading.emergency_stop"`) {
		t.Fatalf("received %d", len(got))
	}
}

func TestPendingMessagesSurviveARestart(t *testing.T) {
	dir := t.TempDir()
	rcv := newReceiver(t)
	f := newFixture(t, dir)
	f.addChannel(t, rcv.srv.URL, 0, notify.OrderFilled)
	enqueueFill(t, f, 0)
	f.store.Close() // the process dies before any attempt
	g := newFixture(t, dir)
	_, err := g.svc.DeliverDue(context.Background())
	mustNil(t, err)
	if got := rcv.all(); len(got) != 1 {
		t.Fatalf("received %d after the restart", len(got))
	} else {
		verify(t, f.secret, got[0])
	}
}

func TestSendTestRecordsTheOutcome(t *testing.T) {
	f := newFixture(t, t.TempDir())
	rcv := newReceiver(t)
	id := f.addChannel(t, rcv.srv.URL, 0)
	ch, err := f.store.NotifyChannel(context.Background(), id)
	mustNil(t, err)
	d, err := f.svc.SendTest(context.Background(), ch)
	mustNil(t, err)
	if d.Status != domain.NotifyDelivered || d.Type != notify.Test || len(rcv.all()) != 1 {
		t.Fatalf("test delivery = %+v", d)
	}
	rcv.setDown(true)
	d, err = f.svc.SendTest(context.Background(), ch)
	mustNil(t, err)
	if d.Status != domain.NotifyFailed || d.LastError != "receiver answered HTTP 503" || d.Attempts != 1 {
		t.Fatalf("failed test delivery = %+v", d)
	}
	// A failed test is never retried.
	f.clock.Add(2 * time.Hour)
	if n, _ := f.svc.DeliverDue(context.Background()); n != 0 {
		t.Fatalf("retried a test %d times", n)
	}
}

func TestRedirectsAreNotFollowed(t *testing.T) {
	f := newFixture(t, t.TempDir())
	rcv := newReceiver(t)
	redirect := httptest.NewServer(http.RedirectHandler(rcv.srv.URL, http.StatusTemporaryRedirect))
	defer redirect.Close()
	id := f.addChannel(t, redirect.URL, 0)
	ch, _ := f.store.NotifyChannel(context.Background(), id)
	d, err := f.svc.SendTest(context.Background(), ch)
	mustNil(t, err)
	if d.Status != domain.NotifyFailed || d.LastError != "receiver answered HTTP 307" || len(rcv.all()) != 0 {
		t.Fatalf("redirected delivery = %+v, receiver got %d", d, len(rcv.all()))
	}
}

func TestInternalAddressesAreRefused(t *testing.T) {
	for url, ok := range map[string]bool{
		"https://example.com/h": true, "http://127.0.0.1:9/h": true, "http://localhost/h": true, "http://[::1]/h": true,
		"http://example.com/h": false, "http://10.0.0.5/h": false, "ftp://example.com": false, "https://u:p@example.com/": false, "/relative": false,
	} {
		if got := notify.CheckURL(url) == ""; got != ok {
			t.Errorf("CheckURL(%q) allowed %v, want %v", url, got, ok)
		}
	}
	f := newFixture(t, t.TempDir())
	for _, target := range []string{"https://10.1.2.3/h", "https://169.254.169.254/latest", "https://192.168.1.1/", "https://[fd00::1]/"} {
		id := f.addChannel(t, target, 0)
		ch, _ := f.store.NotifyChannel(context.Background(), id)
		d, err := f.svc.SendTest(context.Background(), ch)
		mustNil(t, err)
		if d.Status != domain.NotifyFailed || !strings.Contains(d.LastError, "internal address") {
			t.Errorf("%s: %+v", target, d)
		}
	}
}

func TestSecretsAreStandardWebhooks(t *testing.T) {
	s := notify.NewSecret()
	if !notify.ValidSecret(s) || notify.ValidSecret("whsec_short") || notify.ValidSecret(strings.TrimPrefix(s, "whsec_")) {
		t.Fatal("secret validation")
	}
	// The Standard Webhooks reference example.
	sig, err := notify.Sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", time.Unix(1614265330, 0), []byte(`{"test": 2432232314}`))
	mustNil(t, err)
	if sig != "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=" {
		t.Fatalf("signature = %s", sig)
	}
}

func TestAlertRepeatsAreNotifiedOnce(t *testing.T) {
	stale := domain.Alert{Key: "market:stale", Severity: domain.SeverityHigh, Component: "market_data", Count: 1}
	if e, ok := notify.FromAlert(stale); !ok || e.Type != notify.MarketStale {
		t.Fatalf("first stale alert: %+v %v", e, ok)
	}
	stale.Count = 2
	if _, ok := notify.FromAlert(stale); ok {
		t.Fatal("a repeat of an open alert was notified again")
	}
	stale.Count, stale.Resolved = 1, true
	if _, ok := notify.FromAlert(stale); ok {
		t.Fatal("a resolution was notified as the alert")
	}
	stop := domain.Alert{Key: "trading:Emergency stop active", Severity: domain.SeverityCritical, Component: "trading", Count: 2}
	if e, ok := notify.FromAlert(stop); !ok || e.Type != notify.EmergencyStop {
		t.Fatalf("a second emergency stop: %+v %v", e, ok)
	}
	for key, want := range map[string]string{"trading:Order refused by risk check": notify.RiskLimitReached, "exchange:coinbase": notify.ExchangeDisconnected,
		"database:unreachable": notify.SystemAlert, "strategy:Strategy paused: x": notify.StrategyError} {
		comp, _, _ := strings.Cut(key, ":")
		if e, _ := notify.FromAlert(domain.Alert{Key: key, Component: comp, Count: 1}); e.Type != want {
			t.Errorf("%s -> %s, want %s", key, e.Type, want)
		}
	}
	if _, ok := notify.FromAlert(domain.Alert{Key: "trading:Order rejected by the exchange", Component: "trading", Count: 1}); ok {
		t.Error("exchange rejections are order.rejected, to the order's owner, not a system alert")
	}
	// A person's risk refusal is no alert, and still risk.limit_reached, to everyone.
	e := notify.FromRiskRefusal("Order refused by risk check", "BUY 3 BTC-USD: too large", time.Unix(1, 0))
	if d, _ := e.Data.(notify.AlertData); e.Type != notify.RiskLimitReached || e.Owner != "" || d.AlertID != 0 || d.Component != "trading" || d.Message != "BUY 3 BTC-USD: too large" {
		t.Errorf("risk refusal event = %+v", e)
	}
}

func TestRekeyReSealsChannelSecrets(t *testing.T) {
	f := newFixture(t, t.TempDir())
	rcv := newReceiver(t)
	id := f.addChannel(t, rcv.srv.URL, 0)
	key := make([]byte, 32)
	copy(key, "another key for the notify tests")
	next, err := settings.NewSealer(key)
	mustNil(t, err)
	if _, err := notify.Rekey(context.Background(), f.store, next, next); err == nil {
		t.Fatal("rekeyed with a key that does not open the secrets")
	}
	n, err := notify.Rekey(context.Background(), f.store, f.sealer, next)
	if err != nil || n != 1 {
		t.Fatalf("rekey: %d, %v", n, err)
	}
	svc := notify.New(f.store, next, f.clock, notify.Options{Servers: loopbackAllowed})
	ch, _ := f.store.NotifyChannel(context.Background(), id)
	d, err := svc.SendTest(context.Background(), ch)
	mustNil(t, err)
	if d.Status != domain.NotifyDelivered {
		t.Fatalf("after rekey: %+v", d)
	}
	verify(t, f.secret, rcv.all()[0])
}

func TestOrderAndJobEvents(t *testing.T) {
	at := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	u := fill(0, at)
	u.Order.Status = domain.StatusOpen
	if e, ok := notify.FromTradeUpdate(u); !ok || e.Type != notify.OrderPartiallyFilled || e.Owner != "u1" || e.OrderID != "ord-a" {
		t.Fatalf("partial fill: %+v", e)
	}
	u = fill(0, at)
	u.Order.Type, u.Order.Side = domain.StopLoss, domain.Sell
	if e, _ := notify.FromTradeUpdate(u); e.Type != notify.ProtectiveTriggered || e.Severity != domain.SeverityHigh {
		t.Fatalf("stop-loss fill: %+v", e)
	}
	u = fill(0, at)
	u.Order.Type, u.Order.ParentID = domain.Limit, "parent" // a take-profit
	if e, _ := notify.FromTradeUpdate(u); e.Type != notify.ProtectiveTriggered {
		t.Fatalf("take-profit fill: %+v", e)
	}
	rejected := domain.TradeUpdate{Order: domain.Order{ID: "o9", Status: domain.StatusRejected, UserID: "u2", RejectReason: "insufficient funds"}}
	if e, ok := notify.FromTradeUpdate(rejected); !ok || e.Type != notify.OrderRejected || e.Owner != "u2" {
		t.Fatalf("rejection: %+v", e)
	}
	if _, ok := notify.FromTradeUpdate(domain.TradeUpdate{Order: domain.Order{ID: "o1", Status: domain.StatusOpen}}); ok {
		t.Fatal("an order resting without a fill was notified")
	}
	done := at.Add(time.Minute)
	if e, ok := notify.FromJob(domain.Job{ID: "j1", Kind: "backtest", Owner: "u1", Status: domain.JobFailed, Error: "no data", FinishedAt: &done}); !ok ||
		e.Type != notify.BacktestFinished || e.Owner != "u1" || !e.Time.Equal(done) || e.Severity != domain.SeverityMedium {
		t.Fatalf("failed backtest: %+v", e)
	}
	if _, ok := notify.FromJob(domain.Job{ID: "j1", Kind: "backtest", Status: domain.JobRunning}); ok {
		t.Fatal("a running job was notified")
	}
}

func TestDisabledChannelFailsAtOnce(t *testing.T) {
	f := newFixture(t, t.TempDir())
	rcv := newReceiver(t)
	id := f.addChannel(t, rcv.srv.URL, 0, notify.OrderFilled)
	ctx := context.Background()
	ch, _ := f.store.NotifyChannel(ctx, id)
	ch.Enabled = false
	mustNil(t, f.store.UpdateNotifyChannel(ctx, ch))
	enqueueFill(t, f, 0)
	_, err := f.svc.DeliverDue(ctx)
	mustNil(t, err)
	log, _ := f.store.NotifyDeliveries(ctx, "u1", "", 10)
	if len(log) != 1 || log[0].Status != domain.NotifyFailed || log[0].LastError != "channel disabled" || log[0].Attempts != 1 || len(rcv.all()) != 0 {
		t.Fatalf("log = %+v, received %d", log, len(rcv.all()))
	}
}

// loopbackAllowed is the settings with receivers on this machine allowed:
// the tests' receivers are loopback servers.
func loopbackAllowed() notify.Servers { return notify.Servers{AllowLoopback: true} }

// A token made for an account tells its owner even when they routed
// nothing to security.token_created: every enabled channel of theirs gets
// it, whatever the severity floor and the quiet hours (issue 33, item 4).
func TestTokenNoticeReachesEveryChannelUnrouted(t *testing.T) {
	f := newFixture(t, t.TempDir())
	rcv := newReceiver(t)
	f.addChannel(t, rcv.srv.URL, 0) // no type routed
	ctx := context.Background()
	r, _, _ := f.store.NotifyRouting(ctx, "u1")
	r.MinSeverity = domain.SeverityCritical
	mustNil(t, f.store.PutNotifyRouting(ctx, r))
	n, err := f.svc.Enqueue(ctx, notify.Event{Type: notify.TokenCreated, Severity: domain.SeverityHigh, Owner: "u1", Time: f.clock.Now(),
		Data: notify.AlertData{Title: "API token created", Message: "API token 'x' was created", Component: "auth"}})
	mustNil(t, err)
	if n != 1 {
		t.Fatalf("enqueued %d, want the one channel", n)
	}
	_, _ = f.svc.DeliverDue(ctx)
	if got := rcv.all(); len(got) != 1 || !strings.Contains(string(got[0].body), `"type":"security.token_created"`) {
		t.Fatalf("received %d", len(got))
	}
}
