package domain

import (
	"context"
	"encoding/json"
	"time"

	"github.com/shopspring/decimal"
)

// Promotion stages and statuses (docs/PROMOTION.md).
const (
	StagePaper = "paper"
	StageLive  = "live"

	PromotionRunning  = "running"
	PromotionDemoted  = "demoted"
	PromotionPromoted = "promoted" // moved on to the next stage
)

// Promotion is one stage of a strategy version's promotion: on paper (in
// a paper account of its own) or live. A stage is closed once, as demoted
// or promoted, and otherwise never rewritten.
type Promotion struct {
	ID       string `json:"id"`
	Strategy string `json:"strategy"`
	Version  int    `json:"version"`
	Stage    string `json:"stage"`
	Status   string `json:"status"`
	// Account is the paper account a paper stage trades in ("" for live).
	Account     string          `json:"account"`
	StartingUSD decimal.Decimal `json:"starting_usd"`
	// Gates are the gates checked when the stage began, with the figures seen.
	Gates      []Gate     `json:"gates"`
	StartedBy  string     `json:"started_by"`
	ApprovedBy string     `json:"approved_by,omitempty"`
	StartedAt  time.Time  `json:"started_at"`
	EndedAt    *time.Time `json:"ended_at,omitempty"`
	EndedBy    string     `json:"ended_by,omitempty"`
	Reason     string     `json:"reason,omitempty"`
	// FromStage is the id of the stage this one was promoted from.
	FromStage string `json:"from_stage,omitempty"`
	// Market is the market a paper stage began trading on: replay or
	// coinbase (empty for live).
	Market string `json:"market,omitempty"`
}

// Gate is one promotion gate: the setting that sets it, the figure it
// requires, the figure seen and whether it passed. Seen is nil when the
// figure does not exist (no sweep of the version, say).
type Gate struct {
	Name     string   `json:"name"`
	Setting  string   `json:"setting"`
	Required float64  `json:"required"`
	Seen     *float64 `json:"seen"`
	Passed   bool     `json:"passed"`
	Detail   string   `json:"detail"`
}

// EncodeGates is gates as stored (never null).
func EncodeGates(gs []Gate) string {
	if gs == nil {
		gs = []Gate{}
	}
	b, _ := json.Marshal(gs)
	return string(b)
}

// PromotionStore keeps the promotion stages.
type PromotionStore interface {
	// AddPromotion stores a new stage; a running stage of the same
	// strategy, version and stage yields a conflict error.
	AddPromotion(ctx context.Context, p Promotion) error
	// ClosePromotion ends a running stage with status (demoted or
	// promoted), who and why; not_found when there is none, conflict when
	// it has already ended.
	ClosePromotion(ctx context.Context, id, status, by, reason string, at time.Time) (Promotion, error)
	// Promotion returns one stage, or not_found.
	Promotion(ctx context.Context, id string) (Promotion, error)
	// Promotions lists a strategy's stages ("" every strategy's), newest
	// first; running only when running is set.
	Promotions(ctx context.Context, strategy string, running bool) ([]Promotion, error)
}
