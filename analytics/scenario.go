package analytics

import (
	"fmt"
	"time"

	"github.com/shopspring/decimal"
)

// Frequency is how often a move happened in a daily close history: in how
// many of its windows of HorizonDays calendar days (one starting on every
// day that has a close HorizonDays later, so they overlap).
type Frequency struct {
	Occurrences int `json:"occurrences"`
	Windows     int `json:"windows"`
	HorizonDays int `json:"horizonDays"`
	// DataFrom and DataTo are the first and last day of the closes the windows came from.
	DataFrom string `json:"dataFrom,omitempty"`
	DataTo   string `json:"dataTo,omitempty"`
}

// Probability is occurrences / windows; nil when there is no window or the
// move never happened (zero occurrences in a short history is no evidence
// that a move cannot happen).
func (f Frequency) Probability() *float64 {
	if f.Windows == 0 || f.Occurrences == 0 {
		return nil
	}
	return F(float64(f.Occurrences) / float64(f.Windows))
}

// Basis says in words what the probability rests on, or why there is none.
func (f Frequency) Basis() string {
	span := fmt.Sprintf("%d-day windows of the daily closes %s to %s", f.HorizonDays, f.DataFrom, f.DataTo)
	switch {
	case f.HorizonDays == 0:
		return "Not estimated"
	case f.DataFrom == "":
		return "Nothing to measure: no held symbol it moves has a daily history"
	case f.Windows == 0:
		return fmt.Sprintf("No %d-day window in the data for these holdings", f.HorizonDays)
	case f.Occurrences == 0:
		return fmt.Sprintf("Never happened in the %d %s", f.Windows, span)
	}
	return fmt.Sprintf("%d of %d %s", f.Occurrences, f.Windows, span)
}

func (h history) frequency(days int) Frequency {
	f := Frequency{HorizonDays: days}
	if len(h.dates) > 0 {
		f.DataFrom, f.DataTo = h.dates[0].Format(time.DateOnly), h.dates[len(h.dates)-1].Format(time.DateOnly)
	}
	return f
}

// MoveFrequency counts the windows of days calendar days in which a basket
// (weights by symbol, in any unit: market values, or 1 each for an equal
// mix) changed by threshold or less, each symbol moving by its own close to
// close change (threshold in the weights' unit: -0.1 for a basket of weight
// 1 is a 10% fall). Only dates every basket symbol has a close on count.
func MoveFrequency(closes map[string][]Close, basket []Holding, days int, threshold decimal.Decimal) Frequency {
	if len(basket) == 0 || days < 1 {
		return Frequency{HorizonDays: days}
	}
	h := align(closes, symbolsOf(basket))
	f := h.frequency(days)
	for _, w := range h.windows(days) {
		f.Windows++
		if h.change(basket, w).LessThanOrEqual(threshold) {
			f.Occurrences++
		}
	}
	return f
}

// StressFrequency is how often a stress scenario's loss happened over its
// horizon: the windows in which the holdings it shocks, at their current
// market values, each moving as it did over the window, lost at least as
// much as the scenario costs them (unrounded). Empty without a horizon or
// a shocked holding.
func StressFrequency(sc Scenario, closes map[string][]Close, holdings []Holding) Frequency {
	var basket []Holding
	loss := decimal.Zero
	for _, h := range holdings {
		if s := sc.Shock(h.Symbol); !s.IsZero() && h.MarketValue.IsPositive() {
			basket = append(basket, h)
			loss = loss.Add(h.MarketValue.Mul(s))
		}
	}
	if sc.Horizon < 1 || len(basket) == 0 {
		return Frequency{HorizonDays: sc.Horizon}
	}
	return MoveFrequency(closes, basket, sc.Horizon, loss)
}

// JointTail is the day on which every symbol has one of its worst days at
// once: each symbol's shock is the q quantile (0.05) of its one-day close to
// close returns over the dates all symbols have a close (linear
// interpolation, as for VaR), rounded to 8 places; the frequency counts the
// one-day windows in which every symbol's return was at or below its own
// quantile on the same day.
func JointTail(closes map[string][]Close, symbols []string, q float64) (map[string]decimal.Decimal, Frequency) {
	h := align(closes, symbols)
	f := h.frequency(1)
	ws := h.windows(1)
	if len(symbols) == 0 || len(ws) < 2 {
		return nil, f
	}
	returns := map[string][]float64{}
	quantile := map[string]float64{}
	shocks := map[string]decimal.Decimal{}
	for _, s := range symbols {
		for _, w := range ws {
			p := h.prices[s]
			returns[s] = append(returns[s], p[w[1]].Div(p[w[0]]).Sub(one).InexactFloat64())
		}
		quantile[s] = *Quantile(returns[s], q)
		shocks[s] = decimal.NewFromFloat(quantile[s]).Round(8)
	}
	f.Windows = len(ws)
	for i := range ws {
		all := true
		for _, s := range symbols {
			all = all && returns[s][i] <= quantile[s]
		}
		if all {
			f.Occurrences++
		}
	}
	return shocks, f
}

