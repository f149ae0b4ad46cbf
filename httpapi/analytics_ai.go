package httpapi

import (
	"net/http"
	"strings"
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

type aiView struct {
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

// analyticsAI is the AI tab: the decisions of every AI-driven and hybrid
// strategy made in the period, resolved against the strategies' fills.
func (s *Server) analyticsAI(w http.ResponseWriter, r *http.Request) {
	period := strings.TrimSpace(r.URL.Query().Get("period"))
	if period == "" {
		period = "30d"
	}
	since, err := analytics.Since(period, s.d.Clock.Now())
	if err != nil {
		fail(w, r, err)
		return
	}
	evs, err := s.aiEvaluations(r, domain.EvaluationFilter{Since: since, Limit: 100000}, "")
	if err != nil {
		fail(w, r, err)
		return
	}
	fills, err := s.d.Trading.StrategyFills(r.Context())
	if err != nil {
		fail(w, r, err)
		return
	}
	outs := analytics.DecisionOutcomes(evs, fills)
	decs := make([]analytics.AIDecision, len(evs))
	for i, e := range evs {
		decs[i] = analytics.AIDecision{Evaluation: e, Outcome: outs[e.ID]}
	}
	v := aiView{Period: period, Metrics: analytics.SummariseAI(decs), Decisions: []aiRecentDecision{}, Strategies: []analytics.AIStrategyRow{},
		ConfidenceDistribution: analytics.ConfidenceDistribution(decs), DecisionBreakdown: analytics.DecisionBreakdown(decs),
		Performance: analytics.AIDaily(decs)}
	if !since.IsZero() {
		v.Since = &since
	}
	if v.Coverage, err = s.recordCoverage(r.Context(), since, s.d.Clock.Now()); err != nil {
		fail(w, r, err)
		return
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
	for _, sym := range s.d.Market.Symbols() {
		if t, err := s.d.Market.Ticker(sym); err == nil {
			prices[sym] = t.Price
		}
	}
	ai := map[string]bool{}
	for _, c := range s.d.Strategies.List() {
		if c.Type == domain.StrategyAI || c.Type == domain.StrategyHybrid {
			ai[c.Name] = true
			v.Strategies = append(v.Strategies, analytics.AIStrategy(c.Name, c.Enabled, fills, prices, decs))
		}
	}
	v.Metrics.WinRate = analytics.AIWinRate(fills, ai, since)
	ok(w, v)
}
