package notify_test

import (
	"context"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"kestrel/domain"
	"kestrel/notify"
	"kestrel/notify/pushtest"
	"kestrel/settings"
)

// pushChannel subscribes b at the fake and routes types to the channel.
func pushChannel(t *testing.T, svc *notify.Service, fake *pushtest.Service, b pushtest.Browser, types ...string) notify.CreatedChannel {
	ctx := context.Background()
	key, err := svc.PushKey(ctx)
	mustNil(t, err)
	fake.Publish(key)
	ch, err := svc.CreateChannel(ctx, "u1", notify.ChannelInput{Kind: ptr(domain.NotifyPush), Name: ptr("This browser"),
		Subscription: b.Subscription(fake.Srv.URL + "/push/sub-1")})
	mustNil(t, err)
	routes := map[string][]string{}
	for _, ty := range types {
		routes[ty] = []string{ch.ID}
	}
	_, err = svc.SetRouting(ctx, "u1", domain.NotifyRouting{Routes: routes, MinSeverity: domain.SeverityLow})
	mustNil(t, err)
	return ch
}

// A fill and the emergency stop reach the browser: signed with the key
// the server published, encrypted for the subscription, with a TTL, the
// stop at high urgency, each with its type and text.
func TestPushDeliversAnEncryptedSignedNotice(t *testing.T) {
	ctx := context.Background()
	b := pushtest.NewBrowser(t)
	fake := pushtest.NewService(t, b)
	f := newFixture(t, t.TempDir())
	ch := pushChannel(t, f.svc, fake, b, notify.OrderFilled, notify.EmergencyStop)
	if ch.Kind != domain.NotifyPush || ch.Secret != "" || ch.URL != fake.Srv.URL+"/push/sub-1" {
		t.Fatalf("created %+v", ch)
	}
	stored, _ := f.store.NotifyChannel(ctx, ch.ID)
	if strings.Contains(stored.Secret, b.Subscription("").Keys.Auth) || !strings.HasPrefix(stored.Secret, "sealed:") {
		t.Fatalf("the subscription's keys are stored as %q, not sealed", stored.Secret)
	}

	e, _ := notify.FromTradeUpdate(fill(0, f.clock.Now()))
	_, err := f.svc.Enqueue(ctx, e)
	mustNil(t, err)
	stop, _ := notify.FromAlert(domain.Alert{ID: 7, Key: "trading:Emergency stop active", Severity: domain.SeverityCritical, Component: "trading",
		Title: "Emergency stop active", Message: "New orders are refused until trading is resumed", Count: 1, LastSeen: f.clock.Now()})
	_, err = f.svc.Enqueue(ctx, stop)
	mustNil(t, err)
	_, err = f.svc.DeliverDue(ctx)
	mustNil(t, err)

	got, _ := fake.Messages()
	if len(got) != 2 {
		t.Fatalf("push service got %d messages: %+v", len(got), got)
	}
	byType := map[string]pushtest.Pushed{}
	for _, p := range got {
		byType[p.Note.Type] = p
		if p.TTL != 86400 || p.Endpoint != "/push/sub-1" {
			t.Errorf("%s: TTL %d at %s", p.Note.Type, p.TTL, p.Endpoint)
		}
	}
	filled, stopped := byType[notify.OrderFilled], byType[notify.EmergencyStop]
	if filled.Note.Title != "Kestrel: Order filled" || !strings.Contains(filled.Note.Body, "BUY 0.01 BTC-USD market: 0.01 at 100.5") ||
		filled.Note.OrderID != "ord-a" || filled.Note.URL != "/trading/orders" || filled.Urgency != "normal" {
		t.Errorf("fill notice: %+v urgency %q", filled.Note, filled.Urgency)
	}
	if stopped.Note.Title != "Kestrel: Emergency stop (critical)" || !strings.Contains(stopped.Note.Body, "New orders are refused") || stopped.Urgency != "high" {
		t.Errorf("emergency stop notice: %+v urgency %q", stopped.Note, stopped.Urgency)
	}
	delivered, err := f.svc.Deliveries(ctx, "u1", domain.NotifyDelivered, 10)
	mustNil(t, err)
	if len(delivered) != 2 {
		t.Fatalf("delivery log: %+v", delivered)
	}
}

