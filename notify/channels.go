package notify

import (
	"context"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"kestrel/domain"
)

// ChannelInput is a channel as a user creates or changes it; nil fields
// are left as they are on update.
type ChannelInput struct {
	// Kind is webhook (the default), telegram, email or push; set at creation only.
	Kind    *string `json:"kind"`
	Name    *string `json:"name"`
	URL     *string `json:"url"`
	Secret  *string `json:"secret"`
	Enabled *bool   `json:"enabled"`
	// Address is the Telegram chat id (telegram) or the recipient (email).
	Address *string `json:"address"`
	// BotToken is the Telegram bot's token (telegram); sealed at rest,
	// never shown again.
	BotToken *string `json:"bot_token"`
	// Subscription is the browser's push subscription (push); its keys
	// are sealed at rest.
	Subscription *PushSubscription `json:"subscription"`
}

// CreatedChannel is a new channel and its webhook signing secret, shown
// this once ("" for other kinds: a bot token is the user's own).
type CreatedChannel struct {
	domain.NotifyChannel
	Secret string `json:"secret"`
}

func invalid(fields map[string]string) error {
	return &domain.Error{Code: domain.EInvalid, Message: "Check the highlighted fields", Fields: fields}
}

// apply checks in and copies it onto c (sealing a new secret); the
// returned plain webhook secret is "" when it did not change.
func (s *Service) apply(c *domain.NotifyChannel, in ChannelInput, creating bool) (string, error) {
	f := map[string]string{}
	if in.Name != nil {
		c.Name = strings.TrimSpace(*in.Name)
	}
	if c.Name == "" || utf8.RuneCountInString(c.Name) > 80 {
		f["name"] = "Name the channel (1 to 80 characters)"
	}
	if in.Kind != nil && !creating && *in.Kind != c.Kind {
		f["kind"] = "A channel's kind cannot change: add a new channel"
	}
	plain, seal := "", ""
	switch c.Kind {
	case domain.NotifyWebhook:
		if in.URL != nil {
			c.URL = strings.TrimSpace(*in.URL)
		}
		if creating && in.URL == nil {
			f["url"] = "Enter the receiver's URL"
		} else if msg := CheckTarget(c.URL, s.opt.Servers().AllowLoopback); msg != "" || len(c.URL) > 2000 {
			f["url"] = msg
			if msg == "" {
				f["url"] = "The URL is longer than 2000 characters"
			}
		}
		if in.Secret != nil && *in.Secret != "" {
			if !ValidSecret(*in.Secret) {
				f["secret"] = "A webhook secret is whsec_ followed by 24 to 64 random bytes in base64 (leave it empty for a new one)"
			}
			plain = *in.Secret
		} else if creating {
			plain = NewSecret()
		}
		seal = plain
	case domain.NotifyTelegram:
		if in.Address != nil {
			c.Address = strings.TrimSpace(*in.Address)
		}
		if !ValidChatID(c.Address) {
			f["address"] = "Enter the chat id (a number, negative for groups) or @channelname"
		}
		if in.BotToken != nil && *in.BotToken != "" {
			seal = strings.TrimSpace(*in.BotToken)
			if !ValidBotToken(seal) {
				f["bot_token"] = "A bot token is the bot's id, a colon and its secret, as BotFather gives it (123456:ABC…)"
			}
		} else if creating {
			f["bot_token"] = "Enter the bot token BotFather gave you"
		}
	case domain.NotifyEmail:
		if in.Address != nil {
			c.Address = strings.TrimSpace(*in.Address)
		}
		if !ValidEmail(c.Address) {
			f["address"] = "Enter one email address, e.g. me@example.com"
		}
	case domain.NotifyPush:
		if in.Subscription != nil {
			for k, v := range checkSubscription(*in.Subscription, s.opt.Servers().AllowLoopback) {
				f[k] = v
			}
			c.URL = in.Subscription.Endpoint
			keys, _ := json.Marshal(in.Subscription.Keys)
			seal = string(keys)
		} else if creating {
			f["subscription"] = "Subscribe in the browser first: the channel needs its push subscription"
		}
	default:
		f["kind"] = "Use webhook, telegram, email or push"
	}
	if in.Enabled != nil {
		c.Enabled = *in.Enabled
	}
	if len(f) > 0 {
		return "", invalid(f)
	}
	if seal != "" {
		sealed, err := s.sealer.Seal(SecretField, seal)
		if err != nil {
			return "", err
		}
		c.Secret = sealed
	}
	return plain, nil
}

// CreateChannel adds a channel for owner; for a webhook the answer carries
// the signing secret (generated unless given), the only time it is shown.
func (s *Service) CreateChannel(ctx context.Context, owner string, in ChannelInput) (CreatedChannel, error) {
	c := domain.NotifyChannel{ID: NewID("ch_"), Owner: owner, Kind: domain.NotifyWebhook, Enabled: true, CreatedAt: s.clock.Now()}
	if in.Kind != nil && *in.Kind != "" {
		c.Kind = *in.Kind
	}
	plain, err := s.apply(&c, in, true)
	if err != nil {
		return CreatedChannel{}, err
	}
	if c.Kind == domain.NotifyPush {
		if same, found, err := s.sameEndpoint(ctx, owner, c.URL); err != nil {
			return CreatedChannel{}, err
		} else if found {
			// The browser subscribed again (e.g. after its channel was
			// disabled): the one channel takes the new keys and is on again.
			same.Name, same.Secret, same.Enabled = c.Name, c.Secret, true
			return CreatedChannel{NotifyChannel: same}, s.store.UpdateNotifyChannel(ctx, same)
		}
	}
	if err := s.store.CreateNotifyChannel(ctx, c); err != nil {
		return CreatedChannel{}, err
	}
	return CreatedChannel{NotifyChannel: c, Secret: plain}, nil
}

