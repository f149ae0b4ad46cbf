package storetest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// RunLedger is the contract for domain.LedgerStore. The parts share one
// store and keep to their own ids, users and symbols.
func RunLedger(t *testing.T, s domain.LedgerStore) {
	same := func(*testing.T) domain.LedgerStore { return s }
	runParts(t, same, []part[domain.LedgerStore]{
		{"Books", testLedgerBooks},
		{"HoldsAndLinks", testLedgerHolds},
		{"ClientIDsPerUser", testLedgerClientIDs},
		{"FillFilters", testLedgerFillFilters},
		{"AuditWithTheChange", testLedgerAudit},
		{"TrailingStopKeepsItsMark", testLedgerTrail},
	})
}

func testLedgerBooks(t *testing.T, s domain.LedgerStore) {
	ctx := context.Background()
	price := dec("60000.01")
	o := domain.Order{ID: "o1", ClientOrderID: "c1", Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: dec("0.12345678"),
		Price: &price, FilledQuantity: decimal.Zero, Fee: decimal.Zero, Status: domain.StatusOpen, Strategy: "rsi", StrategyVersion: 3, UserID: "u1", CreatedAt: at, UpdatedAt: at}
	usd := domain.Balance{Currency: "USD", Available: dec("92592.59"), Hold: dec("7407.41")}
	if err := s.ApplyLedger(ctx, domain.LedgerChange{Orders: []domain.Order{o}, Balances: []domain.Balance{usd}}); err != nil {
		t.Fatal(err)
	}
	got, err := s.LedgerOrder(ctx, "o1")
	if err != nil || !got.Price.Equal(price) || got.StopPrice != nil || got.AvgFillPrice != nil || got.Quantity.String() != "0.12345678" || got.Status != domain.StatusOpen || !got.CreatedAt.Equal(at) ||
		got.Strategy != "rsi" || got.StrategyVersion != 3 {
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
	byCID, err := s.LedgerOrderByClientID(ctx, "u1", "c1")
	if err != nil || byCID.Status != domain.StatusFilled || !byCID.AvgFillPrice.Equal(price) {
		t.Fatalf("by client id = %+v, %v", byCID, err)
	}
	if _, err := s.LedgerOrderByClientID(ctx, "u1", ""); domain.ErrorCode(err) != domain.ENotFound {
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

// limitOrder is an open BTC-USD buy limit for user.
func limitOrder(id, user, clientID string) domain.Order {
	price := dec("50000")
	return domain.Order{ID: id, ClientOrderID: clientID, Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: dec("0.5"),
		Price: &price, FilledQuantity: decimal.Zero, Fee: decimal.Zero, Hold: dec("25125"), Status: domain.StatusOpen, UserID: user,
		CreatedAt: at, UpdatedAt: at}
}

func testLedgerHolds(t *testing.T, s domain.LedgerStore) {
	ctx := context.Background()
	stop := dec("55000")
	o := domain.Order{ID: "h1", ClientOrderID: "hc1", Symbol: "ETH-USD", Side: domain.Sell, Type: domain.StopLoss, Quantity: dec("1.25"),
		StopPrice: &stop, FilledQuantity: decimal.Zero, Fee: decimal.Zero, Hold: dec("1.25000001"), GroupID: "g1", ParentID: "p1",
		Status: domain.StatusOpen, UserID: "uh", CreatedAt: at, UpdatedAt: at}
	if err := s.ApplyLedger(ctx, domain.LedgerChange{Orders: []domain.Order{o}}); err != nil {
		t.Fatal(err)
	}
	check := func(when string, want domain.Order) {
		t.Helper()
		got, err := s.LedgerOrder(ctx, want.ID)
		if err != nil || got.Hold.String() != want.Hold.String() || got.GroupID != want.GroupID || got.ParentID != want.ParentID || got.Status != want.Status {
			t.Fatalf("%s: LedgerOrder = %+v, %v; want hold %s group %q parent %q", when, got, err, want.Hold, want.GroupID, want.ParentID)
		}
		byCID, err := s.LedgerOrderByClientID(ctx, want.UserID, want.ClientOrderID)
		if err != nil || !byCID.Hold.Equal(want.Hold) || byCID.GroupID != want.GroupID || byCID.ParentID != want.ParentID {
			t.Fatalf("%s: by client id = %+v, %v", when, byCID, err)
		}
	}
	check("inserted", o)
	live, err := s.LedgerLiveOrders(ctx)
	if err != nil || len(live) != 1 || live[0].ID != "h1" || !live[0].Hold.Equal(o.Hold) || live[0].GroupID != "g1" {
		t.Fatalf("live orders = %+v, %v", live, err)
	}

	// A partial fill releases part of the hold; every field that may change does.
	o.FilledQuantity, o.Hold, o.GroupID, o.ParentID, o.UpdatedAt = dec("0.5"), dec("0.75"), "g2", "p2", at.Add(time.Second)
	if err := s.ApplyLedger(ctx, domain.LedgerChange{Orders: []domain.Order{o}}); err != nil {
		t.Fatal(err)
	}
	check("updated", o)

	// Done: nothing is held any more, and a zero hold reads back as zero.
	o.Status, o.FilledQuantity, o.Hold, o.UpdatedAt = domain.StatusFilled, o.Quantity, decimal.Zero, at.Add(2*time.Second)
	if err := s.ApplyLedger(ctx, domain.LedgerChange{Orders: []domain.Order{o}}); err != nil {
		t.Fatal(err)
	}
	check("filled", o)
	got, _ := s.LedgerOrders(ctx, domain.OrderFilter{Symbol: "ETH-USD"})
	if len(got) != 1 || !got[0].Hold.IsZero() || got[0].GroupID != "g2" || got[0].ParentID != "p2" {
		t.Fatalf("listed = %+v", got)
	}
}

func testLedgerClientIDs(t *testing.T, s domain.LedgerStore) {
	ctx := context.Background()
	a, b := limitOrder("ca", "ua", "same"), limitOrder("cb", "ub", "same")
	if err := s.ApplyLedger(ctx, domain.LedgerChange{Orders: []domain.Order{a}}); err != nil {
		t.Fatal(err)
	}
	if err := s.ApplyLedger(ctx, domain.LedgerChange{Orders: []domain.Order{b}}); err != nil {
		t.Fatalf("the same client id for another user: %v, want it accepted", err)
	}
	// Orders without a client id never clash.
	if err := s.ApplyLedger(ctx, domain.LedgerChange{Orders: []domain.Order{limitOrder("cn1", "ua", ""), limitOrder("cn2", "ua", "")}}); err != nil {
		t.Fatalf("two orders without client id: %v", err)
	}
	// Re-applying an order (an update) is no clash with itself.
	a.Hold, a.UpdatedAt = dec("100"), at.Add(time.Second)
	if err := s.ApplyLedger(ctx, domain.LedgerChange{Orders: []domain.Order{a}}); err != nil {
		t.Fatalf("updating an order: %v", err)
	}

	err := s.ApplyLedger(ctx, domain.LedgerChange{Orders: []domain.Order{limitOrder("cc", "ua", "other"), limitOrder("ca2", "ua", "same")}})
	wantCode(t, err, domain.EConflict)
	for _, id := range []string{"ca2", "cc"} {
		if _, err := s.LedgerOrder(ctx, id); domain.ErrorCode(err) != domain.ENotFound {
			t.Fatalf("order %s of a refused change: %v, want not_found", id, err)
		}
	}

	for _, tc := range []struct{ user, cid, want string }{{"ua", "same", "ca"}, {"ub", "same", "cb"}} {
		got, err := s.LedgerOrderByClientID(ctx, tc.user, tc.cid)
		if err != nil || got.ID != tc.want || got.UserID != tc.user {
			t.Fatalf("LedgerOrderByClientID(%q, %q) = %+v, %v; want %s", tc.user, tc.cid, got, err, tc.want)
		}
	}
	if got, _ := s.LedgerOrderByClientID(ctx, "ua", "same"); !got.Hold.Equal(dec("100")) {
		t.Fatalf("updated hold = %s, want 100", got.Hold)
	}
	for _, tc := range []struct{ user, cid string }{{"uc", "same"}, {"", "same"}, {"ua", ""}, {"ua", "other"}} {
		_, err := s.LedgerOrderByClientID(ctx, tc.user, tc.cid)
		if domain.ErrorCode(err) != domain.ENotFound {
			t.Fatalf("LedgerOrderByClientID(%q, %q): %v, want not_found", tc.user, tc.cid, err)
		}
	}
	// Every stored client id, once each, none of the orders without one or
	// of the refused change.
	ids := map[string]int{}
	if err := s.LedgerClientOrderIDs(ctx, func(user, cid string) { ids[user+"/"+cid]++ }); err != nil {
		t.Fatal(err)
	}
	for key, n := range ids { // the store is shared: other parts' ids may be there too
		if n != 1 || strings.HasSuffix(key, "/") || key == "ua/other" {
			t.Fatalf("LedgerClientOrderIDs gave %s %d times (all: %v)", key, n, ids)
		}
	}
	if ids["ua/same"] != 1 || ids["ub/same"] != 1 {
		t.Fatalf("LedgerClientOrderIDs = %v, want ua/same and ub/same among them", ids)
	}
}

func testLedgerFillFilters(t *testing.T, s domain.LedgerStore) {
	ctx := context.Background()
	o := limitOrder("fo", "uf", "")
	// Five fills a day after every other ledger record, a minute apart,
	// alternating SOL-USD (fx0, fx2, fx4) and XRP-USD (fx1, fx3).
	t0 := at.Add(24 * time.Hour)
	tick := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Minute) }
	var fills []domain.Fill
	for i, sym := range []string{"SOL-USD", "XRP-USD", "SOL-USD", "XRP-USD", "SOL-USD"} {
		fills = append(fills, domain.Fill{ID: "fx" + string(rune('0'+i)), OrderID: o.ID, Symbol: sym, Side: domain.Buy, Quantity: dec("1"),
			Price: dec("10"), Fee: dec("0.01"), Liquidity: "taker", Time: tick(i)})
	}
	if err := s.ApplyLedger(ctx, domain.LedgerChange{Orders: []domain.Order{o}, Fills: fills}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		f    domain.FillFilter
		want string
	}{
		{"since first", domain.FillFilter{Since: tick(0)}, "fx4 fx3 fx2 fx1 fx0"},
		{"since is inclusive", domain.FillFilter{Since: tick(2)}, "fx4 fx3 fx2"},
		{"since just after", domain.FillFilter{Since: tick(2).Add(time.Millisecond)}, "fx4 fx3"},
		{"since later", domain.FillFilter{Since: tick(5)}, ""},
		{"symbol", domain.FillFilter{Symbol: "SOL-USD"}, "fx4 fx2 fx0"},
		{"symbol and since", domain.FillFilter{Symbol: "SOL-USD", Since: tick(1)}, "fx4 fx2"},
		{"limit", domain.FillFilter{Since: tick(0), Limit: 2}, "fx4 fx3"},
		{"limit and offset", domain.FillFilter{Since: tick(0), Limit: 2, Offset: 2}, "fx2 fx1"},
		{"last page", domain.FillFilter{Since: tick(0), Limit: 2, Offset: 4}, "fx0"},
		{"past the end", domain.FillFilter{Since: tick(0), Limit: 2, Offset: 5}, ""},
		{"symbol, since, limit and offset", domain.FillFilter{Symbol: "XRP-USD", Since: tick(0), Limit: 1, Offset: 1}, "fx1"},
	} {
		got, err := s.LedgerFills(ctx, tc.f)
		if err != nil {
			t.Fatalf("%s: LedgerFills(%+v): %v", tc.name, tc.f, err)
		}
		var ids []string
		for _, f := range got {
			ids = append(ids, f.ID)
		}
		if strings.Join(ids, " ") != tc.want {
			t.Fatalf("%s: LedgerFills(%+v) = [%s], want [%s]", tc.name, tc.f, strings.Join(ids, " "), tc.want)
		}
	}
}

// testLedgerAudit: audit entries in a change are stored with it, in order,
// and not at all when the change is refused.
func testLedgerAudit(t *testing.T, s domain.LedgerStore) {
	ctx := context.Background()
	lister, ok := s.(interface {
		ListAudit(ctx context.Context, limit int) ([]domain.AuditEntry, error)
	})
	if !ok {
		t.Skip("this store keeps no audit log")
	}
	entry := func(detail string) domain.AuditEntry {
		return domain.AuditEntry{At: at, UserID: "uaud", Actor: "aud@example.com", Action: "POST /api/trading/orders/limit",
			Status: 201, RequestID: "r-" + detail, Remote: "127.0.0.1", Detail: detail}
	}
	err := s.ApplyLedger(ctx, domain.LedgerChange{Orders: []domain.Order{limitOrder("aud1", "uaud", "aud-c1"), limitOrder("aud2", "uaud", "aud-c2")},
		Audit: []domain.AuditEntry{entry("first"), entry("second")}})
	if err != nil {
		t.Fatal(err)
	}
	// A refused change (a client id already used) stores neither its order nor its entry.
	err = s.ApplyLedger(ctx, domain.LedgerChange{Orders: []domain.Order{limitOrder("aud3", "uaud", "aud-c1")}, Audit: []domain.AuditEntry{entry("refused")}})
	wantCode(t, err, domain.EConflict)
	got, err := lister.ListAudit(ctx, 1000)
	if err != nil {
		t.Fatal(err)
	}
	var mine []domain.AuditEntry
	for _, e := range got {
		if e.UserID == "uaud" {
			mine = append(mine, e)
		}
	}
	if len(mine) != 2 || mine[0].Detail != "second" || mine[1].Detail != "first" {
		t.Fatalf("audit entries = %+v, want second then first (newest first), nothing of the refused change", mine)
	}
	e := mine[1]
	if !e.At.Equal(at) || e.Actor != "aud@example.com" || e.Action != "POST /api/trading/orders/limit" || e.Status != 201 ||
		e.RequestID != "r-first" || e.Remote != "127.0.0.1" {
		t.Fatalf("stored entry = %+v", e)
	}
}

// A trailing stop's trail and mark are stored with it and updated as the
// mark moves (a restart trails on from there).
func testLedgerTrail(t *testing.T, s domain.LedgerStore) {
	ctx := context.Background()
	stop, pct, mark := dec("49000"), dec("2"), dec("50000")
	o := domain.Order{ID: "tr1", Symbol: "SOL-USD", Side: domain.Sell, Type: domain.TrailingStop, Quantity: dec("3"), StopPrice: &stop,
		Trail: &domain.Trail{Percent: &pct, Extreme: &mark}, FilledQuantity: decimal.Zero, Fee: decimal.Zero, Hold: dec("3"),
		Status: domain.StatusOpen, UserID: "u-trail", CreatedAt: at, UpdatedAt: at}
	if err := s.ApplyLedger(ctx, domain.LedgerChange{Orders: []domain.Order{o}}); err != nil {
		t.Fatal(err)
	}
	stop2, mark2 := dec("50960"), dec("52000")
	o.StopPrice, o.Trail = &stop2, &domain.Trail{Percent: &pct, Extreme: &mark2}
	if err := s.ApplyLedger(ctx, domain.LedgerChange{Orders: []domain.Order{o}}); err != nil {
		t.Fatal(err)
	}
	got, err := s.LedgerOrder(ctx, "tr1")
	if err != nil || got.Type != domain.TrailingStop || got.Trail == nil || !got.Trail.Percent.Equal(pct) || got.Trail.Amount != nil ||
		!got.Trail.Extreme.Equal(mark2) || !got.StopPrice.Equal(stop2) {
		t.Fatalf("trailing stop read back: %+v (trail %+v), %v", got, got.Trail, err)
	}
	plain, err := s.LedgerOrder(ctx, "o1")
	if err == nil && plain.Trail != nil {
		t.Fatalf("a limit order read back with a trail: %+v", plain.Trail)
	}
}
