package strategy

import (
	"context"
	"slices"
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/analytics"
	"kestrel/domain"
)

// MaxLeaderboardRows bounds the model decisions one leaderboard reads.
const MaxLeaderboardRows = 20000

// Leaderboard compares the live model and each shadow model of a strategy
// over the evaluations in which they were asked together, each scored as
// if it had traded its own calls on paper (analytics.PaperTrade).
type Leaderboard struct {
	Strategy string `json:"strategy"`
	// The data it is computed from: evaluations with shadow decisions
	// whose candle opened in [From, To], Evaluations of them.
	Since       time.Time       `json:"since"`
	From        *time.Time      `json:"from"`
	To          *time.Time      `json:"to"`
	Evaluations int             `json:"evaluations"`
	Symbols     []string        `json:"symbols"`
	Fee         decimal.Decimal `json:"fee"`
	Truncated   bool            `json:"truncated"`
	Models      []BoardModel    `json:"models"`
	// Recent is each of the latest evaluations with every model's
	// decision, newest first (the decisions view shows them side by side).
	Recent []Comparison `json:"recent"`
}

// BoardModel is one model's row of the leaderboard.
type BoardModel struct {
	Role      string `json:"role"` // live | shadow
	Provider  string `json:"provider"`
	Model     string `json:"model"`
	Decisions int    `json:"decisions"` // answered (BUY, SELL or HOLD)
	Buys      int    `json:"buys"`
	Sells     int    `json:"sells"`
	Holds     int    `json:"holds"`
	Failed    int    `json:"failed"` // errors, timeouts, budget pauses
	analytics.PaperScore
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	// Cost is nil when any decision had no price (KnownCost is the priced part).
	Cost              *decimal.Decimal `json:"cost"`
	KnownCost         decimal.Decimal  `json:"known_cost"`
	UnpricedDecisions int              `json:"unpriced_decisions"`
	AvgLatencyMS      int64            `json:"avg_latency_ms"`
}

// Comparison is one evaluation's model decisions, the live model's first.
type Comparison struct {
	EvaluationID string                  `json:"evaluation_id"`
	Symbol       string                  `json:"symbol"`
	CandleTime   time.Time               `json:"candle_time"`
	Price        decimal.Decimal         `json:"price"`
	Decisions    []domain.ShadowDecision `json:"decisions"`
}

// RecentComparisons is how many evaluations Leaderboard.Recent lists.
const RecentComparisons = 50

// Leaderboard computes name's leaderboard over the decisions whose candle
// opened at or after since, with fee the paper venue's taker fee.
func (e *Engine) Leaderboard(ctx context.Context, name string, since time.Time, fee decimal.Decimal) (Leaderboard, error) {
	if _, err := e.Get(name); err != nil {
		return Leaderboard{}, err
	}
	rows, err := e.d.Store.ShadowDecisions(ctx, domain.ShadowFilter{Strategy: name, Since: since, Limit: MaxLeaderboardRows + 1})
	if err != nil {
		return Leaderboard{}, err
	}
	b := Leaderboard{Strategy: name, Since: since.UTC(), Fee: fee, Symbols: []string{}, Models: []BoardModel{}, Recent: []Comparison{}}
	if len(rows) > MaxLeaderboardRows {
		rows, b.Truncated = rows[:MaxLeaderboardRows], true
	}
	b.Models = scoreModels(rows, &b, fee)
	return b, nil
}

// scoreModels groups rows (newest first) by model and scores each (their calls oldest first); it
// fills b's window, symbols and recent comparisons.
func scoreModels(rows []domain.ShadowDecision, b *Leaderboard, fee decimal.Decimal) []BoardModel {
	byModel, order := map[string]*boardAcc{}, []string{}
	evals, syms := map[string]int{}, map[string]bool{} // evaluation -> index in b.Recent (-1: beyond it)
	for _, r := range rows {
		b.compare(r, evals)
		syms[r.Symbol] = true
		k := r.Role + " " + r.Provider + " " + r.Model
		if byModel[k] == nil {
			byModel[k] = &boardAcc{m: BoardModel{Role: r.Role, Provider: r.Provider, Model: r.Model}}
			order = append(order, k)
		}
		byModel[k].add(r)
	}
	b.Evaluations = len(evals)
	if len(rows) > 0 {
		from, to := rows[len(rows)-1].CandleTime, rows[0].CandleTime
		b.From, b.To = &from, &to
	}
	for s := range syms {
		b.Symbols = append(b.Symbols, s)
	}
	sort.Strings(b.Symbols)
	out := []BoardModel{}
	for _, k := range order {
		out = append(out, byModel[k].score(b.Symbols, fee))
	}
	// The live model first, then by realised return, best first.
	sort.SliceStable(out, func(i, j int) bool {
		if li, lj := out[i].Role == domain.RoleLive, out[j].Role == domain.RoleLive; li != lj {
			return li
		}
		return out[i].RealisedReturn.GreaterThan(out[j].RealisedReturn)
	})
	return out
}

// compare adds r to its evaluation's comparison while Recent has room.
func (b *Leaderboard) compare(r domain.ShadowDecision, evals map[string]int) {
	i, seen := evals[r.EvaluationID]
	if !seen {
		i = -1
		if len(b.Recent) < RecentComparisons {
			i = len(b.Recent)
			b.Recent = append(b.Recent, Comparison{EvaluationID: r.EvaluationID, Symbol: r.Symbol, CandleTime: r.CandleTime, Price: r.Price})
		}
		evals[r.EvaluationID] = i
	}
	if i >= 0 {
		b.Recent[i].Decisions = append(b.Recent[i].Decisions, r)
	}
}

// boardAcc gathers one model's rows.
type boardAcc struct {
	m       BoardModel
	calls   []analytics.PaperCall
	latency int64
}

func (a *boardAcc) add(r domain.ShadowDecision) {
	a.latency += r.LatencyMS
	a.m.InputTokens += r.InputTokens
	a.m.OutputTokens += r.OutputTokens
	if r.Cost == nil {
		a.m.UnpricedDecisions++
	} else {
		a.m.KnownCost = a.m.KnownCost.Add(*r.Cost)
	}
	switch {
	case r.Error != "" || r.Decision == "":
		a.m.Failed++
		return
	case r.Decision == Buy:
		a.m.Buys++
	case r.Decision == Sell:
		a.m.Sells++
	default:
		a.m.Holds++
	}
	a.m.Decisions++
	a.calls = append(a.calls, analytics.PaperCall{Symbol: r.Symbol, Time: r.CandleTime, Price: r.Price, Decision: r.Decision})
}

func (a *boardAcc) score(symbols []string, fee decimal.Decimal) BoardModel {
	m := a.m
	slices.Reverse(a.calls) // rows come newest first
	m.PaperScore = analytics.PaperTrade(a.calls, symbols, fee)
	if n := m.Decisions + m.Failed; n > 0 {
		m.AvgLatencyMS = a.latency / int64(n)
	}
	if m.UnpricedDecisions == 0 {
		c := m.KnownCost
		m.Cost = &c
	}
	return m
}
