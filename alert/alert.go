// Package alert raises, lists and resolves system alerts. Alerts come from real
// conditions (emergency stop, risk refusals, exchange rejections, stale market
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
	resolved []func(context.Context, domain.Alert)
}

// OnResolve registers fn to run after an alert is resolved (for example, to
// resume what the alert paused). Register before serving.
func (s *Service) OnResolve(fn func(context.Context, domain.Alert)) {
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
	a, _, err := s.store.UpsertAlert(context.WithoutCancel(ctx), domain.Alert{
		Key: key, Severity: severity, Title: title, Message: message, Component: component, CreatedAt: now, LastSeen: now,
	})
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

// Resolve marks an alert resolved by a user and pushes the change.
func (s *Service) Resolve(ctx context.Context, id int64, by string) (domain.Alert, error) {
	a, err := s.store.ResolveAlert(ctx, id, by, s.clock.Now())
	if err != nil {
		return a, err
	}
	if s.bus != nil {
		s.bus.Publish(events.TopicAlert, a, s.clock.Now())
	}
	for _, fn := range s.resolved {
		fn(ctx, a)
	}
	return a, nil
}

// ResolveKey resolves the open alert raised under key, if there is one
// (for example the stale-market alert once prices return).
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
			if _, err := s.Resolve(ctx, a.ID, by); err != nil {
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
