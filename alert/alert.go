// Package alert raises, lists and resolves system alerts. Alerts come from real
// conditions (emergency stop, a strategy's risk refusals, exchange rejections, stale market
// data, database and backup failures); repeats of an open alert are merged.
package alert

import (
	"context"
	"log/slog"

	"kestrel/domain"
	"kestrel/events"
)

// Service raises alerts into a store and onto the event bus.
type Service struct {
	store    domain.AlertStore
	bus      *events.Bus
	clock    domain.Clock
	resolved []ResolveFunc
	notify   func(domain.Alert) (domain.NotifyEvent, bool)
}

// OnRaise makes each raised alert's notification event with fn and commits
// it in the alert's own transaction, so a crash right after an alert (an
// emergency stop, say) is stored loses no notification. Register before
// serving.
func (s *Service) OnRaise(fn func(domain.Alert) (domain.NotifyEvent, bool)) {
	s.notify = fn
}

// Resolver is who resolves an alert. What a resolution may set off (for
// example re-enabling the strategy the alert paused) is the resolver's to
// do only if their role allows it: Operator is true for operators and for
// Kestrel itself.
type Resolver struct {
	Name     string
	Operator bool
}

// ResolveFunc runs after an alert is resolved and says what it did, or ""
// when it did nothing.
type ResolveFunc func(context.Context, domain.Alert, Resolver) string

// OnResolve registers fn to run after an alert is resolved (for example, to
// resume what the alert paused). Register before serving.
func (s *Service) OnResolve(fn ResolveFunc) {
	s.resolved = append(s.resolved, fn)
}

// New returns an alert service.
func New(store domain.AlertStore, bus *events.Bus, clock domain.Clock) *Service {
	return &Service{store: store, bus: bus, clock: clock}
}

// Raise records an alert under key (repeats of an unresolved key are merged)
// and pushes it to realtime subscribers. Failures are logged, never returned:
// raising an alert must not break the operation that noticed the problem.
func (s *Service) Raise(ctx context.Context, key, severity, component, title, message string) {
	now := s.clock.Now()
	var journaled bool
	var notify func(domain.Alert) (domain.NotifyEvent, bool)
	if s.notify != nil {
		notify = func(a domain.Alert) (domain.NotifyEvent, bool) {
			n, ok := s.notify(a)
			journaled = ok // the last try's word: the transaction may be retried
			return n, ok
		}
	}
	a, _, err := s.store.UpsertAlert(context.WithoutCancel(ctx), domain.Alert{
		Key: key, Severity: severity, Title: title, Message: message, Component: component, CreatedAt: now, LastSeen: now,
	}, notify)
	a.Journaled = journaled
	if err != nil {
		slog.Error("raise alert", "key", key, "title", title, "err", err)
		return
	}
	slog.Log(ctx, level(severity), "alert: "+title, "severity", severity, "component", component, "message", message, "count", a.Count)
	if s.bus != nil {
		s.bus.Publish(events.TopicAlert, a, now)
	}
}

// List returns alerts newest first.
func (s *Service) List(ctx context.Context, f domain.AlertFilter) ([]domain.Alert, error) {
	return s.store.ListAlerts(ctx, f)
}

// Resolve marks an alert resolved and pushes the change; it returns what
// the resolution set off (the OnResolve functions' accounts).
func (s *Service) Resolve(ctx context.Context, id int64, by Resolver) (domain.Alert, []string, error) {
	a, err := s.store.ResolveAlert(ctx, id, by.Name, s.clock.Now())
	if err != nil {
		return a, nil, err
	}
	if s.bus != nil {
		s.bus.Publish(events.TopicAlert, a, s.clock.Now())
	}
	var did []string
	for _, fn := range s.resolved {
		if d := fn(ctx, a, by); d != "" {
			did = append(did, d)
		}
	}
	return a, did, nil
}

// Dismiss puts alert id out of sight for userID alone until it happens
// again. It is not resolving: nothing is set off, nothing is pushed to
// others. not_found when the alert does not exist.
func (s *Service) Dismiss(ctx context.Context, id int64, userID string) (domain.Alert, error) {
	return s.store.DismissAlert(ctx, id, userID, s.clock.Now())
}

// ResolveKey resolves the open alert raised under key, if there is one
// (for example the stale-market alert once prices return), as Kestrel
// itself.
func (s *Service) ResolveKey(ctx context.Context, key, by string) bool {
	open := false
	list, err := s.store.ListAlerts(ctx, domain.AlertFilter{Resolved: &open, Limit: 1000})
	if err != nil {
		slog.Error("list alerts to resolve", "key", key, "err", err)
		return false
	}
	done := false
	for _, a := range list {
		if a.Key == key {
			if _, _, err := s.Resolve(ctx, a.ID, Resolver{Name: by, Operator: true}); err != nil {
				slog.Error("resolve alert", "key", key, "err", err)
				continue
			}
			done = true
		}
	}
	return done
}

func level(severity string) slog.Level {
	switch severity {
	case domain.SeverityCritical, domain.SeverityHigh:
		return slog.LevelError
	case domain.SeverityMedium:
		return slog.LevelWarn
	}
	return slog.LevelInfo
}
