package analytics

import (
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// AssetShare is one asset's part of the portfolio at a day's end.
type AssetShare struct {
	// Asset is a symbol (BTC-USD) or the quote currency (USD) for cash.
	Asset    string          `json:"asset"`
	Quantity decimal.Decimal `json:"quantity"`
	// Close is the day's close the quantity is valued at (1 for cash).
	Close decimal.Decimal `json:"close"`
	// Value is quantity x close to the cent.
	Value decimal.Decimal `json:"value"`
	// Allocation is value / total value x 100, two places; null without a positive total.
	Allocation *decimal.Decimal `json:"allocation"`
}

// AllocationDay is the portfolio's make-up at the end of a UTC day.
type AllocationDay struct {
	Date       time.Time       `json:"-"`
	TotalValue decimal.Decimal `json:"totalValue"`
	// Assets are the symbols held at the day's end (by symbol), then cash.
	Assets []AssetShare `json:"assets"`
}

// AllocationHistory is each holding's (and cash's) share of the portfolio at
// the end of every UTC day in days, ascending. Positions at a day's end come
// from the fills up to then, starting from the account as it was before its
// first fill (today's balances less every fill's effect), so quantities and
// cash are exact; each is valued at that day's close (closes by symbol and
// day). A day on which a held symbol has no close is left out rather than
// valued at a stale or zero price. Each share is rounded on its own, so the
// shares of a day may miss 100 by a hundredth.
func AllocationHistory(fills []domain.Fill, balances []domain.Balance, closes map[string]map[time.Time]decimal.Decimal, days []time.Time) []AllocationDay {
	// Rewind today's balances to before the first fill.
	cash := decimal.Zero
	qty := map[string]decimal.Decimal{}
	for _, b := range balances {
		if b.Currency == QuoteCurrency {
			cash = cash.Add(b.Total())
		} else {
			qty[Pair(b.Currency)] = qty[Pair(b.Currency)].Add(b.Total())
		}
	}
	ordered := inTimeOrder(fills)
	for _, f := range ordered {
		dq, dc := fillEffect(f)
		qty[f.Symbol] = qty[f.Symbol].Sub(dq)
		cash = cash.Sub(dc)
	}

	out := []AllocationDay{}
	next := 0
	for _, day := range days {
		end := day.Add(24 * time.Hour)
		for ; next < len(ordered) && ordered[next].Time.Before(end); next++ {
			dq, dc := fillEffect(ordered[next])
			qty[ordered[next].Symbol] = qty[ordered[next].Symbol].Add(dq)
			cash = cash.Add(dc)
		}
		d, ok := allocationOn(day, qty, cash, closes)
		if ok {
			out = append(out, d)
		}
	}
	return out
}

// fillEffect is what a fill adds to its symbol's quantity and to cash: a
// buy pays notional plus fee, a sell receives notional less fee.
func fillEffect(f domain.Fill) (qty, cash decimal.Decimal) {
	notional := f.Quantity.Mul(f.Price)
	if f.Side == domain.Buy {
		return f.Quantity, notional.Add(f.Fee).Neg()
	}
	return f.Quantity.Neg(), notional.Sub(f.Fee)
}

func allocationOn(day time.Time, qty map[string]decimal.Decimal, cash decimal.Decimal, closes map[string]map[time.Time]decimal.Decimal) (AllocationDay, bool) {
	syms := make([]string, 0, len(qty))
	for s, q := range qty {
		if q.IsPositive() {
			syms = append(syms, s)
		}
	}
	sort.Strings(syms)
	d := AllocationDay{Date: day, Assets: make([]AssetShare, 0, len(syms)+1)}
	exact := cash
	values := make([]decimal.Decimal, 0, len(syms)+1)
	for _, s := range syms {
		px, ok := closes[s][day]
		if !ok {
			return d, false
		}
		v := qty[s].Mul(px)
		exact = exact.Add(v)
		values = append(values, v)
		d.Assets = append(d.Assets, AssetShare{Asset: s, Quantity: qty[s], Close: px, Value: v.Round(2)})
	}
	values = append(values, cash)
	d.Assets = append(d.Assets, AssetShare{Asset: QuoteCurrency, Quantity: cash, Close: decimal.NewFromInt(1), Value: cash.Round(2)})
	d.TotalValue = exact.Round(2)
	if exact.IsPositive() {
		for i, v := range values {
			p := v.Mul(hundred).Div(exact).Round(2)
			d.Assets[i].Allocation = &p
		}
	}
	return d, true
}
