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
		places := int32(rng.Intn(20) - 4)
		same("Round", a, decimal.New(int64(places), 0), Round(a, places), a.Round(places))
	}
}
