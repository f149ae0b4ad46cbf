package views

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/analytics"
	"kestrel/domain"
)

// aiRecentShown is how many recent decisions the AI tab lists (spec section 9).
const aiRecentShown = 10

type aiRecentDecision struct {
	ID             string           `json:"id"`
	Timestamp      time.Time        `json:"timestamp"`
	StrategyName   string           `json:"strategyName"`
	Symbol         string           `json:"symbol"`
	Recommendation string           `json:"recommendation"`
	Confidence     float64          `json:"confidence"`
	Reasoning      string           `json:"reasoning"`
	Executed       bool             `json:"executed"`
	Outcome        string           `json:"outcome"`
	PnL            *decimal.Decimal `json:"pnl"` // nil while pending
}

// AIView is the AI tab.
type AIView struct {
	Period                 string                       `json:"period"`
	Since                  *time.Time                   `json:"since"`
	Coverage               analytics.Coverage           `json:"coverage"`
	Metrics                analytics.AIMetrics          `json:"metrics"`
	Decisions              []aiRecentDecision           `json:"decisions"`
	Strategies             []analytics.AIStrategyRow    `json:"strategies"`
	ConfidenceDistribution []analytics.ConfidenceBucket `json:"confidenceDistribution"`
	DecisionBreakdown      []analytics.DecisionType     `json:"decisionBreakdown"`
	Performance            []analytics.AIDay            `json:"performance"`
}

// AI is the AI tab: the decisions of every AI-driven and hybrid strategy
// made in period (default 30d), resolved against the strategies' fills.
func (vw *Views) AI(ctx context.Context, period string) (*AIView, error) {
	if period == "" {
		period = "30d"
	}
	since, err := analytics.Since(period, vw.Clock.Now())
	if err != nil {
		return nil, err
	}
	evs, err := vw.AIEvaluations(ctx, since)
	if err != nil {
		return nil, err
	}
	fills, err := vw.Account.StrategyFills(ctx)
	if err != nil {
		return nil, err
	}
	outs := analytics.DecisionOutcomes(evs, fills)
	decs := make([]analytics.AIDecision, len(evs))
	for i, e := range evs {
		decs[i] = analytics.AIDecision{Evaluation: e, Outcome: outs[e.ID]}
	}
	v := AIView{Period: period, Metrics: analytics.SummariseAI(decs), Decisions: []aiRecentDecision{}, Strategies: []analytics.AIStrategyRow{},
		ConfidenceDistribution: analytics.ConfidenceDistribution(decs), DecisionBreakdown: analytics.DecisionBreakdown(decs),
		Performance: analytics.AIDaily(decs)}
	if !since.IsZero() {
		v.Since = &since
	}
	if v.Coverage, err = vw.recordCoverage(ctx, since, vw.Clock.Now()); err != nil {
		return nil, err
	}
	for _, d := range decs { // newest first
		if len(v.Decisions) == aiRecentShown {
			break
		}
		if d.Error != "" {
			continue
		}
		rd := aiRecentDecision{ID: d.ID, Timestamp: d.Time, StrategyName: d.Strategy, Symbol: d.Symbol, Recommendation: d.Decision,
			Confidence: d.Confidence, Reasoning: d.Reasoning, Executed: d.Executed, Outcome: d.Outcome.Outcome}
		if d.Outcome.Outcome != analytics.OutcomePending {
			p := d.Outcome.PnL
			rd.PnL = &p
		}
		v.Decisions = append(v.Decisions, rd)
	}
	prices := analytics.Prices{}
	for _, sym := range vw.Prices.Symbols() {
		if t, err := vw.Prices.Ticker(sym); err == nil {
			prices[sym] = t.Price
		}
	}
	ai := map[string]bool{}
	for _, c := range vw.Strategies() {
		if c.Type == domain.StrategyAI || c.Type == domain.StrategyHybrid {
			ai[c.Name] = true
			v.Strategies = append(v.Strategies, analytics.AIStrategy(c.Name, c.Enabled, fills, prices, decs))
		}
	}
	v.Metrics.WinRate = analytics.AIWinRate(fills, ai, since)
	return &v, nil
}
