package notify

import (
	"context"
	"crypto/ecdh"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"

	"kestrel/domain"
)

// PushSubscription is a browser's subscription as PushSubscription.toJSON()
// gives it: the push service's endpoint and the keys to encrypt for.
type PushSubscription struct {
	Endpoint string   `json:"endpoint"`
	Keys     PushKeys `json:"keys"`
	// ExpirationTime is part of what browsers send; it is not used (a
	// subscription that ends shows as a 404 or 410 when sending).
	ExpirationTime *float64 `json:"expirationTime,omitempty"`
}

// PushKeys are the subscription's P-256 public key and 16-byte auth
// secret, in URL-safe base64 (sealed at rest as the channel's secret).
type PushKeys struct {
	P256dh string `json:"p256dh"`
	Auth   string `json:"auth"`
}

// pushTTL is how long a push service keeps a message for a browser that
// is offline: the retry window, after which a notice is stale anyway.
const pushTTL = 24 * 60 * 60

// decodeKey reads base64 in any of the forms browsers and libraries use
// (URL-safe or standard, padded or not).
func decodeKey(s string) ([]byte, error) {
	s = strings.TrimRight(strings.NewReplacer("+", "-", "/", "_").Replace(strings.TrimSpace(s)), "=")
	return base64.RawURLEncoding.DecodeString(s)
}

// checkSubscription says what is wrong with sub, by field.
func checkSubscription(sub PushSubscription, allowLoopback bool) map[string]string {
	f := map[string]string{}
	if u, err := url.Parse(sub.Endpoint); err != nil || u.Host == "" || CheckTarget(sub.Endpoint, allowLoopback) != "" || len(sub.Endpoint) > 2000 {
		f["subscription.endpoint"] = "The push service's endpoint must be an https:// URL to a public address (loopback, and http:// to it, only when an operator allows it)"
	}
	if p, err := decodeKey(sub.Keys.P256dh); err != nil {
		f["subscription.keys.p256dh"] = "The browser's key must be a P-256 public key in base64"
	} else if _, err := ecdh.P256().NewPublicKey(p); err != nil {
		f["subscription.keys.p256dh"] = "The browser's key must be a P-256 public key in base64"
	}
	if a, err := decodeKey(sub.Keys.Auth); err != nil || len(a) != 16 {
		f["subscription.keys.auth"] = "The browser's auth secret must be 16 bytes in base64"
	}
	return f
}

// vapidKV names the stored VAPID key pair; VAPIDField names its private
// key to the sealer.
const (
	vapidKV    = "notify.push.vapid"
	VAPIDField = "notify.push.vapidPrivateKey"
)

// vapidPair is the stored VAPID key pair: the public key as browsers take
// it (applicationServerKey) and the sealed private key.
type vapidPair struct {
	Public  string `json:"public"`
	Private string `json:"private"`
}

// PushKey is the VAPID public key browsers subscribe with, generated and
// stored (its private half sealed) the first time it is needed.
func (s *Service) PushKey(ctx context.Context) (string, error) {
	pub, _, err := s.vapid(ctx)
	return pub, err
}

// vapid returns the key pair, creating it on first use. A cluster's
// instances read the stored pair; when two create one at the same moment
// the first stored stands (domain.KVCreator) and the other instance takes
// it, so every instance signs with the key browsers subscribed with.
func (s *Service) vapid(ctx context.Context) (pub, priv string, err error) {
	s.vapidMu.Lock()
	defer s.vapidMu.Unlock()
	if s.vapidPub != "" {
		return s.vapidPub, s.vapidPriv, nil
	}
	if s.opt.KV == nil {
		return "", "", errors.New("web push needs a key store")
	}
	raw, err := s.opt.KV.GetValue(ctx, vapidKV)
	var p vapidPair
	if domain.ErrorCode(err) == domain.ENotFound {
		if priv, pub, err = webpush.GenerateVAPIDKeys(); err != nil {
			return "", "", fmt.Errorf("generate VAPID keys: %w", err)
		}
		p.Public = pub
		if p.Private, err = s.sealer.Seal(VAPIDField, priv); err != nil {
			return "", "", err
		}
		b, _ := json.Marshal(p)
		created := true
		if c, ok := s.opt.KV.(domain.KVCreator); ok {
			created, err = c.CreateValue(ctx, vapidKV, string(b))
		} else {
			err = s.opt.KV.PutValue(ctx, vapidKV, string(b))
		}
		if err != nil {
			return "", "", err
		}
		if created {
			s.vapidPub, s.vapidPriv = pub, priv
			return pub, priv, nil
		}
		raw, err = s.opt.KV.GetValue(ctx, vapidKV) // another instance stored one first: take it
	}
	if err != nil {
		return "", "", err
	}
	if err := json.Unmarshal([]byte(raw), &p); err != nil || p.Public == "" {
		return "", "", errors.New("the stored VAPID key pair is corrupt")
	}
	if priv, err = s.sealer.Open(VAPIDField, p.Private); err != nil {
		return "", "", fmt.Errorf("VAPID private key: %w", err)
	}
	pub = p.Public
	s.vapidPub, s.vapidPriv = pub, priv
	return pub, priv, nil
}

