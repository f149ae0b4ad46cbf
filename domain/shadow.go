package domain

import (
	"time"

	"github.com/shopspring/decimal"
)

// Roles of a model decision recorded for the shadow leaderboard.
const (
	RoleLive   = "live"   // the strategy's own model: its answer, copied beside the shadows'
	RoleShadow = "shadow" // a shadow model: asked the same prompt, never traded
)

// ShadowDecision is one model's answer to the prompt of one AI evaluation:
// a shadow model's (never traded), or the live model's own answer recorded
// beside them so the leaderboard compares like with like (a hybrid's
// evaluation holds the combined decision, not the model's). Linked to the
// evaluation by EvaluationID (and its strategy, symbol and candle time).
type ShadowDecision struct {
	ID           string    `json:"id"`
	EvaluationID string    `json:"evaluation_id"`
	Time         time.Time `json:"timestamp"` // when the models were asked
	Strategy     string    `json:"strategy_name"`
	Symbol       string    `json:"symbol"`
	CandleTime   time.Time `json:"candle_time"`
	// Price is the close of the decision's candle: the price the
	// leaderboard's paper simulation trades at.
	Price      decimal.Decimal `json:"price"`
	Role       string          `json:"role"` // live | shadow
	Provider   string          `json:"provider"`
	Model      string          `json:"model"`
	Decision   string          `json:"decision"` // BUY, SELL, HOLD; "" when it failed
	Confidence float64         `json:"confidence"`
	Reasoning  string          `json:"reasoning"`
	// Usage and cost as for an evaluation (Cost nil: the model has no price).
	InputTokens  int              `json:"input_tokens"`
	OutputTokens int              `json:"output_tokens"`
	Cost         *decimal.Decimal `json:"cost"`
	LatencyMS    int64            `json:"latency_ms"`
	// Error is why the model gave no decision: a timeout, a provider
	// failure, an unusable answer, or "paused: budget: ...".
	Error string `json:"error,omitempty"`
}

// ShadowFilter narrows a listing of shadow decisions; newest first.
type ShadowFilter struct {
	Strategy string
	Since    time.Time // candle time, inclusive (zero: any)
	Limit    int       // zero or less: 1000
}

// CheckShadowDecision refuses a decision a store cannot link or read back:
// it needs an ID, its evaluation and a role of live or shadow.
func CheckShadowDecision(d ShadowDecision) error {
	if d.ID == "" || d.EvaluationID == "" {
		return Errorf(EInvalid, "A shadow decision needs an id and its evaluation")
	}
	if d.Role != RoleLive && d.Role != RoleShadow {
		return Errorf(EInvalid, "A shadow decision's role is live or shadow, not %q", d.Role)
	}
	return nil
}
