package notify

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"kestrel/domain"
)

// SecretField names channel secrets to the sealer.
const SecretField = "notify.webhook.secret"

// Sealer encrypts channel secrets at rest (settings.Sealer).
type Sealer interface {
	Seal(field, plain string) (string, error)
	Open(field, sealed string) (string, error)
}

// Options tune delivery; the zero value is production's.
type Options struct {
	// Window is how long a message is retried (24 h).
	Window time.Duration
	// FirstRetry is the wait after the first failure, doubled after each
	// further one up to MaxRetry (10 s, 1 h).
	FirstRetry, MaxRetry time.Duration
	// Poll is how often the worker looks for due messages when nothing
	// wakes it (1 s).
	Poll time.Duration
	// Parallel caps attempts in flight (8).
	Parallel int
	// Client sends webhooks (NewClient).
	Client *http.Client
}

func (o Options) withDefaults() Options {
	if o.Window <= 0 {
		o.Window = 24 * time.Hour
	}
	if o.FirstRetry <= 0 {
		o.FirstRetry = 10 * time.Second
	}
	if o.MaxRetry <= 0 {
		o.MaxRetry = time.Hour
	}
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	if o.Parallel <= 0 {
		o.Parallel = 8
	}
	if o.Client == nil {
		o.Client = NewClient()
	}
	return o
}

// Service routes events into the outbox and delivers from it.
type Service struct {
	store  domain.NotifyStore
	sealer Sealer
	clock  domain.Clock
	opt    Options
	wake   chan struct{}
}

// New returns a notification service.
func New(store domain.NotifyStore, sealer Sealer, clock domain.Clock, opt Options) *Service {
	return &Service{store: store, sealer: sealer, clock: clock, opt: opt.withDefaults(), wake: make(chan struct{}, 1)}
}

// NewID returns a fresh message id (the webhook-id).
func NewID(prefix string) string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// Enqueue writes e to the outbox once for every channel a user routes its
// type to (its owner's, or every user's for a system event) and returns
// how many rows it wrote or folded into a burst.
func (s *Service) Enqueue(ctx context.Context, e Event) (int, error) {
	payload, err := json.Marshal(e.Data)
	if err != nil {
		return 0, fmt.Errorf("notification payload: %w", err)
	}
	var routings []domain.NotifyRouting
	if e.Owner != "" {
		r, found, err := s.store.NotifyRouting(ctx, e.Owner)
		if err != nil {
			return 0, err
		}
		if found {
			routings = []domain.NotifyRouting{r}
		}
	} else if routings, err = s.store.NotifyRoutings(ctx); err != nil {
		return 0, err
	}
	if e.Time.IsZero() {
		e.Time = s.clock.Now()
	}
	n := 0
	for _, r := range routings {
		if severityRank[e.Severity] < severityRank[r.MinSeverity] {
			continue
		}
		for _, chID := range r.Routes[e.Type] {
			d := domain.NotifyDelivery{ID: NewID("msg_"), Owner: r.Owner, ChannelID: chID, Type: e.Type, Severity: e.Severity, OrderID: e.OrderID,
				Payload: payload, Count: 1, CreatedAt: e.Time, NextAt: e.Time}
			if r.Aggregate && r.AggregateSeconds > 0 {
				d.AggregateKey, d.NextAt = e.Type, e.Time.Add(time.Duration(r.AggregateSeconds)*time.Second)
			}
			if _, err := s.store.EnqueueNotify(ctx, d); err != nil {
				return n, err
			}
			n++
		}
	}
	if n > 0 {
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}
	return n, nil
}

// Run delivers due messages until ctx ends. In a cluster only the leader
// runs it, so each attempt is made by one instance.
func (s *Service) Run(ctx context.Context) {
	t := time.NewTicker(s.opt.Poll)
	defer t.Stop()
	for {
		if _, err := s.DeliverDue(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("notification delivery", "err", err, "component", "notify")
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-s.wake:
		}
	}
}

