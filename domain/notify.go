package domain

import (
	"context"
	"encoding/json"
	"time"
)

// Notification delivery statuses.
const (
	NotifyPending   = "pending"   // waiting for its first or next attempt
	NotifyDelivered = "delivered" // a receiver answered 2xx
	NotifyFailed    = "failed"    // gave up: the retry window ended or the channel is gone
)

// Notification channel kinds.
const (
	NotifyWebhook  = "webhook"
	NotifyTelegram = "telegram"
	NotifyEmail    = "email"
	NotifyPush     = "push" // Web Push to a browser's subscription
)

// NotifyChannel is one place a user's notifications go: a signed webhook,
// a Telegram chat, an email address or a browser's push subscription.
type NotifyChannel struct {
	ID    string `json:"id"`
	Owner string `json:"owner"`
	Kind  string `json:"kind"` // NotifyWebhook, NotifyTelegram, NotifyEmail, NotifyPush
	Name  string `json:"name"`
	URL   string `json:"url"` // the webhook's URL or the push subscription's endpoint ("" for other kinds)
	// Address is the Telegram chat id (telegram) or the recipient's email
	// address (email); "" for a webhook.
	Address string `json:"address"`
	// Secret is the sealed webhook signing secret, Telegram bot token or
	// push subscription's keys; never sent to clients.
	Secret    string    `json:"-"`
	Enabled   bool      `json:"enabled"`
	CreatedAt time.Time `json:"created_at"`
}

// NotifyRouting is a user's choice of which events go to which channels.
type NotifyRouting struct {
	Owner string `json:"-"`
	// Routes maps an event type to the ids of the channels it goes to.
	Routes map[string][]string `json:"routes"`
	// MinSeverity drops events below it (low, medium, high, critical).
	MinSeverity string `json:"min_severity"`
	// Aggregate folds a burst of the same event type for one channel
	// (within AggregateSeconds) into one message with a count.
	Aggregate        bool `json:"aggregate"`
	AggregateSeconds int  `json:"aggregate_seconds"`
	// QuietFrom and QuietTo (HH:MM in QuietTimezone, "" for none) hold
	// back every event but critical ones until the quiet hours end; they
	// are then sent (folded into one message per type when aggregating).
	QuietFrom     string `json:"quiet_from"`
	QuietTo       string `json:"quiet_to"`
	QuietTimezone string `json:"quiet_timezone"`
}

// NotifyDelivery is one outbox row: a message for one channel, its attempts
// and outcome. ID is the webhook-id every attempt carries.
type NotifyDelivery struct {
	ID        string          `json:"id"`
	Owner     string          `json:"owner"`
	ChannelID string          `json:"channel"`
	Type      string          `json:"type"`
	Severity  string          `json:"severity"`
	OrderID   string          `json:"order_id,omitempty"`
	Payload   json.RawMessage `json:"data"`
	// Count is how many events this message stands for (>1: aggregated).
	Count int `json:"count"`
	// AggregateKey, when set, lets later events of a burst fold into this
	// row while it is still pending and unattempted.
	AggregateKey string     `json:"-"`
	Status       string     `json:"status"`
	Attempts     int        `json:"attempts"`
	LastError    string     `json:"last_error"`
	CreatedAt    time.Time  `json:"created_at"`
	NextAt       time.Time  `json:"next_attempt_at"`
	DeliveredAt  *time.Time `json:"delivered_at,omitempty"`
}

// NotifyEvent is an event committed with its cause (LedgerChange.Notify),
// waiting to be routed to its owner's channels.
type NotifyEvent struct {
	ID        string
	Type      string
	Severity  string
	Owner     string
	OrderID   string
	Payload   json.RawMessage
	CreatedAt time.Time
}

// NotifyRoute is a committed event's deliveries, as routing made them.
type NotifyRoute struct {
	EventID    string
	Deliveries []NotifyDelivery
}

// VenueFill is a fill made at an outside venue (Coinbase, where Kestrel's
// store does not hold the fill) with the notification event it stands for.
type VenueFill struct {
	ID    string    // the venue's fill id
	Time  time.Time // when it was made
	Event NotifyEvent
}