// A 404 or 410 means the browser dropped the subscription: the channel is
// disabled, the message fails at once and later ones are not sent; a 5xx
// and a 429 are retried (the 429 after its Retry-After).
func TestPushGoneDisablesTheChannelAndBusyIsRetried(t *testing.T) {
	ctx := context.Background()
	b := pushtest.NewBrowser(t)
	fake := pushtest.NewService(t, b)
	f := newFixture(t, t.TempDir())
	ch := pushChannel(t, f.svc, fake, b, notify.OrderFilled)

	fake.Answer(http.StatusServiceUnavailable, "")
	e, _ := notify.FromTradeUpdate(fill(0, f.clock.Now()))
	_, err := f.svc.Enqueue(ctx, e)
	mustNil(t, err)
	_, err = f.svc.DeliverDue(ctx)
	mustNil(t, err)
	pending, _ := f.svc.Deliveries(ctx, "u1", domain.NotifyPending, 10)
	if len(pending) != 1 || !strings.Contains(pending[0].LastError, "503") || !pending[0].NextAt.Equal(f.clock.Now().Add(time.Second)) {
		t.Fatalf("after a 503: %+v", pending)
	}
	fake.Answer(http.StatusTooManyRequests, "120")
	f.clock.Add(time.Second)
	_, err = f.svc.DeliverDue(ctx)
	mustNil(t, err)
	pending, _ = f.svc.Deliveries(ctx, "u1", domain.NotifyPending, 10)
	if len(pending) != 1 || !strings.Contains(pending[0].LastError, "429") || !pending[0].NextAt.Equal(f.clock.Now().Add(120*time.Second)) {
		t.Fatalf("after a 429 with Retry-After 120: %+v", pending)
	}

	fake.Answer(http.StatusGone, "")
	f.clock.Add(120 * time.Second)
	_, err = f.svc.DeliverDue(ctx)
	mustNil(t, err)
	failed, _ := f.svc.Deliveries(ctx, "u1", domain.NotifyFailed, 10)
	if len(failed) != 1 || failed[0].Attempts != 3 || !strings.Contains(failed[0].LastError, "410") || !strings.Contains(failed[0].LastError, "channel disabled") {
		t.Fatalf("after a 410: %+v", failed)
	}
	if got, _ := f.store.NotifyChannel(ctx, ch.ID); got.Enabled {
		t.Fatal("the channel is still enabled after its subscription was gone")
	}
	_, requests := fake.Messages()
	e, _ = notify.FromTradeUpdate(fill(1, f.clock.Now()))
	_, err = f.svc.Enqueue(ctx, e)
	mustNil(t, err)
	_, err = f.svc.DeliverDue(ctx)
	mustNil(t, err)
	if _, n := fake.Messages(); n != requests {
		t.Fatalf("a disabled channel was sent to (%d requests, was %d)", n, requests)
	}
	failed, _ = f.svc.Deliveries(ctx, "u1", domain.NotifyFailed, 10)
	if len(failed) != 2 || failed[0].LastError != "channel disabled" {
		t.Fatalf("the next message: %+v", failed)
	}

	// Subscribing again from the same browser turns the one channel back on.
	again, err := f.svc.CreateChannel(ctx, "u1", notify.ChannelInput{Kind: ptr(domain.NotifyPush), Name: ptr("This browser"),
		Subscription: b.Subscription(fake.Srv.URL + "/push/sub-1")})
	mustNil(t, err)
	all, _ := f.svc.Channels(ctx, "u1")
	if again.ID != ch.ID || !again.Enabled || len(all) != 1 || !all[0].Enabled {
		t.Fatalf("subscribed again: %+v, channels %+v", again, all)
	}
}

// The ui.notifications Push switch off: push messages fail at once, named.
func TestPushSwitchOffFailsAtOnce(t *testing.T) {
	ctx := context.Background()
	b := pushtest.NewBrowser(t)
	fake := pushtest.NewService(t, b)
	f := newFixture(t, t.TempDir())
	svc := notify.New(f.store, f.sealer, f.clock, notify.Options{Servers: loopbackAllowed, Flags: func(context.Context, string) (notify.Flags, error) {
		return notify.Flags{Trades: true, Alerts: true, System: true}, nil
	}})
	ch := pushChannel(t, svc, fake, b)
	d, err := svc.SendTest(ctx, ch.NotifyChannel)
	mustNil(t, err)
	if _, n := fake.Messages(); n != 0 || d.Status != domain.NotifyFailed || !strings.Contains(d.LastError, "push is off") {
		t.Fatalf("with Push off: %+v (%d requests)", d, n)
	}
}

