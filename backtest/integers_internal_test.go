package backtest

import (
	"encoding/json"
	"math/rand"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/strategy"
	"kestrel/trading"
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

// TestLedgerSizeIsBuyQuantity: the ledger's integer sizing gives
// strategy.BuyQuantity's quantity (value and shape) or its refusal, over
// random cash, prices on grids of 2 to 8 decimals and off them, and
// several limits and configurations.
func TestLedgerSizeIsBuyQuantity(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	taken := 0
	for i := 0; i < 50000; i++ {
		cfg := strategy.Default(domain.StrategyTechnical, "test")
		cfg.MaxPositionSize, cfg.RiskMultiplier = []float64{0.15, 0.1, 0.333, 1}[rng.Intn(4)], []float64{1.2, 1, 0.7}[rng.Intn(3)]
		lim := trading.DefaultPolicy().Limits
		if rng.Intn(3) == 0 {
			lim.MaxTradeAmount = decimal.New(rng.Int63n(1e6)+1, -int32(rng.Intn(3)))
		}
		if rng.Intn(3) == 0 {
			lim.MinTradeAmount = decimal.New(rng.Int63n(1e4), -int32(rng.Intn(3)))
		}
		ps := rng.Intn(7) + 2
		step := []decimal.Decimal{decimal.New(1, -8), decimal.New(1, -4), decimal.RequireFromString("0.0010"), decimal.New(1, 0)}[rng.Intn(4)]
		r := &run{req: Request{Config: cfg, Product: domain.Product{SizeIncrement: step}}, sizing: strategy.NewSizing(cfg, lim),
			led: &ledger{ps: ps, cash: rng.Int63n(1 << uint(rng.Intn(50)+10))}}
		paid, paidExp := rng.Int63n(1<<uint(rng.Intn(40)+1))+1, -[]int{ps, 8}[rng.Intn(2)]
		q, qty, why, ok := r.ledgerSize(paid, paidExp)
		if !ok {
			continue
		}
		taken++
		value := decimal.New(r.led.cash, -int32(r.led.scale()))
		wq, _, atTarget := r.sizing.BuyQuantity(value, decimal.Zero, decimal.New(paid, int32(paidExp)), step)
		switch {
		case atTarget:
			if why != msgAtTarget {
				t.Fatalf("case %d: %q, want at target", i, why)
			}
		case !wq.IsPositive():
			if why != "Order size rounds to zero" {
				t.Fatalf("case %d: %q (%s), want rounds to zero", i, why, qty)
			}
		default:
			if why != "" || qty.Coefficient().Cmp(wq.Coefficient()) != 0 || qty.Exponent() != wq.Exponent() {
				t.Fatalf("case %d: %s (exp %d) %q, want %s (exp %d)", i, qty, qty.Exponent(), why, wq, wq.Exponent())
			}
			if x, ok := fixedAt(wq, 8); ok && x != q {
				t.Fatalf("case %d: q %d, want %d", i, q, x)
			}
		}
	}
	if taken < 25000 {
		t.Fatalf("only %d of 50,000 taken", taken)
	}
}
