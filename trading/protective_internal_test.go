package trading

import (
	"math/rand"
	"testing"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// TestOnGridIsDivFloorMul: a protective order's price in integers is
// px.Mul(m).Div(step).Floor().Mul(step) (Ceil for a take-profit), value
// and shape, wherever the integers take it; and onGrid is that formula
// everywhere.
func TestOnGridIsDivFloorMul(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	steps := []decimal.Decimal{decimal.New(1, -2), decimal.RequireFromString("0.010"), decimal.New(1, -8), decimal.New(1, 0), decimal.New(10, 0), decimal.New(5, -2)}
	ms := []decimal.Decimal{decimal.RequireFromString("0.98"), decimal.RequireFromString("1.05"), decimal.RequireFromString("0.9975"), decimal.RequireFromString("0.123456789")}
	taken := 0
	for i := 0; i < 100000; i++ {
		px := decimal.New(rng.Int63n(1e10)+1, int32(-rng.Intn(9)))
		if rng.Intn(50) == 0 {
			px = decimal.New(rng.Int63n(1e18)+1, int32(-rng.Intn(9))) // past the integers
		}
		m, step, ceil := ms[rng.Intn(len(ms))], steps[rng.Intn(len(steps))], rng.Intn(2) == 0
		want := px.Mul(m).Div(step).Floor().Mul(step)
		if ceil {
			want = px.Mul(m).Div(step).Ceil().Mul(step)
		}
		same := func(got decimal.Decimal) bool {
			return got.Coefficient().Cmp(want.Coefficient()) == 0 && got.Exponent() == want.Exponent()
		}
		if got := onGrid(px, m, step, ceil); !same(got) {
			t.Fatalf("onGrid(%s, %s, %s, %v) = %s (exp %d), want %s (exp %d)", px, m, step, ceil, got, got.Exponent(), want, want.Exponent())
		}
		got, ok := onGridInt(px, m, step, ceil)
		if !ok {
			continue
		}
		taken++
		if !same(got) {
			t.Fatalf("onGridInt(%s, %s, %s, %v) = %s (exp %d), want %s (exp %d)", px, m, step, ceil, got, got.Exponent(), want, want.Exponent())
		}
	}
	if taken < 50000 {
		t.Fatalf("only %d of 100,000 taken", taken)
	}
}

// TestProtectiveOrders: the one rule's orders, over random policies and
// fills: prices by the formula, the quantity the free part of the fill,
// client ids only when asked for, one group under the parent.
func TestProtectiveOrders(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	pcts := []string{"0", "0.005", "0.02", "0.035", "0.1"}
	steps := []decimal.Decimal{decimal.New(1, -2), decimal.New(1, -4), decimal.New(1, -6)}
	for i := 0; i < 20000; i++ {
		p := Policy{StopLoss: rng.Intn(3) > 0, StopLossPercent: decimal.RequireFromString(pcts[rng.Intn(len(pcts))]), TrailingStop: rng.Intn(3) == 0,
			TakeProfit: rng.Intn(2) == 0, TakeProfitPercent: decimal.RequireFromString(pcts[rng.Intn(len(pcts))])}
		step := steps[rng.Intn(len(steps))]
		price := decimal.New(rng.Int63n(1e9)+1, int32(-rng.Intn(6)))
		qty := decimal.New(rng.Int63n(1e8)+1, -8)
		free := qty
		switch rng.Intn(4) {
		case 0:
			free = qty.Div(decimal.NewFromInt(3)).Truncate(8) // a SELL came first
		case 1:
			free = decimal.Zero
		case 2:
			free = qty.Add(decimal.New(rng.Int63n(1e8), -8)) // more is free than the fill
		}
		ids := rng.Intn(2) == 0
		parent := domain.Order{ID: "o-1", Symbol: "BTC-USD", Strategy: "s", StrategyVersion: 3, UserID: "u"}
		got := ProtectiveOrders(p.Protection(), ProtectiveFill{Parent: parent, Key: "k", ClientIDs: ids, Price: price, Quantity: qty, Free: free, Step: step})
		wantQty := decimal.Min(qty, free)
		var want []domain.OrderRequest
		if wantQty.IsPositive() {
			base := domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Sell, Quantity: wantQty, Strategy: "s", StrategyVersion: 3, UserID: "u", GroupID: "protect-k", ParentID: "o-1"}
			if p.StopLoss && p.StopLossPercent.IsPositive() {
				r := base
				stop := price.Mul(decimal.NewFromInt(1).Sub(p.StopLossPercent)).Div(step).Floor().Mul(step)
				r.Type, r.StopPrice = domain.StopLoss, &stop
				if p.TrailingStop {
					pct := p.StopLossPercent.Mul(decimal.NewFromInt(100))
					r.Type, r.StopPrice, r.Trail = domain.TrailingStop, nil, &domain.Trail{Percent: &pct}
				}
				if ids {
					r.ClientOrderID = "sl-k"
				}
				want = append(want, r)
			}
			if p.TakeProfit && p.TakeProfitPercent.IsPositive() {
				r := base
				limit := price.Mul(decimal.NewFromInt(1).Add(p.TakeProfitPercent)).Div(step).Ceil().Mul(step)
				r.Type, r.Price = domain.Limit, &limit
				if ids {
					r.ClientOrderID = "tp-k"
				}
				want = append(want, r)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("%+v, fill %s x %s (free %s): %d orders, want %d", p, qty, price, free, len(got), len(want))
		}
		for j := range got {
			if g, w := show(got[j]), show(want[j]); g != w {
				t.Fatalf("%+v, fill %s x %s (free %s):\n got %s\nwant %s", p, qty, price, free, g, w)
			}
		}
	}
}

// show is a request with its prices' shapes (exponents), to compare.
func show(r domain.OrderRequest) string {
	s := func(d *decimal.Decimal) string {
		if d == nil {
			return "-"
		}
		return d.Coefficient().String() + "e" + decimal.NewFromInt(int64(d.Exponent())).String()
	}
	trail := "-"
	if r.Trail != nil {
		trail = s(r.Trail.Percent)
	}
	return string(r.Type) + " " + r.Symbol + " " + string(r.Side) + " " + s(&r.Quantity) + " stop " + s(r.StopPrice) + " limit " + s(r.Price) +
		" trail " + trail + " " + r.ClientOrderID + " " + r.GroupID + " " + r.ParentID + " " + r.Strategy + " " + decimal.NewFromInt(int64(r.StrategyVersion)).String() + " " + r.UserID
}
