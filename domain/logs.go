package domain

import (
	"context"
	"time"
)

// LogEntry is one log record kept for /system/logs.
type LogEntry struct {
	ID        int64             `json:"id,omitempty"`
	Time      time.Time         `json:"timestamp"`
	Level     string            `json:"level"` // DEBUG, INFO, WARNING, ERROR, CRITICAL
	Component string            `json:"component"`
	Message   string            `json:"message"`
	Attrs     map[string]string `json:"attrs,omitempty"`
}

// LogFilter narrows a listing: Levels lists the accepted levels (empty: any).
type LogFilter struct {
	Levels    []string
	Component string
	Before    time.Time // only entries strictly older (zero: no bound)
	Limit     int
}

// LogStore keeps warnings and errors across restarts.
type LogStore interface {
	AppendLogs(ctx context.Context, entries []LogEntry) error
	// ListLogs returns entries newest first.
	ListLogs(ctx context.Context, f LogFilter) ([]LogEntry, error)
	PruneLogs(ctx context.Context, before time.Time) (int64, error)
}
