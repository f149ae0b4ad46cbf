package domain

import (
	"context"
	"encoding/json"
	"time"
)

// SweepTrial is one finished trial of a parameter sweep: its place in the
// sweep, the values it tried (by search-space name), the full parameter
// overrides it ran with (the strategy config's shape), the backtest
// metrics under the report's names, the objective's value (nil when the
// metric is undefined for it) and its closed trades.
type SweepTrial struct {
	SweepID   string          `json:"-"`
	Index     int             `json:"index"`
	Values    json.RawMessage `json:"values"`
	Params    json.RawMessage `json:"params"`
	Metrics   json.RawMessage `json:"metrics"`
	Score     *float64        `json:"score"`
	Trades    int             `json:"trades"`
	CreatedAt time.Time       `json:"finished_at"`
}

// SweepStore keeps sweep trials as they finish, so a restart resumes a
// sweep without running them again.
type SweepStore interface {
	// SaveSweepTrial stores a finished trial; storing the same index of a
	// sweep again is a conflict.
	SaveSweepTrial(ctx context.Context, t SweepTrial) error
	// SweepTrials returns a sweep's finished trials by index.
	SweepTrials(ctx context.Context, sweepID string) ([]SweepTrial, error)
}
