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

// history is the daily closes of some symbols on the dates all of them have
// one, ascending.
type history struct {
	dates  []time.Time
	index  map[time.Time]int
	prices map[string]map[time.Time]decimal.Decimal
}

func align(closes map[string][]Close, symbols []string) history {
	h := history{index: map[time.Time]int{}, prices: map[string]map[time.Time]decimal.Decimal{}}
	count := map[time.Time]int{}
	for _, s := range symbols {
		if h.prices[s] != nil {
			continue
		}
		h.prices[s] = map[time.Time]decimal.Decimal{}
		for _, c := range closes[s] {
			if c.Price.IsPositive() {
				h.prices[s][c.Date] = c.Price
				count[c.Date]++
			}
		}
	}
	for d, n := range count {
		if n == len(h.prices) {
			h.dates = append(h.dates, d)
		}
	}
	sort.Slice(h.dates, func(i, j int) bool { return h.dates[i].Before(h.dates[j]) })
	for i, d := range h.dates {
		h.index[d] = i
	}
	return h
}

// windows are the (from, to) date pairs exactly days calendar days apart,
// one starting on each date that has such a partner: overlapping windows.
func (h history) windows(days int) [][2]time.Time {
	var out [][2]time.Time
	for _, from := range h.dates {
		to := from.AddDate(0, 0, days)
		if _, ok := h.index[to]; ok {
			out = append(out, [2]time.Time{from, to})
		}
	}
	return out
}

// change is what a basket (market values by symbol) gains over a window,
// each symbol moving by its own close-to-close change; unrounded.
func (h history) change(basket []Holding, w [2]time.Time) decimal.Decimal {
	sum := decimal.Zero
	for _, b := range basket {
		p := h.prices[b.Symbol]
		sum = sum.Add(b.MarketValue.Mul(p[w[1]].Div(p[w[0]]).Sub(one)))
	}
	return sum
}

var one = decimal.NewFromInt(1)

func symbolsOf(basket []Holding) []string {
	out := make([]string, len(basket))
	for i, b := range basket {
		out[i] = b.Symbol
	}
	return out
}

// WorstHistorical is the stress scenario of the worst n-day stretch in the
// data for the current holdings: over every window of n calendar days
// between two dates all held symbols have a close on, the one where the
// holdings, at their current values, would have lost the most (each symbol
// moving by its own close to close change over the window). ok is false
// without such a window. The scenario's Horizon is n, so its probability
// counts the windows that lost at least as much (the worst one included).
func WorstHistorical(closes map[string][]Close, holdings []Holding, days int, label string) (Scenario, bool) {
	if len(holdings) == 0 || days < 1 {
		return Scenario{}, false
	}
	h := align(closes, symbolsOf(holdings))
	var worst [2]time.Time
	found, least := false, decimal.Zero
	for _, w := range h.windows(days) {
		if loss := h.change(holdings, w); !found || loss.LessThan(least) {
			found, worst, least = true, w, loss
		}
	}
	if !found {
		return Scenario{}, false
	}
	from, to := worst[0], worst[1]
	shock := map[string]decimal.Decimal{}
	for _, hd := range holdings {
		p := h.prices[hd.Symbol]
		shock[hd.Symbol] = p[to].Div(p[from]).Sub(one)
	}
	return Scenario{
		Name:        fmt.Sprintf("%s (%s to %s)", label, from.Format(time.DateOnly), to.Format(time.DateOnly)),
		Description: fmt.Sprintf("Each holding moves as it did from the close of %s to the close of %s, the stretch of the shipped history that would have cost these holdings the most", from.Format(time.DateOnly), to.Format(time.DateOnly)),
		Shock:       func(sym string) decimal.Decimal { return shock[sym] },
		Horizon:     days,
	}, true
}
