package smacross

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/candles"
)

// walk is a seeded random walk of n hourly bars around 100.
func walk(seed uint64, n int) []candles.Bar {
	rng := rand.New(rand.NewPCG(seed, 1))
	bars := make([]candles.Bar, n)
	price := int64(100 * unit)
	for i := range bars {
		open := price
		price += (rng.Int64N(201) - 100) * unit / 100 // -1.00 .. +1.00 in cents
		price = max(price, unit)
		bars[i] = candles.Bar{Time: t0.Add(time.Duration(i) * time.Hour).UnixNano(), Open: open, High: max(open, price), Low: min(open, price), Close: price}
	}
	return bars
}

var walkParams = Params{Fast: 3, Slow: 8, Capital: 10_000 * unit, FeeRate: 600_000, SlippageBps: 5}

// Every fill of a run over the first k candles is a fill of the run over all
// of them, and the other way round up to candle k-1: what happens up to
// candle k-1 cannot depend on candles after it.
func TestDecisionsUseOnlyThePast(t *testing.T) {
	bars := walk(7, 400)
	full := mustRun(t, bars, walkParams)
	if len(full.Fills) < 10 {
		t.Fatalf("the walk should trade: %d fills", len(full.Fills))
	}
	for k := 1; k <= len(bars); k++ {
		prefix := mustRun(t, bars[:k], walkParams)
		want := fillsUpTo(full.Fills, bars[k-1].Time)
		got := fillsUpTo(prefix.Fills, bars[k-1].Time)
		if len(got) != len(want) {
			t.Fatalf("k=%d: %d fills on the prefix, %d on the whole series up to then", k, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("k=%d fill %d: %+v on the prefix, %+v on the whole series", k, i, got[i], want[i])
			}
		}
	}
}

func fillsUpTo(fills []Fill, t int64) []Fill {
	var out []Fill
	for _, f := range fills {
		if f.Time <= t && !f.EndOfData {
			out = append(out, f)
		}
	}
	return out
}

// A cross up at the close of candle 9 buys at the open of candle 10. Two
// futures follow: one rallies, one crashes. A strategy that could see the
// future would buy only before the rally; this one buys the same quantity at
// the same price in both, and only the end-of-data sale differs.
func TestTheFutureDoesNotChangeTheDecision(t *testing.T) {
	past := []string{"10/10", "10/10", "10/10", "10/10", "10/9", "9/8", "8/7", "7/7", "7/7", "7/12"}
	rally := hourly(t, append(past, "12/13", "13/20", "20/30")...)
	crash := hourly(t, append(past, "12/11", "11/5", "5/1")...)
	p := Params{Fast: 2, Slow: 4, Capital: 1000 * unit, FeeRate: 600_000}
	a, b := mustRun(t, rally, p), mustRun(t, crash, p)
	if len(a.Fills) != 2 || len(b.Fills) != 2 {
		t.Fatalf("rally fills %v, crash fills %v", ledgerLines(a), ledgerLines(b))
	}
	if a.Fills[0] != b.Fills[0] || a.Fills[0].Time != rally[10].Time || a.Fills[0].Price != 12*unit {
		t.Errorf("the buys differ or are not at the open of candle 10: %v / %v", ledgerLines(a), ledgerLines(b))
	}
}

// Cash is exact: the final equity equals the capital less every buy's
// notional and fee plus every sell's notional less its fee, summed in
// decimals from the fills.
func TestFinalEquityIsTheSumOfTheFills(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		r := mustRun(t, walk(seed, 2000), walkParams)
		cash := decimal.New(r.Capital, -8)
		for _, f := range r.Fills {
			notional := decimal.New(f.Price, -8).Mul(decimal.New(f.Quantity, -8))
			fee := decimal.New(f.Fee, -8)
			if want := notional.Mul(decimal.New(r.FeeRate, -8)).Round(8); !fee.Equal(want) {
				t.Fatalf("seed %d: fee %s on notional %s, want %s", seed, fee, notional, want)
			}
			if f.Side == Buy {
				cash = cash.Sub(notional).Sub(fee)
			} else {
				cash = cash.Add(notional).Sub(fee)
			}
		}
		if got := decimal.RequireFromString(r.FinalEquity()); !got.Equal(cash) {
			t.Fatalf("seed %d: final equity %s, fills sum to %s", seed, got, cash)
		}
	}
}