// sameEndpoint finds owner's push channel to endpoint.
func (s *Service) sameEndpoint(ctx context.Context, owner, endpoint string) (domain.NotifyChannel, bool, error) {
	chans, err := s.store.NotifyChannels(ctx, owner)
	for _, c := range chans {
		if c.Kind == domain.NotifyPush && c.URL == endpoint {
			return c, true, nil
		}
	}
	return domain.NotifyChannel{}, false, err
}

// Channel returns a channel owner may use (not_found otherwise, so ids of
// other users' channels are not revealed).
func (s *Service) Channel(ctx context.Context, owner, id string) (domain.NotifyChannel, error) {
	c, err := s.store.NotifyChannel(ctx, id)
	if err == nil && c.Owner != owner {
		return domain.NotifyChannel{}, domain.Errorf(domain.ENotFound, "Notification channel not found")
	}
	return c, err
}

// Channels lists owner's channels.
func (s *Service) Channels(ctx context.Context, owner string) ([]domain.NotifyChannel, error) {
	return s.store.NotifyChannels(ctx, owner)
}

// UpdateChannel changes owner's channel; a new secret (when given) is
// returned once, like at creation.
func (s *Service) UpdateChannel(ctx context.Context, owner, id string, in ChannelInput) (CreatedChannel, error) {
	c, err := s.Channel(ctx, owner, id)
	if err != nil {
		return CreatedChannel{}, err
	}
	plain, err := s.apply(&c, in, false)
	if err != nil {
		return CreatedChannel{}, err
	}
	if err := s.store.UpdateNotifyChannel(ctx, c); err != nil {
		return CreatedChannel{}, err
	}
	return CreatedChannel{NotifyChannel: c, Secret: plain}, nil
}

// DeleteChannel removes owner's channel; its undelivered messages fail
// with "channel deleted" and it leaves the routing.
func (s *Service) DeleteChannel(ctx context.Context, owner, id string) error {
	if _, err := s.Channel(ctx, owner, id); err != nil {
		return err
	}
	if err := s.store.DeleteNotifyChannel(ctx, id, s.clock.Now()); err != nil {
		return err
	}
	r, found, err := s.store.NotifyRouting(ctx, owner)
	if err != nil || !found {
		return err
	}
	for t, ids := range r.Routes {
		kept := ids[:0]
		for _, c := range ids {
			if c != id {
				kept = append(kept, c)
			}
		}
		r.Routes[t] = kept
	}
	return s.store.PutNotifyRouting(ctx, r)
}

// DefaultRouting is a user's routing before they save one: nothing routed.
func DefaultRouting(owner string) domain.NotifyRouting {
	return domain.NotifyRouting{Owner: owner, Routes: map[string][]string{}, MinSeverity: domain.SeverityLow, Aggregate: true, AggregateSeconds: 5}
}

// Routing returns owner's routing (the default when none is saved).
func (s *Service) Routing(ctx context.Context, owner string) (domain.NotifyRouting, error) {
	r, found, err := s.store.NotifyRouting(ctx, owner)
	if err != nil || !found {
		return DefaultRouting(owner), err
	}
	if r.Routes == nil {
		r.Routes = map[string][]string{}
	}
	return r, nil
}

// SetRouting checks and stores owner's routing: known types, the user's
// own channels, a known severity, an aggregation window of 1 to 3600 s.
func (s *Service) SetRouting(ctx context.Context, owner string, r domain.NotifyRouting) (domain.NotifyRouting, error) {
	chans, err := s.store.NotifyChannels(ctx, owner)
	if err != nil {
		return r, err
	}
	mine := map[string]bool{}
	for _, c := range chans {
		mine[c.ID] = true
	}
	f := map[string]string{}
	clean := map[string][]string{}
	for t, ids := range r.Routes {
		if !KnownType(t) {
			f["routes."+t] = "Unknown event type"
			continue
		}
		seen := map[string]bool{}
		for _, id := range ids {
			if !mine[id] {
				f["routes."+t] = "Unknown channel " + id
			} else if !seen[id] {
				seen[id] = true
				clean[t] = append(clean[t], id)
			}
		}
	}
	if r.MinSeverity == "" {
		r.MinSeverity = domain.SeverityLow
	}
	if !ValidSeverity(r.MinSeverity) {
		f["min_severity"] = "Use low, medium, high or critical"
	}
	if r.Aggregate && (r.AggregateSeconds < 1 || r.AggregateSeconds > 3600) {
		f["aggregate_seconds"] = "Use 1 to 3600 seconds"
	}
	for k, v := range validQuietHours(r) {
		f[k] = v
	}
	if len(f) > 0 {
		return r, invalid(f)
	}
	r.Owner, r.Routes = owner, clean
	if err := s.store.PutNotifyRouting(ctx, r); err != nil {
		return r, err
	}
	if s.listening.Load() != nil {
		_ = s.LoadListening(ctx) // at once on this instance; RunRouting re-reads it each Poll everywhere
	}
	return r, nil
}

// Deliveries is the delivery log: owner's ("" for everyone's), newest first.
func (s *Service) Deliveries(ctx context.Context, owner, status string, limit int) ([]domain.NotifyDelivery, error) {
	return s.store.NotifyDeliveries(ctx, owner, status, limit)
}
