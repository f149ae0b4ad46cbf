package paper

import (
	"math/rand"
	"testing"

	"github.com/shopspring/decimal"
)

// TestStepsIsDivCeilMul: where steps takes a price, the taker price it
// gives is Div(step).Ceil().Mul(step) (and Floor), value and shape.
func TestStepsIsDivCeilMul(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for _, step := range []decimal.Decimal{decimal.New(1, -2), decimal.New(1, -8), decimal.New(5, -3), decimal.New(1, 0), decimal.RequireFromString("0.0100")} {
		for i := 0; i < 50000; i++ {
			px := decimal.New(rng.Int63n(1e12)+1, int32(rng.Intn(12)-9))
			n, ok := steps(px, step)
			if !ok {
				if px.Mod(step).IsZero() && px.Div(step).LessThan(decimal.New(1, 15)) {
					t.Fatalf("steps(%s, %s) refused a whole number of steps", px, step)
				}
				continue
			}
			got := decimal.New(n*step.CoefficientInt64(), step.Exponent())
			for _, want := range []decimal.Decimal{px.Mul(one).Div(step).Ceil().Mul(step), px.Mul(one).Div(step).Floor().Mul(step)} {
				if got.Coefficient().Cmp(want.Coefficient()) != 0 || got.Exponent() != want.Exponent() {
					t.Fatalf("steps(%s, %s): %s (exp %d), want %s (exp %d)", px, step, got, got.Exponent(), want, want.Exponent())
				}
			}
		}
	}
}