// VenueFills is one commit of a venue's fills (NotifyStore.CommitVenueFills).
type VenueFills struct {
	Venue string
	Fills []VenueFill
	// Mark, when not zero, moves the venue's checkpoint to it (never back):
	// every fill made before it has been looked at.
	Mark time.Time
	// Forget drops the record of fills made before it (zero: none); they
	// are older than anything looked at again.
	Forget time.Time
}

// NotifyStore keeps notification channels, routing and the outbox.
type NotifyStore interface {
	// CreateNotifyChannel inserts a channel.
	CreateNotifyChannel(ctx context.Context, c NotifyChannel) error
	// NotifyChannel returns one channel or not_found.
	NotifyChannel(ctx context.Context, id string) (NotifyChannel, error)
	// NotifyChannels lists a user's channels ("" lists everyone's), oldest first.
	NotifyChannels(ctx context.Context, owner string) ([]NotifyChannel, error)
	// UpdateNotifyChannel replaces name, url, secret and enabled; not_found when absent.
	UpdateNotifyChannel(ctx context.Context, c NotifyChannel) error
	// DeleteNotifyChannel removes a channel; its pending deliveries fail.
	DeleteNotifyChannel(ctx context.Context, id string, at time.Time) error
	// NotifyRouting returns a user's routing (found false: none stored).
	NotifyRouting(ctx context.Context, owner string) (NotifyRouting, bool, error)
	// NotifyRoutings lists every user's stored routing.
	NotifyRoutings(ctx context.Context) ([]NotifyRouting, error)
	// PutNotifyRouting stores a user's routing.
	PutNotifyRouting(ctx context.Context, r NotifyRouting) error
	// EnqueueNotify writes d to the outbox. With an AggregateKey it first
	// folds d into a pending, unattempted row of the same channel and key
	// whose NextAt is still ahead of d.CreatedAt (count+1, returns false).
	EnqueueNotify(ctx context.Context, d NotifyDelivery) (inserted bool, err error)
	// DueNotify lists pending rows whose NextAt is at or before now, oldest first.
	DueNotify(ctx context.Context, now time.Time, limit int) ([]NotifyDelivery, error)
	// RecordNotifyAttempt stores an attempt's outcome: status, attempts,
	// last error, next attempt time and (delivered) when.
	RecordNotifyAttempt(ctx context.Context, d NotifyDelivery) error
	// RecordNotifyAttempts stores several attempts' outcomes in one transaction.
	RecordNotifyAttempts(ctx context.Context, ds []NotifyDelivery) error
	// NotifyDeliveries lists deliveries newest first; "" owner or status matches any.
	NotifyDeliveries(ctx context.Context, owner, status string, limit int) ([]NotifyDelivery, error)
	// CommittedNotifyEvents lists events committed with their cause and not
	// routed yet, oldest first.
	CommittedNotifyEvents(ctx context.Context, limit int) ([]NotifyEvent, error)
	// RouteNotifyEvents removes each route's committed event and writes its
	// deliveries (as EnqueueNotify does, aggregation included), all in one
	// transaction; a route whose event is already gone (routed before)
	// writes nothing, so each event is routed once. It returns how many
	// events it routed.
	RouteNotifyEvents(ctx context.Context, rs []NotifyRoute) (routed int, err error)
	// CommitVenueFills records each fill of f not recorded before (by venue
	// and fill id) and commits its event to be routed (CommittedNotifyEvents);
	// a fill recorded before writes nothing, so each is queued once however
	// often, and by however many instances, it is seen. In the same
	// transaction it moves the venue's checkpoint to f.Mark and forgets the
	// fills made before f.Forget. It returns how many fills were new.
	CommitVenueFills(ctx context.Context, f VenueFills) (queued int, err error)
	// VenueFillMark is the venue's checkpoint (zero: none yet).
	VenueFillMark(ctx context.Context, venue string) (time.Time, error)
}
