package domain

import (
	"context"
	"time"
)

// Alert severities.
const (
	SeverityCritical = "critical"
	SeverityHigh     = "high"
	SeverityMedium   = "medium"
	SeverityLow      = "low"
)

// Alert is a system alert raised by a real condition. Repeats of an unresolved
// alert with the same key update it (Count, LastSeen) instead of adding rows.
type Alert struct {
	ID         int64      `json:"id"`
	Key        string     `json:"key"`
	Severity   string     `json:"severity"`
	Title      string     `json:"title"`
	Message    string     `json:"message"`
	Component  string     `json:"component"`
	Count      int        `json:"count"`
	CreatedAt  time.Time  `json:"created_at"`
	LastSeen   time.Time  `json:"last_seen"`
	Resolved   bool       `json:"resolved"`
	ResolvedAt *time.Time `json:"resolved_at"`
	ResolvedBy string     `json:"resolved_by,omitempty"`
	// Dismissed says the viewer (AlertFilter.Viewer) put this alert out of
	// sight since it last happened. It is theirs alone and is not resolving:
	// the alert stays open for everyone else, and a repeat shows it again.
	Dismissed bool `json:"dismissed"`
	// Journaled says the alert's notification event was committed with
	// it (AlertStore.UpsertAlert's notify), so it must not be queued again
	// from the bus.
	Journaled bool `json:"-"`
}

// AlertFilter narrows a listing; nil Resolved means both. Viewer, a user
// id, fills each alert's Dismissed for that user ("": never dismissed).
type AlertFilter struct {
	Severity string
	Resolved *bool
	Limit    int
	Viewer   string
}

// AlertStore persists alerts.
type AlertStore interface {
	// UpsertAlert inserts a, or when an unresolved alert with a.Key exists,
	// updates its message, severity, count and last-seen time. It returns the
	// stored alert and whether it was new. notify, when not nil, gives the
	// stored alert's notification event, which is committed in the same
	// transaction (none when it says no).
	UpsertAlert(ctx context.Context, a Alert, notify func(Alert) (NotifyEvent, bool)) (Alert, bool, error)
	// ListAlerts returns alerts newest first.
	ListAlerts(ctx context.Context, f AlertFilter) ([]Alert, error)
	// ResolveAlert marks an alert resolved; not_found when missing.
	ResolveAlert(ctx context.Context, id int64, by string, at time.Time) (Alert, error)
	// DismissAlert records that userID put alert id out of sight at at
	// (again: the later time counts) and returns the alert as userID sees
	// it; not_found when the alert does not exist.
	DismissAlert(ctx context.Context, id int64, userID string, at time.Time) (Alert, error)
	// PruneAlerts deletes resolved alerts older than before (and their
	// dismissals).
	PruneAlerts(ctx context.Context, before time.Time) (int64, error)
}
