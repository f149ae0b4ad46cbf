package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// RunLedger is the contract for domain.LedgerStore.
func RunLedger(t *testing.T, s domain.LedgerStore) {
	ctx := context.Background()
	price := dec("60000.01")
	o := domain.Order{ID: "o1", ClientOrderID: "c1", Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: dec("0.12345678"),
		Price: &price, FilledQuantity: decimal.Zero, Fee: decimal.Zero, Status: domain.StatusOpen, Strategy: "manual", UserID: "u1", CreatedAt: at, UpdatedAt: at}
	usd := domain.Balance{Currency: "USD", Available: dec("92592.59"), Hold: dec("7407.41")}
	if err := s.ApplyLedger(ctx, domain.LedgerChange{Orders: []domain.Order{o}, Balances: []domain.Balance{usd}}); err != nil {
		t.Fatal(err)
	}
	got, err := s.LedgerOrder(ctx, "o1")
	if err != nil || !got.Price.Equal(price) || got.StopPrice != nil || got.AvgFillPrice != nil || got.Quantity.String() != "0.12345678" || got.Status != domain.StatusOpen || !got.CreatedAt.Equal(at) {
		t.Fatalf("LedgerOrder = %+v, %v", got, err)
	}
	dup := o
	dup.ID = "o2"
	if err := s.ApplyLedger(ctx, domain.LedgerChange{Orders: []domain.Order{dup}}); domain.ErrorCode(err) != domain.EConflict {
		t.Fatalf("duplicate client id: %v, want conflict", err)
	}
	if _, err := s.LedgerOrder(ctx, "o2"); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatal("a refused change must store nothing")
	}

	// Fill it: order, fill, balances and position in one change.
	later := at.Add(time.Minute)
	o.Status, o.FilledQuantity, o.AvgFillPrice, o.Fee, o.UpdatedAt = domain.StatusFilled, o.Quantity, &price, dec("29.62962969"), later
	fill := domain.Fill{ID: "f1", OrderID: "o1", Symbol: "BTC-USD", Side: domain.Buy, Quantity: o.Quantity, Price: price, Fee: o.Fee, Liquidity: "maker", Strategy: "manual", Time: later}
	pos := domain.PositionBook{Symbol: "BTC-USD", Quantity: o.Quantity, Cost: dec("7437.03962969"), Realized: decimal.Zero}
	err = s.ApplyLedger(ctx, domain.LedgerChange{Orders: []domain.Order{o}, Fills: []domain.Fill{fill},
		Balances:  []domain.Balance{{Currency: "USD", Available: dec("92562.96037031"), Hold: decimal.Zero}, {Currency: "BTC", Available: o.Quantity, Hold: decimal.Zero}},
		Positions: []domain.PositionBook{pos}})
	if err != nil {
		t.Fatal(err)
	}
	if live, _ := s.LedgerLiveOrders(ctx); len(live) != 0 {
		t.Fatalf("live orders after fill = %v", live)
	}
	byCID, err := s.LedgerOrderByClientID(ctx, "c1")
	if err != nil || byCID.Status != domain.StatusFilled || !byCID.AvgFillPrice.Equal(price) {
		t.Fatalf("by client id = %+v, %v", byCID, err)
	}
	if _, err := s.LedgerOrderByClientID(ctx, ""); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatal("the empty client id must match nothing")
	}
	fills, err := s.LedgerFills(ctx, domain.FillFilter{Symbol: "BTC-USD", Limit: 10})
	if err != nil || len(fills) != 1 || !fills[0].Fee.Equal(o.Fee) || !fills[0].Time.Equal(later) {
		t.Fatalf("fills = %+v, %v", fills, err)
	}
	bals, _ := s.LedgerBalances(ctx)
	if len(bals) != 2 || bals[0].Currency != "BTC" || bals[1].Available.String() != "92562.96037031" {
		t.Fatalf("balances = %+v", bals)
	}
	ps, _ := s.LedgerPositions(ctx)
	if len(ps) != 1 || !ps[0].Cost.Equal(pos.Cost) {
		t.Fatalf("positions = %+v", ps)
	}
	orders, _ := s.LedgerOrders(ctx, domain.OrderFilter{Status: domain.StatusFilled, Limit: 5})
	if len(orders) != 1 || orders[0].ID != "o1" {
		t.Fatalf("filled orders = %+v", orders)
	}
	if none, _ := s.LedgerOrders(ctx, domain.OrderFilter{Symbol: "ETH-USD"}); len(none) != 0 {
		t.Fatalf("ETH orders = %+v", none)
	}
	if since, _ := s.LedgerOrders(ctx, domain.OrderFilter{Since: at}); len(since) != 1 {
		t.Fatalf("orders since their creation = %+v", since)
	}
	if none, _ := s.LedgerOrders(ctx, domain.OrderFilter{Since: at.Add(time.Millisecond)}); len(none) != 0 {
		t.Fatalf("orders created after them = %+v", none)
	}
}
