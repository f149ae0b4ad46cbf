package storetest

import (
	"context"
	"testing"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// RunLedgerAccounts is the contract for domain.LedgerAccounts: the whole
// ledger contract holds in an account of its own, and nothing written in one
// account is seen from another. open returns a fresh, empty store.
func RunLedgerAccounts(t *testing.T, open func(t *testing.T) domain.LedgerAccounts) {
	t.Run("ContractInAnAccount", func(t *testing.T) { RunLedger(t, open(t).LedgerFor("p-1")) })
	t.Run("AccountsAreIsolated", func(t *testing.T) { testLedgerIsolation(t, open(t)) })
}

// ledgerLine is a fill as a ledger line, for comparing books.
func ledgerLine(f domain.Fill) string {
	return string(f.Side) + " " + f.Quantity.String() + " " + f.Symbol + " @ " + f.Price.String()
}

func testLedgerIsolation(t *testing.T, s domain.LedgerAccounts) {
	ctx := context.Background()
	main, paper := s.LedgerFor(""), s.LedgerFor("p-1")

	// The same user and client order id in both accounts: no conflict.
	inMain, inPaper := limitOrder("om", "u1", "same"), limitOrder("op", "u1", "same")
	inPaper.Strategy, inPaper.StrategyVersion = "rsi", 4
	fill := domain.Fill{ID: "fp", OrderID: "op", Symbol: "BTC-USD", Side: domain.Buy, Quantity: dec("0.5"), Price: dec("50000"),
		Fee: dec("150"), Liquidity: "taker", Strategy: "rsi", Time: at}
	if err := main.ApplyLedger(ctx, domain.LedgerChange{Orders: []domain.Order{inMain},
		Balances: []domain.Balance{{Currency: "USD", Available: dec("74875"), Hold: dec("25125")}}}); err != nil {
		t.Fatal(err)
	}
	if err := paper.ApplyLedger(ctx, domain.LedgerChange{Orders: []domain.Order{inPaper}, Fills: []domain.Fill{fill},
		Balances:  []domain.Balance{{Currency: "USD", Available: dec("9850"), Hold: decimal.Zero}, {Currency: "BTC", Available: dec("0.5"), Hold: decimal.Zero}},
		Positions: []domain.PositionBook{{Symbol: "BTC-USD", Quantity: dec("0.5"), Cost: dec("25150"), Realized: decimal.Zero}}}); err != nil {
		t.Fatal(err)
	}
	// Within one account the client id is still unique per user.
	dup := limitOrder("op2", "u1", "same")
	wantCode(t, paper.ApplyLedger(ctx, domain.LedgerChange{Orders: []domain.Order{dup}}), domain.EConflict)

	_, err := main.LedgerOrder(ctx, "op")
	wantCode(t, err, domain.ENotFound)
	_, err = paper.LedgerOrder(ctx, "om")
	wantCode(t, err, domain.ENotFound)
	if o, err := paper.LedgerOrder(ctx, "op"); err != nil || o.StrategyVersion != 4 {
		t.Fatalf("paper order = %+v, %v", o, err)
	}
	for name, l := range map[string]domain.LedgerStore{"main": main, "p-1": paper} {
		want := map[string]string{"main": "om", "p-1": "op"}[name]
		if o, err := l.LedgerOrderByClientID(ctx, "u1", "same"); err != nil || o.ID != want {
			t.Errorf("%s: by client id = %q, %v; want %q", name, o.ID, err, want)
		}
		var ids []string
		if err := l.LedgerClientOrderIDs(ctx, func(_, cid string) { ids = append(ids, cid) }); err != nil || len(ids) != 1 {
			t.Errorf("%s: client ids = %v, %v", name, ids, err)
		}
		for what, list := range map[string]func() ([]domain.Order, error){
			"orders": func() ([]domain.Order, error) { return l.LedgerOrders(ctx, domain.OrderFilter{}) },
			"live":   func() ([]domain.Order, error) { return l.LedgerLiveOrders(ctx) },
		} {
			if os, err := list(); err != nil || len(os) != 1 || os[0].ID != want {
				t.Errorf("%s: %s = %+v, %v; want only %s", name, what, os, err, want)
			}
		}
	}

	fills, err := paper.LedgerFills(ctx, domain.FillFilter{})
	if err != nil || len(fills) != 1 || ledgerLine(fills[0]) != "BUY 0.5 BTC-USD @ 50000" {
		t.Fatalf("paper fills = %+v, %v", fills, err)
	}
	if fills, _ := main.LedgerFills(ctx, domain.FillFilter{}); len(fills) != 0 {
		t.Fatalf("main account sees the paper account's fills: %+v", fills)
	}
	books := func(l domain.LedgerStore) string {
		bs, err := l.LedgerBalances(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ps, err := l.LedgerPositions(ctx)
		if err != nil {
			t.Fatal(err)
		}
		out := ""
		for _, b := range bs {
			out += b.Currency + " " + b.Available.String() + "+" + b.Hold.String() + "; "
		}
		for _, p := range ps {
			out += p.Symbol + " " + p.Quantity.String() + "; "
		}
		return out
	}
	if got, want := books(main), "USD 74875+25125; "; got != want {
		t.Errorf("main books = %q, want %q", got, want)
	}
	if got, want := books(paper), "BTC 0.5+0; USD 9850+0; BTC-USD 0.5; "; got != want {
		t.Errorf("p-1 books = %q, want %q", got, want)
	}
	// The store's own ledger is the main account.
	if own, ok := s.(domain.LedgerStore); ok {
		if got, want := books(own), books(main); got != want {
			t.Errorf("the store's own books = %q, want the main account's %q", got, want)
		}
	}
	if got := books(s.LedgerFor("p-2")); got != "" {
		t.Errorf("an account never written to has books %q", got)
	}
}
