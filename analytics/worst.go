package analytics

import (
	"fmt"
	"sort"
	"time"

	"github.com/shopspring/decimal"
)

// Close is a symbol's closing price on a UTC day.
type Close struct {
	Date  time.Time
	Price decimal.Decimal
}

// WorstHistorical is the stress scenario of the worst n-day stretch in the
// data for the current holdings: over every n-day window of the days all
// held symbols have a close, the one where the holdings, at their current
// values, would have lost the most (each symbol moving by its own close to
// close change over the window). ok is false without such a window.
func WorstHistorical(closes map[string][]Close, holdings []Holding, days int, label string) (Scenario, bool) {
	if len(holdings) == 0 || days < 1 {
		return Scenario{}, false
	}
	// Dates every held symbol has a close on, ascending.
	count := map[time.Time]int{}
	prices := map[string]map[time.Time]decimal.Decimal{}
	for _, h := range holdings {
		prices[h.Symbol] = map[time.Time]decimal.Decimal{}
		for _, c := range closes[h.Symbol] {
			if c.Price.IsPositive() {
				prices[h.Symbol][c.Date] = c.Price
				count[c.Date]++
			}
		}
	}
	var dates []time.Time
	for d, n := range count {
		if n == len(holdings) {
			dates = append(dates, d)
		}
	}
	sort.Slice(dates, func(i, j int) bool { return dates[i].Before(dates[j]) })
	best, worst := -1, decimal.Zero
	for t := days; t < len(dates); t++ {
		loss := decimal.Zero
		for _, h := range holdings {
			p := prices[h.Symbol]
			loss = loss.Add(h.MarketValue.Mul(p[dates[t]].Div(p[dates[t-days]]).Sub(decimal.NewFromInt(1))))
		}
		if best < 0 || loss.LessThan(worst) {
			best, worst = t, loss
		}
	}
	if best < 0 {
		return Scenario{}, false
	}
	from, to := dates[best-days], dates[best]
	shock := map[string]decimal.Decimal{}
	for _, h := range holdings {
		p := prices[h.Symbol]
		shock[h.Symbol] = p[to].Div(p[from]).Sub(decimal.NewFromInt(1))
	}
	return Scenario{
		Name:        fmt.Sprintf("%s (%s to %s)", label, from.Format(time.DateOnly), to.Format(time.DateOnly)),
		Description: fmt.Sprintf("Each holding moves as it did from the close of %s to the close of %s, the stretch of the shipped history that would have cost these holdings the most", from.Format(time.DateOnly), to.Format(time.DateOnly)),
		Shock:       func(sym string) decimal.Decimal { return shock[sym] },
	}, true
}