// RekeyVAPID re-seals the stored VAPID private key from old to next
// (kestrel rekey); it returns 1 when there is one, 0 when push was never used.
func RekeyVAPID(ctx context.Context, kv domain.KVStore, old, next Sealer) (int, error) {
	raw, err := kv.GetValue(ctx, vapidKV)
	if domain.ErrorCode(err) == domain.ENotFound {
		return 0, nil
	} else if err != nil {
		return 0, err
	}
	var p vapidPair
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		return 0, errors.New("the stored VAPID key pair is corrupt")
	}
	plain, err := old.Open(VAPIDField, p.Private)
	if err != nil {
		return 0, fmt.Errorf("VAPID private key: the current key does not open it: %w", err)
	}
	if p.Private, err = next.Seal(VAPIDField, plain); err != nil {
		return 0, err
	}
	b, _ := json.Marshal(p)
	return 1, kv.PutValue(ctx, vapidKV, string(b))
}

// PushNote is what a push message carries (encrypted for the browser):
// the service worker shows Title and Body and opens URL on a click.
type PushNote struct {
	ID        string    `json:"id"`
	Type      string    `json:"type"`
	Severity  string    `json:"severity"`
	Title     string    `json:"title"`
	Body      string    `json:"body"`
	Count     int       `json:"count"`
	OrderID   string    `json:"order_id,omitempty"`
	URL       string    `json:"url"`
	Timestamp time.Time `json:"timestamp"`
}

// noteOf is m as a push notice: Text's first line is the title, the rest
// the body (cut to fit the 4 kB a push message may carry).
func noteOf(m Message) PushNote {
	title, body, _ := strings.Cut(Text(m), "\n")
	n := PushNote{ID: m.ID, Type: m.Type, Severity: m.Severity, Title: title, Body: truncate(body, 1500), Count: m.Count, OrderID: m.OrderID,
		URL: "/", Timestamp: m.Timestamp}
	switch m.Type {
	case OrderFilled, OrderPartiallyFilled, OrderRejected, ProtectiveTriggered:
		n.URL = "/trading/orders"
	case BacktestFinished:
		n.URL = "/strategy/backtest"
	case Test:
		n.URL = "/account"
	}
	return n
}

// urgency is the push service's priority for a severity (RFC 8030 5.3):
// critical events wake a sleeping device.
func urgency(severity string) webpush.Urgency {
	switch severity {
	case domain.SeverityCritical:
		return webpush.UrgencyHigh
	case domain.SeverityLow:
		return webpush.UrgencyLow
	}
	return webpush.UrgencyNormal
}

// pushSubject is the contact the VAPID token names to push services: the
// mail settings' from address, else a local one.
func (s *Service) pushSubject() string {
	if a, err := mail.ParseAddress(s.opt.Servers().SMTP.From); err == nil {
		return a.Address
	}
	return "kestrel@localhost"
}

// sendPush encrypts d for ch's subscription and posts it to the push
// service. A 404 or 410 means the browser's subscription is gone: the
// channel is disabled and the message fails at once. 429 and 5xx are
// retried (a 429's Retry-After is honoured); other refusals are permanent.
func (s *Service) sendPush(ctx context.Context, ch domain.NotifyChannel, keys string, d domain.NotifyDelivery) error {
	if msg := CheckTarget(ch.URL, s.opt.Servers().AllowLoopback); msg != "" {
		return permanent{errors.New("the push endpoint: " + msg)}
	}
	var k PushKeys
	if err := json.Unmarshal([]byte(keys), &k); err != nil {
		return permanent{errors.New("the channel's subscription keys are unreadable")}
	}
	pub, priv, err := s.vapid(ctx)
	if err != nil {
		return err
	}
	body, err := json.Marshal(noteOf(messageOf(d)))
	if err != nil {
		return err
	}
	resp, err := webpush.SendNotificationWithContext(ctx, body, &webpush.Subscription{Endpoint: ch.URL, Keys: webpush.Keys{P256dh: k.P256dh, Auth: k.Auth}},
		&webpush.Options{HTTPClient: s.opt.targets, Subscriber: s.pushSubject(), TTL: pushTTL, Urgency: urgency(d.Severity),
			VAPIDPublicKey: pub, VAPIDPrivateKey: priv})
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the endpoint's path is the subscription's capability: keep it out of the log
		}
		return fmt.Errorf("not delivered to the push service: %w", err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	code := resp.StatusCode
	msg := fmt.Sprintf("push service answered HTTP %d", code)
	switch {
	case code >= 200 && code <= 299:
		return nil
	case code == http.StatusNotFound || code == http.StatusGone:
		ch.Enabled = false
		if err := s.store.UpdateNotifyChannel(context.WithoutCancel(ctx), ch); err != nil {
			return fmt.Errorf("%s (subscription gone), and disabling the channel failed: %w", msg, err)
		}
		return permanent{errors.New(msg + ": the browser's subscription has expired or was withdrawn; channel disabled (enable browser notifications again to subscribe anew)")}
	case code == http.StatusTooManyRequests:
		if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && secs > 0 {
			return retryAfter{errors.New(msg), time.Duration(secs) * time.Second}
		}
		return errors.New(msg)
	case code >= 500:
		return errors.New(msg)
	}
	return permanent{errors.New(msg)} // 400, 401, 403 (VAPID refused), 413: a retry would be refused the same
}
