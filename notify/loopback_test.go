package notify_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"kestrel/domain"
	"kestrel/notify"
)

// Webhook (and push) targets on this machine only while an operator allows
// them (issue 33, item 8; system.notifications.allowLoopbackTargets, off by
// default): with it off a loopback or plain-http URL is refused at creation
// and a channel made while it was on is not called once it is off; a
// trader sees a receiver's failure without what the receiver did.
func TestLoopbackTargetsOnlyWhenAllowed(t *testing.T) {
	var allow atomic.Bool
	f := newFixture(t, t.TempDir())
	f.svc = notify.New(f.store, f.sealer, f.clock, notify.Options{Servers: func() notify.Servers { return notify.Servers{AllowLoopback: allow.Load()} }})
	ctx := context.Background()
	rcv := newReceiver(t)
	str := func(s string) *string { return &s }

	for _, url := range []string{rcv.srv.URL + "/hook", "https://127.0.0.1/hook", "https://localhost/hook", "https://[::1]:8443/h", "https://app.localhost/h", "http://example.com/hook"} {
		if _, err := f.svc.CreateChannel(ctx, "u1", notify.ChannelInput{Name: str("Hook"), URL: str(url)}); domain.ErrorCode(err) != domain.EInvalid {
			t.Errorf("%s with loopback targets off: %v", url, err)
		}
	}
	if _, err := f.svc.CreateChannel(ctx, "u1", notify.ChannelInput{Name: str("Public"), URL: str("https://hooks.example.com/k")}); err != nil {
		t.Fatalf("a public https receiver: %v", err)
	}

	allow.Store(true)
	created, err := f.svc.CreateChannel(ctx, "u1", notify.ChannelInput{Name: str("Local"), URL: str(rcv.srv.URL + "/hook")})
	if err != nil {
		t.Fatalf("loopback with the setting on: %v", err)
	}
	ch, err := f.store.NotifyChannel(ctx, created.ID)
	mustNil(t, err)
	if d, _ := f.svc.SendTest(ctx, ch); d.Status != domain.NotifyDelivered {
		t.Fatalf("test with the setting on: %+v", d)
	}

	allow.Store(false)
	d, err := f.svc.SendTest(ctx, ch)
	mustNil(t, err)
	if d.Status != domain.NotifyFailed || len(rcv.all()) != 1 {
		t.Fatalf("test with the setting off again: %+v, receiver got %d", d, len(rcv.all()))
	}

	// What a receiver did stays with the operator.
	allow.Store(true)
	rcv.setDown(true)
	d, _ = f.svc.SendTest(ctx, ch)
	if d.LastError != "receiver answered HTTP 503" || notify.OwnersView(d).LastError != notify.RemoteFailure {
		t.Fatalf("the operator's and the owner's view of a 503: %q, %q", d.LastError, notify.OwnersView(d).LastError)
	}
	rcv.srv.Close()
	d, _ = f.svc.SendTest(ctx, ch)
	if d.Status != domain.NotifyFailed || notify.OwnersView(d).LastError != notify.RemoteFailure {
		t.Fatalf("the owner's view of a refused connection: %q (operator's %q)", notify.OwnersView(d).LastError, d.LastError)
	}
	off := domain.NotifyDelivery{LastError: "channel disabled"}
	if notify.OwnersView(off).LastError != "channel disabled" {
		t.Fatal("Kestrel's own refusal was hidden")
	}
}

// "Send test" of an email channel sends a real mail to the address the
// channel names: five an hour per user, then 429 saying when (issue 33,
// item 12); other kinds have a budget of their own.
func TestEmailSendTestIsRateLimited(t *testing.T) {
	f := newFixture(t, t.TempDir())
	ctx := context.Background()
	mail := domain.NotifyChannel{ID: notify.NewID("ch_"), Owner: "u1", Kind: domain.NotifyEmail, Name: "Mail", Address: "someone@example.com", Enabled: true, CreatedAt: f.clock.Now()}
	mustNil(t, f.store.CreateNotifyChannel(ctx, mail))
	for i := range 5 {
		if _, err := f.svc.SendTest(ctx, mail); err != nil {
			t.Fatalf("test %d: %v", i+1, err)
		}
	}
	_, err := f.svc.SendTest(ctx, mail)
	if domain.ErrorCode(err) != domain.ETooMany || !strings.Contains(domain.ErrorMessage(err), "At most 5 test emails per hour") {
		t.Fatalf("the sixth test email in an hour: %v", err)
	}
	rcv := newReceiver(t)
	hook, _ := f.store.NotifyChannel(ctx, f.addChannel(t, rcv.srv.URL, 0))
	if d, err := f.svc.SendTest(ctx, hook); err != nil || d.Status != domain.NotifyDelivered {
		t.Fatalf("a webhook test with the email budget spent: %+v %v", d, err)
	}
	if _, err := f.svc.SendTest(ctx, domain.NotifyChannel{ID: mail.ID, Owner: "u2", Kind: domain.NotifyEmail, Name: "Mail", Address: "a@example.com", Enabled: true}); domain.ErrorCode(err) == domain.ETooMany {
		t.Fatal("another user's budget was spent")
	}
	f.clock.Add(time.Hour)
	if _, err := f.svc.SendTest(ctx, mail); err != nil {
		t.Fatalf("an hour later: %v", err)
	}
}
