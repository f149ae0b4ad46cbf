package domain

import (
	"math/rand"
	"testing"

	"github.com/shopspring/decimal"
)

// TestIntegerDecimalOps: Plus, Minus, Times and Neg give what Add, Sub,
// Mul and Neg give, coefficient and exponent, over operands of every
// shape: zero values, negative ones, exponents above zero, coefficients
// of 18 digits and beyond 64 bits.
func TestIntegerDecimalOps(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	one := func() decimal.Decimal {
		switch rng.Intn(12) {
		case 0:
			return decimal.Decimal{}
		case 1:
			return decimal.Zero
		case 2:
			return decimal.RequireFromString("123456789012345678901234.5")
		case 3:
			return decimal.New(rng.Int63n(1e18)-5e17, int32(rng.Intn(20)-10))
		}
		c := rng.Int63n(1 << uint(rng.Intn(62)+1))
		if rng.Intn(3) == 0 {
			c = -c
		}
		return decimal.New(c, int32(rng.Intn(24)-16))
	}
	same := func(op string, a, b, got, want decimal.Decimal) {
		t.Helper()
		if got.Coefficient().Cmp(want.Coefficient()) != 0 || got.Exponent() != want.Exponent() {
			t.Fatalf("%s(%s, %s) = %s (exp %d), want %s (exp %d)", op, a, b, got, got.Exponent(), want, want.Exponent())
		}
	}
	for i := 0; i < 300000; i++ {
		a, b := one(), one()
		same("Plus", a, b, Plus(a, b), a.Add(b))
		same("Minus", a, b, Minus(a, b), a.Sub(b))
		same("Times", a, b, Times(a, b), a.Mul(b))
		same("Neg", a, b, Neg(a), a.Neg())
		if got, want := Cmp(a, b), a.Cmp(b); got != want {
			t.Fatalf("Cmp(%s, %s) = %d, want %d", a, b, got, want)
		}
		if rng.Intn(4) == 0 {
			if got, want := Cmp(a, a.Add(decimal.Zero)), 0; got != want { // equal values, maybe of another shape
				t.Fatalf("Cmp(%s, %s) = %d, want 0", a, a, got)
			}
		}
		same("Min", a, b, Min(a, b), decimal.Min(a, b))
		if !b.IsZero() {
			same("Div", a, b, Div(a, b), a.Div(b))
			same("DivFloor", a, b, DivFloor(a, b), a.Div(b).Floor())
		}
		same("Floor", a, b, Floor(a), a.Floor())
		places := int32(rng.Intn(20) - 4)
		same("Round", a, decimal.New(int64(places), 0), Round(a, places), a.Round(places))
	}
}

// TestDivFloorSizes: DivFloor over what sizing divides: a quotient at 16
// places by a size step, the whole number of steps (beyond 64 bits at 16
// places), and the notional by the price paid.
func TestDivFloorSizes(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	steps := []decimal.Decimal{decimal.New(1, -8), decimal.New(1, -2), decimal.RequireFromString("0.00100"), decimal.New(5, -1)}
	for i := 0; i < 200000; i++ {
		q := decimal.New(rng.Int63n(1e18), -16)
		step := steps[rng.Intn(len(steps))]
		if got, want := DivFloor(q, step), q.Div(step).Floor(); got.Coefficient().Cmp(want.Coefficient()) != 0 || got.Exponent() != want.Exponent() {
			t.Fatalf("DivFloor(%s, %s) = %s, want %s", q, step, got, want)
		}
		n, p := decimal.New(rng.Int63n(1e17), -int32(rng.Intn(14))), decimal.New(rng.Int63n(1e10)+1, -int32(rng.Intn(9)))
		if got, want := Div(n, p), n.Div(p); got.Coefficient().Cmp(want.Coefficient()) != 0 || got.Exponent() != want.Exponent() {
			t.Fatalf("Div(%s, %s) = %s, want %s", n, p, got, want)
		}
	}
}
