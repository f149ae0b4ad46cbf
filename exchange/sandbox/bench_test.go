package sandbox_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/shopspring/decimal"

	"kestrel/candles"
	"kestrel/domain"
	"kestrel/exchange/sandbox"
)

// memLedger stores nothing, so the benchmark measures matching alone.
type memLedger struct{}

func (memLedger) ApplyLedger(context.Context, domain.LedgerChange) error { return nil }
func (memLedger) LedgerOrder(context.Context, string) (domain.Order, error) {
	return domain.Order{}, domain.Errorf(domain.ENotFound, "no")
}
func (memLedger) LedgerOrderByClientID(context.Context, string, string) (domain.Order, error) {
	return domain.Order{}, domain.Errorf(domain.ENotFound, "no")
}
func (memLedger) LedgerOrders(context.Context, domain.OrderFilter) ([]domain.Order, error) {
	return nil, nil
}
func (memLedger) LedgerLiveOrders(context.Context) ([]domain.Order, error) { return nil, nil }
func (memLedger) LedgerFills(context.Context, domain.FillFilter) ([]domain.Fill, error) {
	return nil, nil
}
func (memLedger) LedgerBalances(context.Context) ([]domain.Balance, error)         { return nil, nil }
func (memLedger) LedgerClientOrderIDs(context.Context, func(string, string)) error { return nil }
func (memLedger) LedgerPositions(context.Context) ([]domain.PositionBook, error) {
	return nil, nil
}

// BenchmarkTickWithRestingOrders: a tick that crosses nothing, with n resting
// buy limits below the market. Cost must not grow with n.
func BenchmarkTickWithRestingOrders(b *testing.B) {
	for _, n := range []int{100, 10_000} {
		b.Run(fmt.Sprintf("resting=%d", n), func(b *testing.B) {
			ctx := context.Background()
			p := &prices{p: map[string]decimal.Decimal{}}
			p.set("BTC-USD", "50000")
			sb, err := sandbox.New(ctx, memLedger{}, p, bigAccount())
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < n; i++ {
				px := decimal.NewFromInt(int64(40000 - i%5000))
				if _, err := sb.PlaceOrder(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: decimal.NewFromInt(1), Price: &px}); err != nil {
					b.Fatal(err)
				}
			}
			t := domain.Tick{Symbol: "BTC-USD", Price: decimal.NewFromInt(50000)}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := sb.OnTick(ctx, t); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTickFillingOneOrder: each tick fills the best of n resting orders
// (a new one is placed to keep n constant).
func BenchmarkTickFillingOneOrder(b *testing.B) {
	for _, n := range []int{100, 10_000} {
		b.Run(fmt.Sprintf("resting=%d", n), func(b *testing.B) {
			ctx := context.Background()
			p := &prices{p: map[string]decimal.Decimal{}}
			p.set("BTC-USD", "50000")
			sb, err := sandbox.New(ctx, memLedger{}, p, bigAccount())
			if err != nil {
				b.Fatal(err)
			}
			px := decimal.NewFromInt(40000)
			for i := 0; i < n; i++ {
				if _, err := sb.PlaceOrder(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: decimal.NewFromInt(1), Price: &px}); err != nil {
					b.Fatal(err)
				}
			}
			hit := decimal.NewFromInt(45000)
			t := domain.Tick{Symbol: "BTC-USD", Price: decimal.NewFromInt(45000)}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				if _, err := sb.PlaceOrder(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: decimal.NewFromInt(1), Price: &hit}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if err := sb.OnTick(ctx, t); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func bigAccount() sandbox.Options {
	o := sandbox.DefaultOptions(candles.Products())
	o.StartingUSD = decimal.NewFromInt(1e12)
	return o
}
