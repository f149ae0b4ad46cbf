package domain

import (
	"context"
	"encoding/json"
	"time"

	"github.com/shopspring/decimal"
)

// Strategy kinds (the spec's Strategy.type).
const (
	StrategyTechnical = "technical"
	StrategyAI        = "ai_driven"
	StrategyHybrid    = "hybrid"
)

// StrategyRecord is one strategy instance as stored: its kind, whether it
// runs, and its configuration (a JSON document the strategy package owns).
type StrategyRecord struct {
	Name      string          `json:"name"`
	Type      string          `json:"type"`
	Enabled   bool            `json:"enabled"`
	Config    json.RawMessage `json:"config"`
	CreatedAt time.Time       `json:"created_at"`
	UpdatedAt time.Time       `json:"updated_at"`

	// ActiveVersion is the number of the version Config is (0: none yet).
	ActiveVersion int `json:"active_version"`
}

// StrategyVersion is one saved configuration of a strategy instance:
// numbered from 1 per instance, never changed once stored.
type StrategyVersion struct {
	Strategy  string          `json:"strategy"`
	Version   int             `json:"version"`
	Params    json.RawMessage `json:"params"`           // the configuration's JSON
	Parent    int             `json:"parent,omitempty"` // the version it was derived from (0: none)
	Note      string          `json:"note"`
	CreatedBy string          `json:"created_by"` // the user's email ("" when the platform saved it)
	CreatedAt time.Time       `json:"created_at"`
}

// Evaluation is one decision of a strategy on one closed candle, stored
// whether it traded or not (HOLD too), with what it saw and why it did or
// did not trade.
type Evaluation struct {
	ID         string             `json:"id"`
	Time       time.Time          `json:"timestamp"`
	Strategy   string             `json:"strategy_name"`
	Symbol     string             `json:"symbol"`
	CandleTime time.Time          `json:"candle_time"` // open time of the closed candle evaluated
	Decision   string             `json:"decision"`    // BUY, SELL or HOLD
	Confidence float64            `json:"confidence"`  // 0-1
	Reasoning  string             `json:"reasoning"`
	Indicators map[string]float64 `json:"indicators"`
	Executed   bool               `json:"executed"`
	// StrategyVersion is the configuration version the strategy ran (0:
	// evaluated before versions existed).
	StrategyVersion int `json:"strategy_version"`
	// Account is the paper account of a promoted version that made it (""
	// the main instance).
	Account string `json:"account,omitempty"`
	// Reason says why a signal was not executed (automation off, disabled,
	// halted, below confidence, refused by risk: ...), or is empty.
	Reason  string `json:"reason,omitempty"`
	OrderID string `json:"order_id,omitempty"`
	// AI provenance (empty for technical strategies).
	Provider   string `json:"provider,omitempty"`
	Model      string `json:"model,omitempty"`
	LatencyMS  int64  `json:"latency_ms,omitempty"`
	PromptHash string `json:"prompt_hash,omitempty"`
	// TemplateVersion is the prompt template the decision rendered: v1, v2
	// or custom:<hash> of the strategy version's own template.
	TemplateVersion string `json:"template_version,omitempty"`
	Prompt          string `json:"prompt,omitempty"`
	Raw             string `json:"raw,omitempty"`
	Error           string `json:"error,omitempty"` // a failed decision (provider error, bad answer)
	// What the model call used: tokens from the provider's usage report
	// (0 for the built-in analyst, and when a provider reports none) and
	// their cost in USD from api.ai.pricing at the time; Cost is nil when
	// the model had no price (unknown, never 0).
	InputTokens  int              `json:"input_tokens,omitempty"`
	OutputTokens int              `json:"output_tokens,omitempty"`
	Cost         *decimal.Decimal `json:"cost,omitempty"`
}

// AIUsage is one AI decision's usage, as the spend view and the budget
// read it.
type AIUsage struct {
	Time                      time.Time
	Strategy, Provider, Model string
	InputTokens, OutputTokens int
	Cost                      *decimal.Decimal // nil: the model had no price
	// Shadow: a shadow model's decision (never traded), counted toward
	// its provider's spend and budget like any other.
	Shadow bool
}

// EvaluationFilter narrows a listing; zero values mean "any". Newest first.
type EvaluationFilter struct {
	// Account is the paper account whose evaluations to list ("" the main
	// instance's; a promoted version's are in its own account).
	Account  string
	Strategy string
	Symbol   string
	Executed *bool
	Since    time.Time
	Limit    int
}

