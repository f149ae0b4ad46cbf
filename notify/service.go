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
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

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
	// Client sends webhooks, push messages and Telegram messages
	// (NewClient; the default reaches loopback for webhooks and push only
	// while the settings allow it).
	Client  *http.Client
	targets *http.Client // webhooks and push: trader-chosen addresses
	// TelegramURL, when set, is the Bot API's base URL whatever the
	// settings say (KESTREL_TELEGRAM_API_URL).
	TelegramURL string
	// Servers returns the settings' notification servers (nil: none).
	Servers func() Servers
	// Flags returns a user's ui.notifications switches (nil: all on).
	Flags func(ctx context.Context, owner string) (Flags, error)
	// KV keeps the VAPID key pair Web Push signs with (nil: the store,
	// when it is one).
	KV domain.KVStore
	// Active reports whether owner's account may receive anything: a
	// disabled (or deleted) account's channels stop, platform events
	// included (nil: every owner is).
	Active func(ctx context.Context, owner string) (bool, error)
}

// Servers are the platform's notification servers, from the settings.
type Servers struct {
	SMTP SMTP
	// TelegramURL is the Bot API's base URL ("": DefaultTelegramURL).
	TelegramURL string
	// DigestTime is when the daily digest goes out, HH:MM UTC.
	DigestTime string
	// AllowLoopback lets webhook and push channels reach this machine
	// (system.notifications.allowLoopbackTargets; off: https:// to public
	// addresses only).
	AllowLoopback bool
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
	if o.Servers == nil {
		o.Servers = func() Servers { return Servers{} }
	}
	if o.Client == nil {
		o.Client = NewClient()
		servers := o.Servers
		o.targets = newClient(func() bool { return servers().AllowLoopback })
	} else {
		o.targets = o.Client
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
	// routeWake tells RunRouting that events were committed.
	routeWake chan struct{}
	// vapidPub and vapidPriv are the VAPID key pair once read (vapid).
	vapidMu             sync.Mutex
	vapidPub, vapidPriv string
	// listening holds the owners who route an order event type anywhere
	// (nil: not loaded yet, commit every event). Refreshed by routing
	// changes here and by RunRouting each Poll (another instance's change).
	listening atomic.Pointer[map[string]bool]
	// tests are the recent "Send test" times per owner and class (testLimits).
	testMu sync.Mutex
	tests  map[string][]time.Time
}

// testLimits bound "Send test" per user: an email test sends a real mail
// to the address the channel names (any address), so a few an hour; other
// kinds a few dozen in ten minutes.
var testLimits = map[bool]struct {
	n      int
	window time.Duration
	per    string
}{true: {5, time.Hour, "hour"}, false: {30, 10 * time.Minute, "10 minutes"}}

// takeTest counts a test of ch's kind by its owner, or says when the next
// one is allowed.
func (s *Service) takeTest(ch domain.NotifyChannel) error {
	email := ch.Kind == domain.NotifyEmail
	lim := testLimits[email]
	key := ch.Owner + "|" + strconv.FormatBool(email)
	now := s.clock.Now()
	s.testMu.Lock()
	defer s.testMu.Unlock()
	if s.tests == nil {
		s.tests = map[string][]time.Time{}
	}
	recent := s.tests[key][:0]
	for _, t := range s.tests[key] {
		if now.Sub(t) < lim.window {
			recent = append(recent, t)
		}
	}
	if len(recent) >= lim.n {
		s.tests[key] = recent
		wait := recent[0].Add(lim.window).Sub(now).Round(time.Second)
		what := "tests"
		if email {
			what = "test emails"
		}
		return domain.Errorf(domain.ETooMany, "At most %d %s per %s; try again in %s", lim.n, what, lim.per, wait)
	}
	s.tests[key] = append(recent, now)
	return nil
}

// New returns a notification service.
func New(store domain.NotifyStore, sealer Sealer, clock domain.Clock, opt Options) *Service {
	if kv, ok := store.(domain.KVStore); ok && opt.KV == nil {
		opt.KV = kv
	}
	return &Service{store: store, sealer: sealer, clock: clock, opt: opt.withDefaults(), wake: make(chan struct{}, 1), routeWake: make(chan struct{}, 1)}
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
	if e.Time.IsZero() {
		e.Time = s.clock.Now()
	}
	ds, err := s.route(ctx, domain.NotifyEvent{Type: e.Type, Severity: e.Severity, Owner: e.Owner, OrderID: e.OrderID, Payload: payload, CreatedAt: e.Time})
	if err != nil {
		return 0, err
	}
	for i, d := range ds {
		if _, err := s.store.EnqueueNotify(ctx, d); err != nil {
			return i, err
		}
	}
	s.poke(len(ds))
	return len(ds), nil
}

// poke wakes the delivery loop when n messages were queued.
func (s *Service) poke(n int) {
	if n > 0 {
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}
}

// route is e's outbox rows: one for every channel a user routes its type
// to (its owner's, or every user's for a system event) at or above their
// minimum severity, outside their quiet hours unless critical.
func (s *Service) route(ctx context.Context, e domain.NotifyEvent) ([]domain.NotifyDelivery, error) {
	return s.routeWith(ctx, e, nil)
}

// routeWith is route reading routings and switches through rc (nil: none).
// securityDeliveries sends a security notice (an API token made for the
// owner's account) whatever the routing says: to the channels routed for it,
// else to every enabled channel of the owner, at once (no quiet hours, no
// aggregation, no severity floor), so the owner learns of a token they did
// not make. A disabled owner gets nothing.
func (s *Service) securityDeliveries(ctx context.Context, e domain.NotifyEvent, routings []domain.NotifyRouting, active bool) ([]domain.NotifyDelivery, error) {
	if !active {
		return nil, nil
	}
	var targets []string
	for _, r := range routings {
		targets = append(targets, r.Routes[e.Type]...)
	}
	if len(targets) == 0 {
		chs, err := s.store.NotifyChannels(ctx, e.Owner)
		if err != nil {
			return nil, err
		}
		for _, c := range chs {
			if c.Enabled {
				targets = append(targets, c.ID)
			}
		}
	}
	ds := make([]domain.NotifyDelivery, 0, len(targets))
	for _, chID := range targets {
		ds = append(ds, domain.NotifyDelivery{ID: NewID("msg_"), Owner: e.Owner, ChannelID: chID, Type: e.Type, Severity: e.Severity, OrderID: e.OrderID,
			Payload: e.Payload, Count: 1, CreatedAt: e.CreatedAt, NextAt: e.CreatedAt})
	}
	return ds, nil
}

func (s *Service) routeWith(ctx context.Context, e domain.NotifyEvent, rc *routeCache) ([]domain.NotifyDelivery, error) {
	routings, cached := []domain.NotifyRouting(nil), false
	if rc != nil {
		routings, cached = rc.owners[e.Owner]
	}
	if !cached {
		if e.Owner != "" {
			r, found, err := s.store.NotifyRouting(ctx, e.Owner)
			if err != nil {
				return nil, err
			}
			if found {
				routings = []domain.NotifyRouting{r}
			}
		} else {
			var err error
			if routings, err = s.store.NotifyRoutings(ctx); err != nil {
				return nil, err
			}
		}
		if rc != nil {
			rc.owners[e.Owner] = routings
		}
	}
	flags := func(owner string) Flags {
		if rc == nil {
			return s.flags(ctx, owner)
		}
		if rc.flags == nil {
			rc.flags = map[string]Flags{}
		}
		f, ok := rc.flags[owner]
		if !ok {
			f = s.flags(ctx, owner)
			rc.flags[owner] = f
		}
		return f
	}
	active := func(owner string) bool {
		if rc == nil {
			return s.activeOwner(ctx, owner)
		}
		if rc.active == nil {
			rc.active = map[string]bool{}
		}
		a, ok := rc.active[owner]
		if !ok {
			a = s.activeOwner(ctx, owner)
			rc.active[owner] = a
		}
		return a
	}
	if e.Type == TokenCreated && e.Owner != "" {
		return s.securityDeliveries(ctx, e, routings, active(e.Owner))
	}
	var ds []domain.NotifyDelivery
	for _, r := range routings {
		if severityRank[e.Severity] < severityRank[r.MinSeverity] || len(r.Routes[e.Type]) == 0 || !flags(r.Owner).allows(e.Type) || !active(r.Owner) {
			continue
		}
		var quietEnd time.Time
		if e.Severity != domain.SeverityCritical {
			quietEnd = quietUntil(r, e.CreatedAt)
		}
		for _, chID := range r.Routes[e.Type] {
			d := domain.NotifyDelivery{ID: NewID("msg_"), Owner: r.Owner, ChannelID: chID, Type: e.Type, Severity: e.Severity, OrderID: e.OrderID,
				Payload: e.Payload, Count: 1, CreatedAt: e.CreatedAt, NextAt: e.CreatedAt}
			if r.Aggregate && r.AggregateSeconds > 0 {
				d.AggregateKey, d.NextAt = e.Type, e.CreatedAt.Add(time.Duration(r.AggregateSeconds)*time.Second)
			}
			if quietEnd.After(d.NextAt) {
				d.NextAt = quietEnd // held for the end of the quiet hours
				if r.Aggregate {
					d.AggregateKey = e.Type // what the quiet hours gather goes out as one message per type
				}
			}
			ds = append(ds, d)
		}
	}
	return ds, nil
}

// RouteCommitted routes the events committed with their cause (a fill's,
// LedgerChange.Notify) into the outbox, up to 256 at a time in one
// transaction with their removal, and returns how many it routed. After a
// crash the events left are routed on the next start, each once. A batch
// reads each user's routing once, so a flood of fills costs one write
// transaction per batch, not per fill.
func (s *Service) RouteCommitted(ctx context.Context) (int, error) {
	total := 0
	for {
		evs, err := s.store.CommittedNotifyEvents(ctx, routeBatch)
		if err != nil || len(evs) == 0 {
			return total, err
		}
		rc := &routeCache{owners: map[string][]domain.NotifyRouting{}}
		rs := make([]domain.NotifyRoute, 0, len(evs))
		queued := 0
		for _, e := range evs {
			ds, err := s.routeWith(ctx, e, rc)
			if err != nil {
				return total, err
			}
			rs = append(rs, domain.NotifyRoute{EventID: e.ID, Deliveries: ds})
			queued += len(ds)
		}
		n, err := s.store.RouteNotifyEvents(ctx, rs)
		total += n
		if err != nil {
			return total, err
		}
		s.poke(queued)
		if len(evs) < routeBatch {
			return total, nil
		}
	}
}

// routeGather is how long RunRouting lets committed events gather before
// it routes them: one routing transaction then takes a burst's events
// instead of each taking the database's write lock from the order path.
const routeGather = 100 * time.Millisecond

// RunRouting routes committed events (RouteCommitted) when told some were
// committed, and every Poll, until ctx ends; the first pass, at start, routes
// what a crash left. Like Run, it runs on one instance (the leader).
func (s *Service) RunRouting(ctx context.Context) {
	t := time.NewTicker(s.opt.Poll)
	defer t.Stop()
	for {
		if err := s.LoadListening(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("notification routing: reading who listens", "err", err, "component", "notify")
		}
		n, err := s.RouteCommitted(ctx)
		if err != nil && ctx.Err() == nil {
			slog.Warn("notification routing", "err", err, "component", "notify")
		}
		if n < routeBatch { // a full batch: more are waiting, route them now
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			case <-s.routeWake:
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(routeGather):
		}
	}
}

// routeBatch is how many committed events one routing transaction takes.
const routeBatch = 256

// routeCache keeps the routings and switches read while routing a batch.
type routeCache struct {
	owners map[string][]domain.NotifyRouting // "" : everyone's
	flags  map[string]Flags
	active map[string]bool
}

// activeOwner is whether owner's account receives notifications; when it
// cannot be read, routing goes ahead and delivery asks again (send).
func (s *Service) activeOwner(ctx context.Context, owner string) bool {
	if s.opt.Active == nil {
		return true
	}
	ok, err := s.opt.Active(ctx, owner)
	return ok || err != nil
}

// Committed is the event a trade update stands for, ready to be
// committed with the change that made it (sandbox.Options.NotifyEvent).
// An owner who routes no order event anywhere gets none: routing would
// make no message of it, and the order path is spared the row.
func (s *Service) Committed(u domain.TradeUpdate) (domain.NotifyEvent, bool) {
	if l := s.listening.Load(); l != nil && !(*l)[u.Order.UserID] {
		return domain.NotifyEvent{}, false
	}
	return Committed(u)
}

// Committed is the event a trade update stands for, for any owner.
func Committed(u domain.TradeUpdate) (domain.NotifyEvent, bool) {
	return committed(FromTradeUpdate(u))
}

// CommittedAlert is the event an alert stands for, ready to be committed
// with the alert (alert.Service.OnRaise).
func CommittedAlert(a domain.Alert) (domain.NotifyEvent, bool) {
	return committed(FromAlert(a))
}

// CommittedJob is the event a finished job stands for, ready to be
// committed with its final status (jobs.Options.NotifyEvent).
func CommittedJob(j domain.Job) (domain.NotifyEvent, bool) {
	return committed(FromJob(j))
}

// committed is event e as a row to commit with its cause (none when !ok,
// or when its payload cannot be written, which a catalogue payload always can).
func committed(e Event, ok bool) (domain.NotifyEvent, bool) {
	if !ok {
		return domain.NotifyEvent{}, false
	}
	payload, err := json.Marshal(e.Data)
	if err != nil {
		return domain.NotifyEvent{}, false
	}
	return domain.NotifyEvent{ID: NewID("evt_"), Type: e.Type, Severity: e.Severity, Owner: e.Owner, OrderID: e.OrderID, Payload: payload, CreatedAt: e.Time}, true
}

// orderTypes are the events Committed makes.
var orderTypes = []string{OrderFilled, OrderPartiallyFilled, OrderRejected, ProtectiveTriggered}

// LoadListening reads which owners route an order event anywhere.
func (s *Service) LoadListening(ctx context.Context) error {
	rs, err := s.store.NotifyRoutings(ctx)
	if err != nil {
		return err
	}
	l := map[string]bool{}
	for _, r := range rs {
		for _, t := range orderTypes {
			if len(r.Routes[t]) > 0 {
				l[r.Owner] = true
			}
		}
	}
	s.listening.Store(&l)
	return nil
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
		outcomes := make(chan domain.NotifyDelivery, len(due))
		for _, d := range due {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				if got, ok := s.outcome(ctx, d, true); ok {
					outcomes <- got
				}
			}()
		}
		wg.Wait()
		close(outcomes)
		// One transaction for the batch's outcomes: a flood's deliveries do
		// not take the database's write lock once each.
		var batch []domain.NotifyDelivery
		for d := range outcomes {
			batch = append(batch, d)
		}
		if len(batch) > 0 {
			if err := s.store.RecordNotifyAttempts(context.WithoutCancel(ctx), batch); err != nil {
				return total, err
			}
		}
		if ctx.Err() != nil {
			return total, ctx.Err()
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
	d, ok := s.outcome(ctx, d, retry)
	if !ok {
		return ctx.Err()
	}
	return s.store.RecordNotifyAttempt(context.WithoutCancel(ctx), d)
}

// outcome sends d once and returns it with the attempt's outcome, to be
// recorded; ok false when shutting down (the row stays pending as it was).
func (s *Service) outcome(ctx context.Context, d domain.NotifyDelivery, retry bool) (domain.NotifyDelivery, bool) {
	sendErr := s.send(ctx, d)
	if ctx.Err() != nil {
		return d, false
	}
	now := s.clock.Now()
	d.Attempts++
	switch {
	case sendErr == nil:
		d.Status, d.LastError, d.DeliveredAt = domain.NotifyDelivered, "", &now
	default:
		d.LastError = sendErr.Error()
		next := now.Add(s.backoff(d.Attempts))
		var later retryAfter
		if errors.As(sendErr, &later) && now.Add(later.wait).After(next) {
			next = now.Add(later.wait) // the receiver said when (Telegram's 429 retry_after)
		}
		var perm permanent
		if !retry || errors.As(sendErr, &perm) || next.After(d.CreatedAt.Add(s.opt.Window)) {
			d.Status = domain.NotifyFailed
		} else {
			d.NextAt = next
		}
	}
	return d, true
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
	if s.opt.Active != nil {
		// Also what was queued before the account was disabled.
		switch ok, err := s.opt.Active(ctx, ch.Owner); {
		case err != nil:
			return err // retried
		case !ok:
			return permanent{errors.New("the account is disabled: its notifications stop")}
		}
	}
	secret := ""
	if ch.Secret != "" {
		if secret, err = s.sealer.Open(SecretField, ch.Secret); err != nil {
			return permanent{fmt.Errorf("channel secret unreadable: %w", err)}
		}
	}
	switch ch.Kind {
	case domain.NotifyTelegram:
		return sendTelegram(ctx, s.opt.Client, s.telegramURL(), secret, ch.Address, truncate(Text(messageOf(d)), 4000))
	case domain.NotifyEmail:
		if !s.flags(ctx, d.Owner).Email {
			return permanent{errors.New("email notifications are off in your settings (Notifications: Email)")}
		}
		m := messageOf(d)
		return sendMail(ctx, s.opt.Servers().SMTP, ch.Address, "Kestrel: "+Title(m.Type), Text(m), s.clock.Now(), d.ID)
	case domain.NotifyPush:
		if !s.flags(ctx, d.Owner).Push {
			return permanent{errors.New("browser push is off in your settings (Notifications: Push)")}
		}
		return s.sendPush(ctx, ch, secret, d)
	case domain.NotifyWebhook, "":
		body, err := json.Marshal(messageOf(d))
		if err != nil {
			return err
		}
		return post(ctx, s.opt.targets, ch.URL, secret, d.ID, s.clock.Now(), body, s.opt.Servers().AllowLoopback)
	}
	return permanent{fmt.Errorf("unknown channel kind %q", ch.Kind)}
}

// telegramURL is the Bot API's base URL: the process's override, else
// the settings', else Telegram's.
func (s *Service) telegramURL() string {
	if s.opt.TelegramURL != "" {
		return s.opt.TelegramURL
	}
	if u := s.opt.Servers().TelegramURL; u != "" {
		return u
	}
	return DefaultTelegramURL
}

// truncate cuts s to at most n bytes on a rune boundary (Telegram takes
// 4,096 characters a message).
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// SendTest sends a notification.test message to ch now, once, and records
// it in the delivery log (delivered, or failed with the reason).
func (s *Service) SendTest(ctx context.Context, ch domain.NotifyChannel) (domain.NotifyDelivery, error) {
	if err := s.takeTest(ch); err != nil {
		return domain.NotifyDelivery{}, err
	}
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
