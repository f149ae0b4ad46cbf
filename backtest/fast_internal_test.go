package backtest

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"
)

// float and ratio16 round as decimal does, for any value they accept.
func TestFixedRoundsAsDecimal(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 200000 {
		x := u128{hi: r.Uint64N(1 << r.IntN(27)), lo: r.Uint64()}
		if r.IntN(3) == 0 {
			x.lo = x.lo / 1000000 * 1000000 // trailing zeros, as prices have
		}
		if r.IntN(4) == 0 {
			x.hi = 0
		}
		scale := 8 + r.IntN(9)
		got, ok := float(x, scale)
		want := decimal.NewFromBigInt(x.big(), int32(-scale)).InexactFloat64()
		if !ok || got != want {
			t.Fatalf("float(%v, %d) = %v %v, want %v", x.big(), scale, got, ok, want)
		}
	}
	for range 200000 {
		d := 1 + r.Uint64N(1<<r.IntN(50))
		n := r.Uint64N(d * (1 + r.Uint64N(3)))
		neg := r.IntN(2) == 0
		got, ok := ratio16(n, d, neg)
		if !ok {
			continue
		}
		a := decimal.NewFromBigInt(new(big.Int).SetUint64(n), 0)
		if neg {
			a = a.Neg()
		}
		want := a.Div(decimal.NewFromBigInt(new(big.Int).SetUint64(d), 0)).InexactFloat64()
		if got != want {
			t.Fatalf("ratio16(%d, %d, %v) = %v, want %v", n, d, neg, got, want)
		}
	}
}