// DeliverDue makes one attempt at every message due now and records each
// outcome; it returns how many it attempted.
func (s *Service) DeliverDue(ctx context.Context) (int, error) {
	total := 0
	for {
		due, err := s.store.DueNotify(ctx, s.clock.Now(), 100)
		if err != nil || len(due) == 0 {
			return total, err
		}
		sem := make(chan struct{}, s.opt.Parallel)
		var wg sync.WaitGroup
		errs := make(chan error, len(due))
		for _, d := range due {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				errs <- s.attempt(ctx, d, true)
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				return total, err
			}
		}
		total += len(due)
		if len(due) < 100 || ctx.Err() != nil {
			return total, ctx.Err()
		}
	}
}

// attempt sends d once and records the outcome: delivered, retried after
// a backoff (retry), or failed once the window has passed.
func (s *Service) attempt(ctx context.Context, d domain.NotifyDelivery, retry bool) error {
	sendErr := s.send(ctx, d)
	if ctx.Err() != nil {
		return ctx.Err() // shutting down: the row stays pending as it was
	}
	now := s.clock.Now()
	d.Attempts++
	switch {
	case sendErr == nil:
		d.Status, d.LastError, d.DeliveredAt = domain.NotifyDelivered, "", &now
	default:
		d.LastError = sendErr.Error()
		next := now.Add(s.backoff(d.Attempts))
		var perm permanent
		if !retry || errors.As(sendErr, &perm) || next.After(d.CreatedAt.Add(s.opt.Window)) {
			d.Status = domain.NotifyFailed
		} else {
			d.NextAt = next
		}
	}
	return s.store.RecordNotifyAttempt(context.WithoutCancel(ctx), d)
}

// permanent is a failure no retry can mend (the channel is gone or off).
type permanent struct{ error }

// backoff is the wait after the n-th failed attempt.
func (s *Service) backoff(n int) time.Duration {
	b := s.opt.FirstRetry
	for i := 1; i < n && b < s.opt.MaxRetry; i++ {
		b *= 2
	}
	return min(b, s.opt.MaxRetry)
}

func (s *Service) send(ctx context.Context, d domain.NotifyDelivery) error {
	ch, err := s.store.NotifyChannel(ctx, d.ChannelID)
	if domain.ErrorCode(err) == domain.ENotFound {
		return permanent{errors.New("channel deleted")}
	}
	if err != nil {
		return err
	}
	if !ch.Enabled && d.Type != Test {
		return permanent{errors.New("channel disabled")}
	}
	secret, err := s.sealer.Open(SecretField, ch.Secret)
	if err != nil {
		return permanent{fmt.Errorf("channel secret unreadable: %w", err)}
	}
	body, err := json.Marshal(messageOf(d))
	if err != nil {
		return err
	}
	return post(ctx, s.opt.Client, ch.URL, secret, d.ID, s.clock.Now(), body)
}

// SendTest sends a notification.test message to ch now, once, and records
// it in the delivery log (delivered, or failed with the reason).
func (s *Service) SendTest(ctx context.Context, ch domain.NotifyChannel) (domain.NotifyDelivery, error) {
	now := s.clock.Now()
	payload, _ := json.Marshal(map[string]string{"message": "Test notification from Kestrel", "channel": ch.Name})
	d := domain.NotifyDelivery{ID: NewID("msg_"), Owner: ch.Owner, ChannelID: ch.ID, Type: Test, Severity: domain.SeverityLow, Payload: payload,
		Count: 1, CreatedAt: now, NextAt: now.Add(s.opt.Window)} // not due: only this call attempts it
	if _, err := s.store.EnqueueNotify(ctx, d); err != nil {
		return d, err
	}
	if err := s.attempt(ctx, d, false); err != nil {
		return d, err
	}
	log, err := s.store.NotifyDeliveries(ctx, ch.Owner, "", 20)
	if err != nil {
		return d, err
	}
	for _, got := range log {
		if got.ID == d.ID {
			return got, nil
		}
	}
	return d, fmt.Errorf("test delivery %s not found after its attempt", d.ID)
}
