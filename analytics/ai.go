package analytics

import (
	"math"
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// AIDecision is a recorded AI evaluation with its outcome (DecisionOutcomes).
type AIDecision struct {
	domain.Evaluation
	Outcome Outcome
}

func (d AIDecision) failed() bool { return d.Error != "" }

func (d AIDecision) resolved() bool {
	return d.Outcome.Outcome == OutcomeProfit || d.Outcome.Outcome == OutcomeLoss
}

// AIMetrics are the AI view's headline figures. A figure with nothing to
// compute it from is nil, never zero.
type AIMetrics struct {
	// TotalDecisions counts answered decisions (BUY, SELL or HOLD); failed
	// ones (a provider error or an unusable answer) are FailedDecisions.
	TotalDecisions    int `json:"totalDecisions"`
	ExecutedDecisions int `json:"executedDecisions"`
	FailedDecisions   int `json:"failedDecisions"`
	ResolvedDecisions int `json:"resolvedDecisions"`
	// AccuracyRate is resolved decisions with a profit / resolved decisions, percent.
	AccuracyRate *float64 `json:"accuracyRate"`
	// AverageConfidence is the mean confidence of answered decisions, 0-1.
	AverageConfidence *float64 `json:"averageConfidence"`
	// TotalPnL sums the P&L attributed to resolved BUY decisions (their round
	// trips; SELL decisions see the same money from the exit side).
	TotalPnL *decimal.Decimal `json:"totalPnL"`
	// WinRate is the one win rate (WinLossOf) of the AI-driven and hybrid
	// strategies' round trips closed in the period, percent (AIWinRate sets
	// it; nil without a closed trip). How often a decision was right is
	// AccuracyRate.
	WinRate *float64 `json:"winRate"`
	// AverageResponseTime is the mean recorded model latency, seconds.
	AverageResponseTime *float64 `json:"averageResponseTime"`
	// ModelVersion is the model label recorded with the newest decision.
	ModelVersion *string `json:"modelVersion"`
}

// SummariseAI computes the AI metrics of decisions (any order).
func SummariseAI(decs []AIDecision) AIMetrics {
	var m AIMetrics
	var conf, latency float64
	var latencies, right, buys int
	var pnl decimal.Decimal
	var newest *AIDecision
	for i, d := range decs {
		if d.LatencyMS > 0 {
			latency += float64(d.LatencyMS)
			latencies++
		}
		if d.Model != "" && (newest == nil || d.Time.After(newest.Time)) {
			newest = &decs[i]
		}
		if d.failed() {
			m.FailedDecisions++
			continue
		}
		m.TotalDecisions++
		conf += d.Confidence
		if d.Executed {
			m.ExecutedDecisions++
		}
		if !d.resolved() {
			continue
		}
		m.ResolvedDecisions++
		if d.Outcome.Outcome == OutcomeProfit {
			right++
		}
		if d.Decision == "BUY" {
			buys++
			pnl = pnl.Add(d.Outcome.PnL)
		}
	}
	if m.TotalDecisions > 0 {
		m.AverageConfidence = ptr(round(conf/float64(m.TotalDecisions), 4))
	}
	if m.ResolvedDecisions > 0 {
		m.AccuracyRate = ptr(WinRate(right, m.ResolvedDecisions))
	}
	if buys > 0 {
		total := pnl.Round(2)
		m.TotalPnL = &total
	}
	if latencies > 0 {
		m.AverageResponseTime = ptr(round(latency/float64(latencies)/1000, 3))
	}
	if newest != nil {
		m.ModelVersion = &newest.Model
	}
	return m
}

// ConfidenceBucket counts answered decisions whose confidence is in [Min, Max)
// (the last bucket includes 1).
type ConfidenceBucket struct {
	Range string  `json:"range"`
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
	Count int     `json:"count"`
}

// ConfidenceDistribution buckets answered decisions by confidence:
// 0-0.5, 0.5-0.6, 0.6-0.7, 0.7-0.8, 0.8-0.9, 0.9-1.0, each including its
// lower edge and excluding its upper one, except the last, which includes 1.
func ConfidenceDistribution(decs []AIDecision) []ConfidenceBucket {
	edges := []float64{0, 0.5, 0.6, 0.7, 0.8, 0.9, 1}
	names := []string{"0-0.5", "0.5-0.6", "0.6-0.7", "0.7-0.8", "0.8-0.9", "0.9-1.0"}
	out := make([]ConfidenceBucket, len(names))
	for i := range names {
		out[i] = ConfidenceBucket{Range: names[i], Min: edges[i], Max: edges[i+1]}
	}
	for _, d := range decs {
		if d.failed() {
			continue
		}
		i := len(names) - 1
		for i > 0 && d.Confidence < edges[i] {
			i--
		}
		out[i].Count++
	}
	return out
}

// DecisionType is one recommendation's share of the answered decisions.
type DecisionType struct {
	Type     string `json:"type"`
	Count    int    `json:"count"`
	Executed int    `json:"executed"`
	Resolved int    `json:"resolved"`
	// SuccessRate is resolved ones with a profit / resolved ones, percent;
	// nil when none resolved (HOLD never does: it places no order).
	SuccessRate *float64 `json:"successRate"`
}

// DecisionBreakdown counts answered decisions by recommendation (BUY, SELL, HOLD).
func DecisionBreakdown(decs []AIDecision) []DecisionType {
	out := []DecisionType{{Type: "BUY"}, {Type: "SELL"}, {Type: "HOLD"}}
	wins := make([]int, len(out))
	for _, d := range decs {
		if d.failed() {
			continue
		}
		for i := range out {
			if out[i].Type != d.Decision {
				continue
			}
			out[i].Count++
			if d.Executed {
				out[i].Executed++
			}
			if d.resolved() {
				out[i].Resolved++
				if d.Outcome.Outcome == OutcomeProfit {
					wins[i]++
				}
			}
		}
	}
	for i := range out {
		if out[i].Resolved > 0 {
			out[i].SuccessRate = ptr(WinRate(wins[i], out[i].Resolved))
		}
	}
	return out
}

// AIDay is one UTC day of AI decisions.
type AIDay struct {
	Date      string `json:"date"`
	Decisions int    `json:"decisions"`
	Executed  int    `json:"executed"`
	// PnL sums the P&L of that day's resolved BUY decisions (by the day the
	// decision was made); nil when none of them has resolved.
	PnL *decimal.Decimal `json:"pnl"`
}

// AIDaily groups answered decisions by the UTC day they were made, oldest first.
func AIDaily(decs []AIDecision) []AIDay {
	byDay := map[string]*AIDay{}
	for _, d := range decs {
		if d.failed() {
			continue
		}
		k := d.Time.UTC().Format("2006-01-02")
		day := byDay[k]
		if day == nil {
			day = &AIDay{Date: k}
			byDay[k] = day
		}
		day.Decisions++
		if d.Executed {
			day.Executed++
		}
		if d.Decision == "BUY" && d.resolved() {
			p := d.Outcome.PnL
			if day.PnL != nil {
				p = p.Add(*day.PnL)
			}
			day.PnL = &p
		}
	}
	out := make([]AIDay, 0, len(byDay))
	for _, d := range byDay {
		out = append(out, *d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Date < out[j].Date })
	return out
}

// AIStrategyRow is one AI-driven or hybrid strategy in the AI view.
type AIStrategyRow struct {
	StrategyName string `json:"strategyName"`
	IsActive     bool   `json:"isActive"`
	// From the strategy's fills since it started (StrategyOf): closed
	// round trips, their win rate (percent), P&L, per-trade Sharpe and the
	// largest fall of cumulative realized P&L in USD.
	TotalTrades int              `json:"totalTrades"`
	WinRate     *float64         `json:"winRate"`
	TotalPnL    *decimal.Decimal `json:"totalPnL"`
	SharpeRatio *float64         `json:"sharpeRatio"`
	MaxDrawdown *decimal.Decimal `json:"maxDrawdown"`
	// AverageConfidence of its answered decisions in the period, 0-1.
	AverageConfidence *float64 `json:"averageConfidence"`
	Decisions         int      `json:"decisions"`
}

// AIStrategy builds a strategy's row: performance from every fill of its
// orders, valued at prices, and the average confidence of its decisions.
// Figures without trades are nil: P&L without any fill, win rate and
// drawdown without a closed round trip, Sharpe with fewer than two.
func AIStrategy(name string, active bool, fills []domain.Fill, prices Prices, decs []AIDecision) AIStrategyRow {
	row := AIStrategyRow{StrategyName: name, IsActive: active}
	p := StrategyOf(name, fills, prices)
	row.TotalTrades = p.TotalTrades
	for _, f := range fills {
		if f.Strategy == name {
			row.TotalPnL = &p.TotalPnL
			break
		}
	}
	if p.TotalTrades > 0 {
		row.WinRate = ptr(p.WinRate)
		row.MaxDrawdown = &p.MaxDrawdown
	}
	if p.TotalTrades > 1 {
		row.SharpeRatio = ptr(p.SharpeRatio)
	}
	conf := 0.0
	for _, d := range decs {
		if d.Strategy == name && !d.failed() {
			row.Decisions++
			conf += d.Confidence
		}
	}
	if row.Decisions > 0 {
		row.AverageConfidence = ptr(round(conf/float64(row.Decisions), 4))
	}
	return row
}

func ptr[T any](v T) *T { return &v }

func round(x float64, places int) float64 {
	k := math.Pow(10, float64(places))
	return math.Round(x*k) / k
}

// AIWinRate is the win rate of the strategies' round trips (their fills
// only) closed at or after since: the same definition as every other win
// rate; nil without a closed trip.
func AIWinRate(fills []domain.Fill, strategies map[string]bool, since time.Time) *float64 {
	var own []domain.Fill
	for _, f := range fills {
		if strategies[f.Strategy] {
			own = append(own, f)
		}
	}
	wl := WinLossOf(TripsSince(RoundTrips(own), since))
	if wl.Total == 0 {
		return nil
	}
	return ptr(wl.WinRate)
}