func TestPushChannelInputIsChecked(t *testing.T) {
	f := newFixture(t, t.TempDir())
	b := pushtest.NewBrowser(t)
	ctx := context.Background()
	kind := domain.NotifyPush
	cases := []struct {
		name  string
		sub   *notify.PushSubscription
		field string
	}{
		{"no subscription", nil, "subscription"},
		{"plain http to a public host", b.Subscription("http://push.example.com/x"), "subscription.endpoint"},
		{"not a URL", b.Subscription("push service"), "subscription.endpoint"},
		{"key not on the curve", &notify.PushSubscription{Endpoint: "https://push.example.com/x",
			Keys: notify.PushKeys{P256dh: base64.RawURLEncoding.EncodeToString(make([]byte, 65)), Auth: "AAAAAAAAAAAAAAAAAAAAAA"}}, "subscription.keys.p256dh"},
		{"short auth", &notify.PushSubscription{Endpoint: "https://push.example.com/x",
			Keys: notify.PushKeys{P256dh: b.Subscription("").Keys.P256dh, Auth: "AAAA"}}, "subscription.keys.auth"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.svc.CreateChannel(ctx, "u1", notify.ChannelInput{Kind: &kind, Name: ptr("x"), Subscription: c.sub})
			var de *domain.Error
			if !asDomainError(err, &de) || de.Fields[c.field] == "" {
				t.Fatalf("want a message on %s, got %v", c.field, err)
			}
		})
	}
	if _, err := f.svc.CreateChannel(ctx, "u1", notify.ChannelInput{Kind: &kind, Name: ptr("x"), Subscription: b.Subscription("https://push.example.com/x")}); err != nil {
		t.Fatalf("a good subscription: %v", err)
	}
}

// The VAPID pair is made once and kept; a rekey re-seals its private half.
func TestPushKeyIsKeptAndRekeyed(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, t.TempDir())
	pub, err := f.svc.PushKey(ctx)
	mustNil(t, err)
	raw, err := base64.RawURLEncoding.DecodeString(pub)
	if err != nil || len(raw) != 65 || raw[0] != 4 {
		t.Fatalf("public key %q is not an uncompressed P-256 point", pub)
	}
	if again, _ := notify.New(f.store, f.sealer, f.clock, notify.Options{}).PushKey(ctx); again != pub {
		t.Fatalf("a second service made another key: %q", again)
	}
	key := make([]byte, 32)
	copy(key, "another key for the notify tests")
	next, err := settings.NewSealer(key)
	mustNil(t, err)
	if _, err := notify.RekeyVAPID(ctx, f.store, next, next); err == nil {
		t.Fatal("rekeyed with a key that does not open the VAPID key")
	}
	if n, err := notify.RekeyVAPID(ctx, f.store, f.sealer, next); err != nil || n != 1 {
		t.Fatalf("rekey: %d, %v", n, err)
	}
	if got, err := notify.New(f.store, next, f.clock, notify.Options{}).PushKey(ctx); err != nil || got != pub {
		t.Fatalf("after rekey: %q, %v", got, err)
	}
	if _, err := notify.New(f.store, f.sealer, f.clock, notify.Options{}).PushKey(ctx); err == nil {
		t.Fatal("the old key still opens the VAPID private key")
	}
}

// Two instances creating the VAPID key at the same first moment agree on
// one: the first stored stands and the other takes it, so a browser that
// subscribed through either is signed for by both. (Several rounds, each
// on a fresh store, for the two to meet in the window.)
func TestInstancesAgreeOnTheFirstVAPIDKey(t *testing.T) {
	for round := range 5 {
		f := newFixture(t, t.TempDir())
		keys := make(chan string, 2)
		for range 2 {
			svc := notify.New(f.store, f.sealer, f.clock, notify.Options{Servers: loopbackAllowed})
			go func() {
				k, err := svc.PushKey(context.Background())
				if err != nil {
					k = "error: " + err.Error()
				}
				keys <- k
			}()
		}
		a, b := <-keys, <-keys
		if a != b || strings.HasPrefix(a, "error") {
			t.Fatalf("round %d: the instances hold %q and %q", round, a, b)
		}
		stored, err := f.store.GetValue(context.Background(), "notify.push.vapid")
		if err != nil || !strings.Contains(stored, a) {
			t.Fatalf("round %d: stored %q, %v; the instances hold %q", round, stored, err, a)
		}
	}
}
