package backtest

import (
	"encoding/json"
	"math/rand"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// TestRoundTripsFixedIsRoundTrips: the integer round trips (and the fees
// paid) are the decimal ones, value for value and in JSON, over random
// fills: partial entries and exits, prices of 2 to 8 decimals and whole
// ones, a SELL before any BUY, a trade left open at the end.
func TestRoundTripsFixedIsRoundTrips(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for run := 0; run < 3000; run++ {
		dec := rng.Intn(9) // the prices' decimals
		var fills []Fill
		now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
		held := int64(0)
		if rng.Intn(5) == 0 {
			fills = append(fills, Fill{Side: domain.Sell, Time: now, Price: decimal.New(100, 0), Quantity: decimal.New(1, -3), Fee: decimal.New(6, -4), Reason: "signal"})
		}
		for i := 0; i < 40; i++ {
			now = now.Add(15 * time.Minute)
			px := decimal.New(rng.Int63n(10_000_000)+1, int32(-dec))
			side, q := domain.Buy, rng.Int63n(50_000_000)+1
			if held > 0 && rng.Intn(2) == 0 {
				side = domain.Sell
				if rng.Intn(2) == 0 {
					q = held
				} else {
					q = min(q, held)
				}
			}
			if side == domain.Buy {
				held += q
			} else {
				held -= q
			}
			qty := decimal.New(q, -8)
			fee := qty.Mul(px).Mul(decimal.RequireFromString("0.006")).Round(8)
			fills = append(fills, Fill{Side: side, Time: now, Price: px, Quantity: qty, Fee: fee, Reason: "signal"})
		}
		got, fees, ok := roundTripsFixed(fills, nil)
		if !ok {
			t.Fatalf("run %d: the integers did not hold it", run)
		}
		want, wantFees := roundTrips(fills), decimal.Zero
		for _, f := range fills {
			wantFees = wantFees.Add(f.Fee)
		}
		if !fees.Equal(wantFees) {
			t.Fatalf("run %d: fees %s, want %s", run, fees, wantFees)
		}
		a, _ := json.Marshal(got)
		b, _ := json.Marshal(want)
		if string(a) != string(b) {
			t.Fatalf("run %d:\n got %s\nwant %s", run, a, b)
		}
	}
}

// TestOnGridIsDivFloorMul: a protective order's price in integers is
// px.Mul(m).Div(step).Floor().Mul(step) (Ceil for a take-profit), value
// and shape, wherever onGrid takes it.
func TestOnGridIsDivFloorMul(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	steps := []decimal.Decimal{decimal.New(1, -2), decimal.RequireFromString("0.010"), decimal.New(1, -8), decimal.New(1, 0), decimal.New(10, 0), decimal.New(5, -2)}
	ms := []decimal.Decimal{decimal.RequireFromString("0.98"), decimal.RequireFromString("1.05"), decimal.RequireFromString("0.9975"), decimal.RequireFromString("0.123456789")}
	taken := 0
	for i := 0; i < 100000; i++ {
		px := decimal.New(rng.Int63n(1e10)+1, int32(-rng.Intn(9)))
		m, step, ceil := ms[rng.Intn(len(ms))], steps[rng.Intn(len(steps))], rng.Intn(2) == 0
		got, ok := onGrid(px, m, step, ceil)
		if !ok {
			continue
		}
		taken++
		want := px.Mul(m).Div(step).Floor().Mul(step)
		if ceil {
			want = px.Mul(m).Div(step).Ceil().Mul(step)
		}
		if got.Coefficient().Cmp(want.Coefficient()) != 0 || got.Exponent() != want.Exponent() {
			t.Fatalf("onGrid(%s, %s, %s, %v) = %s (exp %d), want %s (exp %d)", px, m, step, ceil, got, got.Exponent(), want, want.Exponent())
		}
	}
	if taken < 50000 {
		t.Fatalf("only %d of 100,000 taken", taken)
	}
}
