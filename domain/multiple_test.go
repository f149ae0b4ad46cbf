package domain

import (
	"math/rand"
	"testing"

	"github.com/shopspring/decimal"
)

// TestMultipleOfIsMod: the integer test agrees with x.Mod(step).IsZero()
// on quantities and prices of every shape (exponents above and below the
// step's, negative values, coefficients too long for 64 bits).
func TestMultipleOfIsMod(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	steps := []decimal.Decimal{decimal.New(1, -8), decimal.New(1, -2), decimal.New(5, -3), decimal.New(25, 0), decimal.New(1, 2),
		decimal.New(10, -3), decimal.New(3, -1), decimal.RequireFromString("0.00000100")}
	for i := 0; i < 200000; i++ {
		step := steps[rng.Intn(len(steps))]
		c := rng.Int63n(1_000_000_000_000)
		if rng.Intn(4) == 0 {
			c = -c
		}
		if rng.Intn(3) == 0 {
			c = c / 1000 * 1000
		}
		x := decimal.New(c, int32(rng.Intn(14)-10))
		if rng.Intn(50) == 0 {
			x = x.Mul(decimal.RequireFromString("100000000000000000000000")) // beyond 64 bits
		}
		if got, want := multipleOf(x, step), x.Mod(step).IsZero(); got != want {
			t.Fatalf("multipleOf(%s, %s) = %v, Mod says %v", x, step, got, want)
		}
	}
}
