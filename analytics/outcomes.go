package analytics

import (
	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// Decision outcomes (the spec's AI decision outcome).
const (
	OutcomePending = "pending"
	OutcomeProfit  = "profit"
	OutcomeLoss    = "loss"
)

// Outcome is how an executed decision turned out.
type Outcome struct {
	Outcome string          `json:"outcome"`
	PnL     decimal.Decimal `json:"pnl"`
}

// lot is quantity a BUY order opened, at its cost per unit (fees included).
type lot struct {
	order   string
	qty     decimal.Decimal
	unit    decimal.Decimal
	pnl     decimal.Decimal
	sold    bool
	openQty decimal.Decimal
}

// DecisionOutcomes resolves each evaluation that placed an order (by
// evaluation id). The strategy's fills are matched first in, first out per
// symbol: a SELL's realized P&L (proceeds less fees less the cost of the
// lots it closed) is attributed to the BUY orders that opened those lots.
// A BUY decision resolves to profit or loss once all it bought is sold, and
// is pending until then; a SELL decision resolves at once with the P&L it
// realized (the same money seen from the exit, so totals add up either the
// BUYs or the SELLs, never both). Not executed decisions stay pending.
func DecisionOutcomes(evals []domain.Evaluation, fills []domain.Fill) map[string]Outcome {
	sorted := inTimeOrder(fills)
	lots := map[string][]*lot{} // strategy|symbol -> open lots, oldest first
	byOrder := map[string]*lot{}
	sellPnL := map[string]decimal.Decimal{}
	for _, f := range sorted {
		k := f.Strategy + "|" + f.Symbol
		if f.Side == domain.Buy {
			l := byOrder[f.OrderID]
			unit := f.Price.Add(f.Fee.Div(f.Quantity))
			if l == nil {
				l = &lot{order: f.OrderID, unit: unit}
				byOrder[f.OrderID] = l
				lots[k] = append(lots[k], l)
			} else { // another fill of the same order: average its unit cost
				l.unit = l.unit.Mul(l.openQty).Add(unit.Mul(f.Quantity)).Div(l.openQty.Add(f.Quantity))
			}
			l.qty, l.openQty = l.qty.Add(f.Quantity), l.openQty.Add(f.Quantity)
			continue
		}
		left, unitIn := f.Quantity, f.Price.Sub(f.Fee.Div(f.Quantity))
		for _, l := range lots[k] {
			if !left.IsPositive() {
				break
			}
			if !l.qty.IsPositive() {
				continue
			}
			q := decimal.Min(left, l.qty)
			gain := unitIn.Sub(l.unit).Mul(q)
			l.pnl, l.qty, left = l.pnl.Add(gain), l.qty.Sub(q), left.Sub(q)
			l.sold = l.qty.IsZero()
			sellPnL[f.OrderID] = sellPnL[f.OrderID].Add(gain)
		}
	}
	out := map[string]Outcome{}
	for _, e := range evals {
		o := Outcome{Outcome: OutcomePending, PnL: decimal.Zero}
		if e.Executed && e.OrderID != "" {
			if l, ok := byOrder[e.OrderID]; ok && l.sold {
				o = resolved(l.pnl)
			} else if p, ok := sellPnL[e.OrderID]; ok {
				o = resolved(p)
			}
		}
		out[e.ID] = o
	}
	return out
}

func resolved(pnl decimal.Decimal) Outcome {
	pnl = pnl.Round(2)
	if pnl.IsPositive() {
		return Outcome{Outcome: OutcomeProfit, PnL: pnl}
	}
	return Outcome{Outcome: OutcomeLoss, PnL: pnl}
}
