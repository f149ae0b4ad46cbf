package paper_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/candles"
	"kestrel/domain"
	"kestrel/exchange/paper"
)

func benchEngine(b *testing.B, resting int) *paper.Engine {
	e := paper.New(paper.Config{Products: candles.Products(), MakerFee: d("0.004"), TakerFee: d("0.006")})
	e.Deposit("USD", decimal.NewFromInt(1e12))
	e.OnQuote(t0, paper.Quote{Symbol: "BTC-USD", Last: d("50000"), Bid: d("49999.99"), Ask: d("50000.01")})
	for i := 0; i < resting; i++ {
		px := decimal.NewFromInt(int64(40000 - i%5000))
		if _, _, err := e.Place(t0, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.01"), Price: &px}); err != nil {
			b.Fatal(err)
		}
	}
	return e
}

// BenchmarkPlaceRestingLimit: one resting limit order through the engine
// (validation, hold, heap insert), without a journal.
func BenchmarkPlaceRestingLimit(b *testing.B) {
	e := benchEngine(b, 0)
	px := d("40000")
	req := domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.01"), Price: &px}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, _, err := e.Place(t0.Add(time.Duration(i)), req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQuoteCrossingNothing: a quote (with a range) against n resting
// orders that none of it reaches; the cost must not grow with n.
func BenchmarkQuoteCrossingNothing(b *testing.B) {
	for _, n := range []int{100, 10_000} {
		b.Run(fmt.Sprintf("resting=%d", n), func(b *testing.B) {
			e := benchEngine(b, n)
			q := paper.Quote{Symbol: "BTC-USD", Last: d("50000"), Bid: d("49999.99"), Ask: d("50000.01"), Low: d("49900"), High: d("50100")}
			b.ReportAllocs()
			for b.Loop() {
				e.OnQuote(t0, q)
			}
		})
	}
}

// BenchmarkQuoteTrailing: a quote making a new high, with n resting limits
// and one trailing stop that follows it (mark and stop moved and recorded,
// the book re-keyed), against the same quote with no trailing stop.
func BenchmarkQuoteTrailing(b *testing.B) {
	for _, trailing := range []int{0, 1, 10} {
		b.Run(fmt.Sprintf("resting=10000/trailing=%d", trailing), func(b *testing.B) {
			e := benchEngine(b, 10_000)
			if _, _, err := e.Place(t0, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("100")}); err != nil {
				b.Fatal(err)
			}
			for i := 0; i < trailing; i++ {
				if _, _, err := e.Place(t0, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Sell, Type: domain.TrailingStop, Quantity: d("1"),
					Trail: &domain.Trail{Percent: dp("2")}}); err != nil {
					b.Fatal(err)
				}
			}
			px := d("50000")
			step := d("0.01")
			b.ReportAllocs()
			for b.Loop() {
				px = px.Add(step) // a new high every quote: every trailing stop moves
				e.OnQuote(t0, paper.Quote{Symbol: "BTC-USD", Last: px, Bid: px.Sub(step), Ask: px.Add(step)})
			}
		})
	}
}
