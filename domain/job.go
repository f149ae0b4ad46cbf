package domain

import (
	"context"
	"encoding/json"
	"time"
)

// Job statuses: queued -> running -> completed | failed | cancelled; a
// queued job may be cancelled before it starts.
const (
	JobQueued    = "queued"
	JobRunning   = "running"
	JobCompleted = "completed"
	JobFailed    = "failed"
	JobCancelled = "cancelled"
)

// JobDone reports whether a status is final.
func JobDone(status string) bool {
	return status == JobCompleted || status == JobFailed || status == JobCancelled
}

// Job is one piece of long work (a backtest, later sweeps and backfills)
// the jobs runner carries out outside any request.
type Job struct {
	ID     string          `json:"id"`
	Kind   string          `json:"kind"`
	Owner  string          `json:"owner"` // the user id that asked for it
	Status string          `json:"status"`
	Params json.RawMessage `json:"params"`
	// Progress is the share of the work done, 0 to 1.
	Progress float64 `json:"progress"`
	// ResultRef names what the job produced (a backtest's report id).
	ResultRef string `json:"result_ref,omitempty"`
	// Error says why a job failed or was cancelled.
	Error string `json:"error,omitempty"`
	// CancelRequested is set by a cancel while the job runs; the runner
	// (on the cluster's leader) stops it.
	CancelRequested bool       `json:"cancel_requested,omitempty"`
	CreatedAt       time.Time  `json:"created_at"`
	StartedAt       *time.Time `json:"started_at,omitempty"`
	FinishedAt      *time.Time `json:"finished_at,omitempty"`
	// Journaled says the job's notification event was committed with its
	// final status (JobStore.FinishJob's notify), so it must not be queued
	// again from the bus.
	Journaled bool `json:"-"`
	// MaxActive, when above 0, is the most jobs of Kind its Owner may have
	// queued or running: CreateJob refuses one more with *JobQuotaError,
	// counting and inserting in one transaction.
	MaxActive int `json:"-"`
}

// JobStore keeps jobs durably, so none is lost by a restart.
type JobStore interface {
	// CreateJob inserts a queued job; an existing id is a conflict.
	CreateJob(ctx context.Context, j Job) error
	// Job returns one job or not_found.
	Job(ctx context.Context, id string) (Job, error)
	// Jobs lists jobs newest first; an empty kind or status matches any.
	Jobs(ctx context.Context, kind, status string, limit int) ([]Job, error)
	// ClaimJob moves a queued job to running; false when it was not queued
	// (another worker took it, or it was cancelled).
	ClaimJob(ctx context.Context, id string, at time.Time) (bool, error)
	// SetJobProgress records a running job's progress.
	SetJobProgress(ctx context.Context, id string, progress float64) error
	// FinishJob moves a queued or running job to a final status; false when
	// it had already finished (the first outcome stands). notify, when not
	// nil, is the job's notification event, committed in the same
	// transaction only when the status moved.
	FinishJob(ctx context.Context, id, status, resultRef, reason string, at time.Time, notify *NotifyEvent) (bool, error)
	// CancelJob cancels a queued job at once and marks a running one
	// CancelRequested (the first reason stands); a finished job is left as
	// it is. It returns the job.
	CancelJob(ctx context.Context, id, reason string, at time.Time) (Job, error)
}
