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
}

// AlertFilter narrows a listing; nil Resolved means both.
type AlertFilter struct {
	Severity string
	Resolved *bool
	Limit    int
}

// AlertStore persists alerts.
type AlertStore interface {
	// UpsertAlert inserts a, or when an unresolved alert with a.Key exists,
	// updates its message, severity, count and last-seen time. It returns the
	// stored alert and whether it was new.
	UpsertAlert(ctx context.Context, a Alert) (Alert, bool, error)
	// ListAlerts returns alerts newest first.
	ListAlerts(ctx context.Context, f AlertFilter) ([]Alert, error)
	// ResolveAlert marks an alert resolved; not_found when missing.
	ResolveAlert(ctx context.Context, id int64, by string, at time.Time) (Alert, error)
	// PruneAlerts deletes resolved alerts older than before.
	PruneAlerts(ctx context.Context, before time.Time) (int64, error)
}
