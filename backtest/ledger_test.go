package backtest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/backtest"
	"kestrel/candles"
	"kestrel/domain"
	"kestrel/replay"
	"kestrel/strategy"
	"kestrel/trading"
)

// The fast path's ledger books the events of a run that trades with a
// plain protective stop (a BUY with its stop, a SELL that cancels it, a
// stop that triggers, at the open or on the way down) and hands the
// account back to the engine when the general code needs it; over whole
// histories of every shipped product (price grids of 2 to 4 decimals),
// with and without the live half-spread and with stops from 0.5% to 5%,
// its fills, trades and report are the reference engine's.
func TestLedgerRunIsTheReference(t *testing.T) {
	cases := []struct {
		symbol string
		from   int
		n      int
		stop   string
	}{
		{"BTC-USD", 0, 1 << 30, "0.02"}, // the benchmark's run: the whole history
		{"BTC-USD", 20000, 30000, "0.005"},
		{"ETH-USD", 0, 40000, "0.01"},
		{"SOL-USD", 10000, 40000, "0.05"},
		{"ADA-USD", 0, 40000, "0.01"},
	}
	def := *strategy.DefaultIndicators()
	for _, c := range cases {
		for _, half := range []decimal.Decimal{decimal.Zero, replay.LiveHalfSpread} {
			t.Run(fmt.Sprintf("%s from %d, stop %s, half-spread %s", c.symbol, c.from, c.stop, half), func(t *testing.T) {
				_, cs := history(t, c.symbol, 15*time.Minute, c.from, c.n)
				var product domain.Product
				for _, p := range candles.Products() {
					if p.Symbol == c.symbol {
						product = p
					}
				}
				run := func(reference bool) backtest.Result {
					req := request(strategy.NewTechnical(def), cs, func(p *trading.Policy) {
						p.StopLoss, p.StopLossPercent = true, d(c.stop)
						unlimited(p)
					})
					req.Symbol, req.Product, req.Warmup, req.Reference, req.HalfSpread = product.Symbol, product, def.Warmup(), reference, half
					res, err := backtest.Run(context.Background(), req)
					if err != nil {
						t.Fatal(err)
					}
					return res
				}
				ref := run(true)
				compare(t, ref, run(false))
				stops := 0
				for _, f := range ref.Fills {
					if f.Reason == "stop_loss" {
						stops++
					}
				}
				if ref.TotalTrades < 100 || stops < 10 {
					t.Fatalf("%d trades, %d stops: the comparison proves little", ref.TotalTrades, stops)
				}
				t.Logf("%d candles, %d trades, %d fills, %d stops", len(cs), ref.TotalTrades, len(ref.Fills), stops)
			})
		}
	}
}
