package views

import (
	"context"
	"math"

	"kestrel/analytics"
	"kestrel/domain"
)

// Decision is an evaluation with its outcome: pending until the position
// it opened is closed, then profit or loss with the P&L attributed to it.
type Decision struct {
	domain.Evaluation
	analytics.Outcome
}

// WithOutcomes resolves evaluations against the strategies' fills.
func (vw *Views) WithOutcomes(ctx context.Context, evs []domain.Evaluation) ([]Decision, error) {
	fills, err := vw.Account.StrategyFills(ctx)
	if err != nil {
		return nil, err
	}
	outs := analytics.DecisionOutcomes(evs, fills)
	res := make([]Decision, 0, len(evs))
	for _, e := range evs {
		res = append(res, Decision{Evaluation: e, Outcome: outs[e.ID]})
	}
	return res, nil
}

// StrategyPerformance is each named strategy's performance from its fills,
// open positions valued at the market's prices now.
func (vw *Views) StrategyPerformance(ctx context.Context, names []string) ([]analytics.StrategyPerformance, error) {
	fills, err := vw.Account.StrategyFills(ctx)
	if err != nil {
		return nil, err
	}
	prices := analytics.Prices{}
	for _, sym := range vw.Prices.Symbols() {
		if t, err := vw.Prices.Ticker(sym); err == nil {
			prices[sym] = t.Price
		}
	}
	out := []analytics.StrategyPerformance{}
	for _, n := range names {
		out = append(out, analytics.StrategyOf(n, fills, prices))
	}
	return out, nil
}

// Signals is a strategy's average signal confidence (four places) and the
// time of its newest signal (evs newest first; nil when none).
func Signals(evs []domain.Evaluation) (avgConfidence float64, last *string) {
	total := 0.0
	for _, e := range evs {
		total += e.Confidence
	}
	if len(evs) > 0 {
		avgConfidence = round4(total / float64(len(evs)))
		t := evs[0].Time.UTC().Format("2006-01-02T15:04:05Z")
		last = &t
	}
	return avgConfidence, last
}

// AIPerformance is the spec's AI performance over recorded decisions.
type AIPerformance struct {
	TotalDecisions       int            `json:"total_decisions"`
	ExecutedDecisions    int            `json:"executed_decisions"`
	ExecutionRate        float64        `json:"execution_rate"`
	AvgConfidence        float64        `json:"avg_confidence"`
	DecisionDistribution map[string]int `json:"decision_distribution"`
	FailedDecisions      int            `json:"failed_decisions"`
}

// AIPerformanceOf counts the decisions (failed ones apart) and their rates.
func AIPerformanceOf(evs []domain.Evaluation) AIPerformance {
	p := AIPerformance{DecisionDistribution: map[string]int{}}
	total := 0.0
	for _, e := range evs {
		if e.Error != "" {
			p.FailedDecisions++
			continue
		}
		p.TotalDecisions++
		total += e.Confidence
		p.DecisionDistribution[e.Decision]++
		if e.Executed {
			p.ExecutedDecisions++
		}
	}
	if p.TotalDecisions > 0 {
		p.ExecutionRate = round4(float64(p.ExecutedDecisions) / float64(p.TotalDecisions))
		p.AvgConfidence = round4(total / float64(p.TotalDecisions))
	}
	return p
}

func round4(x float64) float64 { return math.Round(x*10000) / 10000 }
