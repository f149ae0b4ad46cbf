// Package notify turns what happens in Kestrel into notifications a trader
// can rely on: an event catalogue, a durable outbox (the store's
// notify_outbox table) and channel workers that deliver from it (signed
// webhooks), with a delivery log per message.
package notify

import (
	"encoding/json"
	"time"

	"kestrel/domain"
)

// Event types: stable names clients and receivers can rely on.
const (
	OrderFilled          = "order.filled"
	OrderPartiallyFilled = "order.partially_filled"
	OrderRejected        = "order.rejected"
	ProtectiveTriggered  = "protective.triggered"
	EmergencyStop        = "trading.emergency_stop"
	TradingResumed       = "trading.resumed"
	RiskLimitReached     = "risk.limit_reached"
	StrategyError        = "strategy.error"
	MarketStale          = "market.stale"
	ExchangeDisconnected = "exchange.disconnected"
	BacktestFinished     = "backtest.finished" // a backtest or a sweep (JobData.Kind)
	SystemAlert          = "system.alert"
	// TokenCreated tells a user an API token was made for their account
	// (by them or an operator); no notification switch silences it.
	TokenCreated = "security.token_created"
	// Test is what "Send test" sends; it is never routed.
	Test = "notification.test"
)

// Types lists the catalogue in the order the API and the UI show it.
var Types = []string{OrderFilled, OrderPartiallyFilled, OrderRejected, ProtectiveTriggered, EmergencyStop, TradingResumed,
	RiskLimitReached, StrategyError, MarketStale, ExchangeDisconnected, BacktestFinished, SystemAlert, DailyDigest, TokenCreated}

// KnownType reports whether t is in the catalogue.
func KnownType(t string) bool {
	for _, k := range Types {
		if k == t {
			return true
		}
	}
	return false
}

// severityRank orders severities for the routing's minimum.
var severityRank = map[string]int{domain.SeverityLow: 1, domain.SeverityMedium: 2, domain.SeverityHigh: 3, domain.SeverityCritical: 4}

// ValidSeverity reports whether s is a known severity.
func ValidSeverity(s string) bool { return severityRank[s] > 0 }

// Event is one thing that happened, before routing. Owner is the user it
// concerns; "" concerns everyone (system events go to every user who
// routes that type).
type Event struct {
	Type     string
	Severity string
	Owner    string
	OrderID  string
	Data     any
	Time     time.Time
}

// Message is the JSON body a receiver gets. Count > 1 is an aggregated
// burst: Data and OrderID are the first event's, Count how many there were.
type Message struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	Timestamp time.Time       `json:"timestamp"`
	OrderID   string          `json:"order_id,omitempty"`
	Severity  string          `json:"severity"`
	Count     int             `json:"count"`
	Data      json.RawMessage `json:"data"`
}

// OrderData is the payload of the order events.
type OrderData struct {
	Order domain.Order `json:"order"`
	Fill  *domain.Fill `json:"fill,omitempty"`
}

// AlertData is the payload of the events that come from system alerts.
type AlertData struct {
	Title     string `json:"title"`
	Message   string `json:"message"`
	Component string `json:"component"`
	AlertID   int64  `json:"alert_id"`
}

// JobData is the payload of backtest.finished.
type JobData struct {
	JobID     string `json:"job_id"`
	Kind      string `json:"kind"`
	Status    string `json:"status"`
	ResultRef string `json:"result_ref,omitempty"`
	Error     string `json:"error,omitempty"`
}

// messageOf is the body of an outbox row.
func messageOf(d domain.NotifyDelivery) Message {
	return Message{ID: d.ID, Type: d.Type, Timestamp: d.CreatedAt, OrderID: d.OrderID, Severity: d.Severity, Count: max(d.Count, 1), Data: d.Payload}
}