// ScenarioResult is one entry of the risk view's scenario analysis.
type ScenarioResult struct {
	Scenario    string `json:"scenario"`
	Description string `json:"description"`
	// Probability is the event's frequency in the history (a fraction);
	// null when it never happened there.
	Probability      *float64 `json:"probability"`
	ProbabilityBasis string   `json:"probabilityBasis"`
	// Impact is what the current holdings lose if it happens now: each
	// holding's market value x its shock, to the cent, summed (USD).
	Impact        decimal.Decimal  `json:"impact"`
	ImpactPercent *decimal.Decimal `json:"impactPercent"`
	Frequency
}

// ScenarioAnalysis applies market events defined on the daily history to
// the current holdings of a portfolio worth value. market is the symbols
// whose equal-weighted mix stands for the broad market.
//   - BTC-USD falls 10% or more in a day: BTC holdings -10%, others unchanged;
//     frequency of one-day BTC-USD falls of 10% or more.
//   - The broad market falls 20% or more over 7 days: every holding -20%;
//     frequency of 7-day windows in which the equal-weighted mean of the market
//     symbols' changes was -20% or less.
//   - BTC-USD falls 25% or more over 30 days: BTC holdings -25%; frequency of
//     30-day BTC-USD falls of 25% or more.
//   - With holdings: every holding has one of its worst 5% of days at once
//     (JointTail).
func ScenarioAnalysis(closes map[string][]Close, holdings []Holding, value decimal.Decimal, market []string) []ScenarioResult {
	btc := []Holding{{Symbol: "BTC-USD", MarketValue: one}}
	mix := make([]Holding, len(market))
	for i, s := range market {
		mix[i] = Holding{Symbol: s, MarketValue: one}
	}
	only := func(symbol, shock string) func(string) decimal.Decimal {
		d := decimal.RequireFromString(shock)
		return func(s string) decimal.Decimal {
			if s == symbol {
				return d
			}
			return decimal.Zero
		}
	}
	type event struct {
		sc        Scenario
		basket    []Holding
		threshold decimal.Decimal
	}
	events := []event{
		{Scenario{Name: "BTC-USD falls 10% or more in a day", Description: "BTC-USD closes 10% below the previous day's close; BTC holdings lose 10%, other holdings are unchanged",
			Shock: only("BTC-USD", "-0.10"), Horizon: 1}, btc, decimal.RequireFromString("-0.10")},
		{Scenario{Name: "Broad market falls 20% or more over 7 days", Description: "The equal-weighted mean of the tracked symbols' 7-day changes is -20% or worse; every holding loses 20%",
			Shock: all("-0.20"), Horizon: 7}, mix, decimal.RequireFromString("-0.20").Mul(decimal.NewFromInt(int64(len(mix))))},
		{Scenario{Name: "BTC-USD falls 25% or more over 30 days", Description: "BTC-USD closes 25% below its close 30 days earlier; BTC holdings lose 25%, other holdings are unchanged",
			Shock: only("BTC-USD", "-0.25"), Horizon: 30}, btc, decimal.RequireFromString("-0.25")},
	}
	out := []ScenarioResult{}
	for _, e := range events {
		r := StressTest(e.sc, holdings, value)
		f := MoveFrequency(closes, e.basket, e.sc.Horizon, e.threshold)
		out = append(out, ScenarioResult{Scenario: r.Scenario, Description: r.Description, Impact: r.PortfolioImpact, ImpactPercent: r.ImpactPercent,
			Probability: f.Probability(), ProbabilityBasis: f.Basis(), Frequency: f})
	}
	if len(holdings) > 0 {
		shocks, f := JointTail(closes, symbolsOf(holdings), 0.05)
		if shocks != nil {
			moves := ""
			for i, h := range holdings {
				if i > 0 {
					moves += ", "
				}
				moves += fmt.Sprintf("%s %s%%", h.Symbol, shocks[h.Symbol].Mul(hundred).StringFixed(2))
			}
			sc := Scenario{Name: "Every holding has one of its worst 5% of days at once",
				Description: "Each holding falls by the 5% quantile of its own daily returns in the history, all on the same day: " + moves,
				Shock:       func(s string) decimal.Decimal { return shocks[s] }, Horizon: 1}
			r := StressTest(sc, holdings, value)
			out = append(out, ScenarioResult{Scenario: r.Scenario, Description: r.Description, Impact: r.PortfolioImpact, ImpactPercent: r.ImpactPercent,
				Probability: f.Probability(), ProbabilityBasis: f.Basis(), Frequency: f})
		}
	}
	return out
}