// StrategyStore persists strategy instances and their evaluations.
type StrategyStore interface {
	// SaveStrategy inserts or replaces a strategy by name; replacing keeps
	// the stored CreatedAt. An empty Config is stored as {}.
	SaveStrategy(ctx context.Context, s StrategyRecord) error
	// Strategies lists every strategy, by name.
	Strategies(ctx context.Context) ([]StrategyRecord, error)
	// AppendEvaluation stores one evaluation; its ID must be new. A nil
	// Indicators map reads back nil, an empty one empty.
	AppendEvaluation(ctx context.Context, e Evaluation) error
	// Evaluations lists evaluations newest first (ties by ID, descending);
	// a Limit of zero or less means 100.
	Evaluations(ctx context.Context, f EvaluationFilter) ([]Evaluation, error)
	// PruneEvaluations deletes evaluations older than before.
	PruneEvaluations(ctx context.Context, before time.Time) (int64, error)
	// AIUsage lists the usage of AI decisions (provider set) made in
	// [since, until), oldest first: evaluations, then shadow models'
	// decisions (Shadow set; the live model's copies are not counted twice).
	AIUsage(ctx context.Context, since, until time.Time) ([]AIUsage, error)
	// SaveShadowDecisions stores the model decisions of one evaluation
	// (already stored: a decision names it by EvaluationID, and goes when
	// it is pruned); each ID must be new.
	SaveShadowDecisions(ctx context.Context, ds []ShadowDecision) error
	// ShadowDecisions lists recorded model decisions, newest candle first
	// (then newest asked, by evaluation, the live model's first, by ID).
	ShadowDecisions(ctx context.Context, f ShadowFilter) ([]ShadowDecision, error)
	// RecordedDecision returns the newest usable AI answer (a decision and
	// no error) to the prompt with this hash: the model's own answer, from
	// an AI-driven strategy's evaluations (a stored strategy of type
	// ai_driven: a hybrid's evaluation holds the combined decision, not the
	// model's) or from the AI recordings, whichever is newer, as an
	// Evaluation (a recording fills Time, Decision, Confidence, Reasoning,
	// Provider, Model, Prompt, PromptHash and Raw; Strategy is its Source).
	// ok is false when there is none.
	RecordedDecision(ctx context.Context, promptHash string) (e Evaluation, ok bool, err error)
	// SaveAIRecordings stores model answers given outside an evaluation.
	SaveAIRecordings(ctx context.Context, rs []AIRecording) error
	// AddStrategyVersion stores v as the instance's next version (its
	// Version is ignored) and returns it numbered: saves at once, from any
	// process, get distinct numbers. A version is never changed afterwards.
	AddStrategyVersion(ctx context.Context, v StrategyVersion) (StrategyVersion, error)
	// StrategyVersions lists an instance's versions, newest first (empty,
	// non-nil when it has none).
	StrategyVersions(ctx context.Context, strategy string) ([]StrategyVersion, error)
	// StrategyVersion returns one version, or not_found.
	StrategyVersion(ctx context.Context, strategy string, version int) (StrategyVersion, error)
}

// AIRecording is a model's own usable answer (a live-model backtest's, or
// the model's half of a live evaluation: a hybrid's evaluation stores the
// combined decision), kept so that a backtest replaying recorded decisions
// can give the same answer to the same prompt.
type AIRecording struct {
	PromptHash string
	At         time.Time
	Source     string // backtest:<id> or evaluation:<id>
	Provider   string
	Model      string
	Decision   string
	Confidence float64
	Reasoning  string
	Prompt     string
	Raw        string
}

// SymbolName lets the realtime hub route an evaluation by symbol.
func (e Evaluation) SymbolName() string { return e.Symbol }

// BacktestRecord is one stored backtest run: what was asked and the report,
// both as JSON documents the backtest package owns. A record is immutable.
type BacktestRecord struct {
	ID        string          `json:"id"`
	CreatedAt time.Time       `json:"created_at"`
	Strategy  string          `json:"strategy_name"`
	Symbol    string          `json:"symbol"`
	Status    string          `json:"status"`
	Request   json.RawMessage `json:"request"`
	Result    json.RawMessage `json:"result,omitempty"` // left out of listings
	// TotalReturn is the report's total return (a fraction), listed with the
	// run; nil for a report without one.
	TotalReturn *float64 `json:"total_return,omitempty"`
	// Owner is the user id that ran it ("" for runs stored before owners
	// were kept); Source is how (BacktestFromJob or BacktestFromRequest).
	Owner  string `json:"owner,omitempty"`
	Source string `json:"source,omitempty"`
	// Keep, when above 0, bounds Owner's reports of this Source: saving
	// deletes the oldest beyond Keep in the same transaction.
	Keep int `json:"-"`
}

// BacktestStore keeps backtest runs.
type BacktestStore interface {
	// SaveBacktest inserts a run; an existing id is a conflict.
	SaveBacktest(ctx context.Context, b BacktestRecord) error
	// Backtests lists runs newest first, without their results.
	Backtests(ctx context.Context, limit int) ([]BacktestRecord, error)
	// Backtest returns one run with its result, or not_found.
	Backtest(ctx context.Context, id string) (BacktestRecord, error)
}
