package notify

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"kestrel/backtest"
	"kestrel/domain"
	"kestrel/events"
	"kestrel/research"
)

// FromTradeUpdate is the event a trade update stands for (ok false: none).
func FromTradeUpdate(u domain.TradeUpdate) (Event, bool) {
	e := Event{Owner: u.Order.UserID, OrderID: u.Order.ID, Data: OrderData{Order: u.Order, Fill: u.Fill}, Time: u.Order.UpdatedAt}
	switch {
	case u.Fill != nil && u.Order.Status == domain.StatusFilled && (u.Order.Type.IsStop() || u.Order.ParentID != ""):
		e.Type, e.Severity = ProtectiveTriggered, domain.SeverityHigh
	case u.Fill != nil && u.Order.Status == domain.StatusFilled:
		e.Type, e.Severity = OrderFilled, domain.SeverityMedium
	case u.Fill != nil:
		e.Type, e.Severity = OrderPartiallyFilled, domain.SeverityLow
	case u.Order.Status == domain.StatusRejected:
		e.Type, e.Severity = OrderRejected, domain.SeverityMedium
	default:
		return e, false
	}
	if u.Fill != nil && !u.Fill.Time.IsZero() {
		e.Time = u.Fill.Time
	}
	return e, true
}

// FromAlert is the event a system alert stands for (ok false: none, or
// one another event already covers). Repeats merged into an open alert
// (Count > 1) and resolutions are not notified again, except the
// emergency stop and resume: each of those is a deliberate act.
func FromAlert(a domain.Alert) (Event, bool) {
	e := Event{Severity: a.Severity, Time: a.LastSeen,
		Data: AlertData{Title: a.Title, Message: a.Message, Component: a.Component, AlertID: a.ID}}
	switch {
	case a.Resolved:
		return e, false
	case a.Key == "trading:Order rejected by the exchange":
		return e, false // order.rejected, from the order's own update, says it to its owner
	case a.Key == "trading:Emergency stop active":
		e.Type = EmergencyStop
	case a.Key == "trading:Trading resumed":
		e.Type = TradingResumed
	case a.Key == "trading:Order refused by risk check":
		e.Type = RiskLimitReached
	case a.Component == "strategy":
		e.Type = StrategyError
	case a.Key == "market:stale":
		e.Type = MarketStale
	case a.Component == "exchange" || strings.HasPrefix(a.Key, "exchange:"):
		e.Type = ExchangeDisconnected
	default:
		e.Type = SystemAlert
	}
	if a.Count > 1 && e.Type != EmergencyStop && e.Type != TradingResumed {
		return e, false
	}
	return e, true
}

// FromRiskRefusal is the risk.limit_reached event of a person's order the
// risk check refused. No alert stands for it (the refusal was answered to
// the person in the form), so its alert_id is 0; a strategy's refusal is an
// alert and comes through FromAlert.
func FromRiskRefusal(title, message string, at time.Time) Event {
	return Event{Type: RiskLimitReached, Severity: domain.SeverityMedium, Time: at,
		Data: AlertData{Title: title, Message: message, Component: "trading"}}
}

// CommittedRefusal is the risk.limit_reached event of a person's refused
// order, ready to be committed with the refusal's audit entry
// (domain.AddAuditEvent).
func CommittedRefusal(title, message string, at time.Time) domain.NotifyEvent {
	n, _ := committed(FromRiskRefusal(title, message, at), true)
	return n
}

// CommittedTokenCreated is the security.token_created event telling owner
// of a new API token (message says which, by whom, from where), ready to be
// committed with the creation's audit entry (domain.AddAuditEvent).
func CommittedTokenCreated(owner, message string, at time.Time) domain.NotifyEvent {
	n, _ := committed(Event{Type: TokenCreated, Severity: domain.SeverityHigh, Owner: owner, Time: at,
		Data: AlertData{Title: "API token created", Message: message, Component: "auth"}}, true)
	return n
}

// FromJob is the event a job's change stands for: a finished backtest.
func FromJob(j domain.Job) (Event, bool) {
	if j.Kind != backtest.JobKind && j.Kind != research.SweepJobKind || !domain.JobDone(j.Status) {
		return Event{}, false
	}
	sev := domain.SeverityLow
	if j.Status == domain.JobFailed {
		sev = domain.SeverityMedium
	}
	at := j.CreatedAt
	if j.FinishedAt != nil {
		at = *j.FinishedAt
	}
	return Event{Type: BacktestFinished, Severity: sev, Owner: j.Owner, Time: at,
		Data: JobData{JobID: j.ID, Kind: j.Kind, Status: j.Status, ResultRef: j.ResultRef, Error: j.Error}}, true
}

// Listen writes the bus's trade updates, alerts and job changes to the
// outbox until ctx ends; a trade update whose event was committed with it
// (Journaled: the sandbox's) only wakes RunRouting, which routes it from the store. It only enqueues: delivery is Run's, so a slow
// receiver never holds up trading. Run it on one instance (the leader).
func (s *Service) Listen(ctx context.Context, bus *events.Bus) {
	trades := bus.Subscribe(ctx, events.TopicTradeUpdate, 4096)
	alerts := bus.Subscribe(ctx, events.TopicAlert, 256)
	jobs := bus.Subscribe(ctx, events.TopicJob, 256)
	for {
		var e Event
		var ok bool
		select {
		case <-ctx.Done():
			return
		case ev := <-trades:
			if u, isU := ev.Data.(domain.TradeUpdate); isU && u.Journaled {
				s.WakeRouting() // committed with the fill: RunRouting routes it from the store
			} else if isU {
				e, ok = FromTradeUpdate(u)
			}
		case ev := <-alerts:
			if a, isA := ev.Data.(domain.Alert); isA && a.Journaled {
				s.WakeRouting() // committed with the alert: RunRouting routes it from the store
			} else if isA {
				e, ok = FromAlert(a)
			}
		case ev := <-jobs:
			if j, isJ := ev.Data.(domain.Job); isJ && j.Journaled {
				s.WakeRouting() // committed with the job's end: RunRouting routes it from the store
			} else if isJ {
				e, ok = FromJob(j)
			}
		}
		if !ok {
			continue
		}
		if _, err := s.Enqueue(context.WithoutCancel(ctx), e); err != nil {
			slog.Error("notification not queued", "type", e.Type, "order", e.OrderID, "err", err, "component", "notify")
		}
	}
}

// WakeRouting tells RunRouting that events were committed with their cause
// (here, or by the API with an audit entry).
func (s *Service) WakeRouting() {
	select {
	case s.routeWake <- struct{}{}:
	default:
	}
}
