package strategy

import (
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"

	"kestrel/candles"
)

// Float must be InexactFloat64 bit for bit: indicators, and so decisions,
// depend on it.
func TestFloatIsInexactFloat64(t *testing.T) {
	check := func(d decimal.Decimal) {
		want := d.InexactFloat64()
		if got := Float(d); got != want {
			t.Fatalf("Float(%s) = %v, want %v", d, got, want)
		}
		if d.NumDigits() <= 18 {
			if got, ok := FixedFloat(d.CoefficientInt64(), d.Exponent()); ok && got != want {
				t.Fatalf("FixedFloat(%s) = %v, want %v", d, got, want)
			}
		}
	}
	for _, sym := range []string{"BTC-USD", "ETH-USD", "SOL-USD", "ADA-USD"} {
		s, err := candles.Load(sym)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < s.Len(); i++ {
			c := s.Candle(i)
			check(c.Close)
			check(c.Volume)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		check(decimal.New(r.Int64N(1<<62)>>r.IntN(62)-r.Int64N(1000), int32(r.IntN(50)-30)))
	}
	for _, s := range []string{"0", "-0.1", "0.3", "123456789012345.6", "1e30", "1e-30", "99999999999999999999.99"} {
		check(decimal.RequireFromString(s))
	}
}
