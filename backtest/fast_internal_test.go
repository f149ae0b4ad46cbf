package backtest

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/candles"
	"kestrel/domain"
	market "kestrel/replay"
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

// spreadGrid quotes as market.BidAsk does, value and shape, on the shipped
// products' grids and a few others; what it cannot hold it declines.
func TestSpreadGridIsBidAsk(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	halves := []string{"0.00005", "0.0001", "0.001", "0.25", "0.0000123"}
	steps := []string{"0.01", "0.0001", "1", "0.000001", "0.10", "0.05", "0.5", "10"}
	compared := 0
	for range 200000 {
		half, step := decimal.RequireFromString(halves[r.IntN(len(halves))]), decimal.RequireFromString(steps[r.IntN(len(steps))])
		px := decimal.New(1+r.Int64N(1<<r.IntN(50)), -int32(r.IntN(11)))
		if r.IntN(5) == 0 {
			px = decimal.RequireFromString(px.String()) // fewest decimals, as the store gives them
		}
		wb, wa := market.BidAsk(px, half, step)
		gb, ga, ok := newSpreadGrid(half, step).bidAsk(px)
		if !ok {
			continue
		}
		compared++
		if !gb.Equal(wb) || !ga.Equal(wa) || gb.Exponent() != wb.Exponent() || ga.Exponent() != wa.Exponent() {
			t.Fatalf("bidAsk(%s, %s, %s) = %s %s, want %s %s", px, half, step, gb, ga, wb, wa)
		}
	}
	if compared < 50000 {
		t.Fatalf("only %d of 200,000 quotes compared", compared)
	}
	if _, _, ok := newSpreadGrid(decimal.RequireFromString("0.00005"), decimal.RequireFromString("0.01")).bidAsk(decimal.RequireFromString("63857.3")); !ok {
		t.Fatal("a shipped price on the shipped grid is declined")
	}
}

// spacing is the median positive gap, whether the candles are evenly
// spaced (found without sorting) or not.
func TestSpacingIsTheMedianGap(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for range 2000 {
		n := r.IntN(40) + r.IntN(2)*r.IntN(300) // some long enough for many distinct gaps
		wild := r.IntN(3) == 0
		cs := make([]domain.Candle, n)
		at := t0
		for i := range cs {
			cs[i].Time = at
			if wild && r.IntN(3) == 0 {
				at = at.Add(time.Duration(1+r.IntN(200)) * time.Minute) // gaps of many lengths (more than are counted)
				continue
			}
			switch r.IntN(20) {
			case 0:
				at = at.Add(time.Duration(r.IntN(5)) * time.Hour) // a gap, or a repeated time
			case 1:
				at = at.Add(-time.Minute)
			default:
				at = at.Add(time.Hour)
			}
		}
		var gaps []time.Duration
		for i := 1; i < n; i++ {
			if g := cs[i].Time.Sub(cs[i-1].Time); g > 0 {
				gaps = append(gaps, g)
			}
		}
		want := time.Hour
		if len(gaps) > 0 {
			slices.Sort(gaps)
			want = gaps[len(gaps)/2]
		}
		if got := spacing(cs); got != want {
			t.Fatalf("spacing of %d candles = %v, want %v", n, got, want)
		}
		bars := make([]candles.Bar, n) // the same times as bars: what a run given Request.Bars reads
		for i := range bars {
			bars[i].Time = cs[i].Time.UnixNano()
		}
		if got := (&run{lazy: &lazy{bars: bars, t: -1}}).spacing(); got != want {
			t.Fatalf("spacing of %d bars = %v, want %v", n, got, want)
		}
	}
}

// TestSpreadGridRemembers: one grid quoting prices again and again (its
// remembered quotes hit and are replaced) still gives market.BidAsk.
func TestSpreadGridRemembers(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, hs := range [][2]string{{"0.00005", "0.01"}, {"0.001", "0.0001"}, {"0.0000123", "1"}} {
		half, step := decimal.RequireFromString(hs[0]), decimal.RequireFromString(hs[1])
		g := newSpreadGrid(half, step)
		pool := make([]decimal.Decimal, 7)
		for i := range pool {
			pool[i] = decimal.New(1+r.Int64N(1<<40), -int32(r.IntN(9)))
		}
		for range 20000 {
			px := pool[r.IntN(len(pool))]
			wb, wa := market.BidAsk(px, half, step)
			gb, ga, ok := g.bidAsk(px)
			if ok && (!gb.Equal(wb) || !ga.Equal(wa) || gb.Exponent() != wb.Exponent() || ga.Exponent() != wa.Exponent()) {
				t.Fatalf("bidAsk(%s, %s, %s) = %s %s, want %s %s", px, half, step, gb, ga, wb, wa)
			}
		}
	}
}
