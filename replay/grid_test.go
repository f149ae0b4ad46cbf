package replay

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"
)

// The fast rounding gives exactly what the decimal arithmetic gives.
func TestGridRoundsAsDecimalsDo(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ticks := []decimal.Decimal{decimal.New(1, -2), decimal.New(1, -4), decimal.New(1, -8), decimal.New(1, 0), decimal.New(5, -3)}
	xs := []float64{0, 1.005, 0.125, 2.5, 1e-9, 0.00005, 0.000049999, 64321.125, 0.45675, 99999.995, 1e15, 123456789.123456}
	for range 200_000 {
		mag := math.Pow(10, float64(rng.IntN(14)-6))
		xs = append(xs, rng.Float64()*mag)
	}
	for _, tick := range ticks {
		g := newGrid(tick)
		for _, x := range xs {
			want := decimal.NewFromFloat(x).Div(tick).Round(0).Mul(tick)
			if got := g.round(x); !got.Equal(want) || got.String() != want.String() {
				t.Fatalf("tick %s, x %v: %s, want %s", tick, x, got, want)
			}
		}
	}
}
