package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/store/sqlite"
	"kestrel/store/storetest"
)

// openStore opens a store on a new file, closed when the test ends.
func openStore(t testing.TB) *sqlite.Store {
	t.Helper()
	st := open(t)
	t.Cleanup(func() { st.Close() })
	return st
}

// open opens a store on a new file; the caller closes it.
func open(t testing.TB) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "kestrel.db"))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// noCap lifts SetMaxPageCount's cap (SQLite's own limit is higher still).
const noCap = 1 << 30

// A full disk refuses a ledger change whole, as EUnavailable with the disk
// message (503, not 500): none of its orders, and no balance of it, is
// stored. Once there is room again the same change is stored.
func TestDiskFullRefusesTheWholeChangeAndRecovers(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	funded := domain.Balance{Currency: "USD", Available: decimal.NewFromInt(100_000), Hold: decimal.Zero}
	if err := st.ApplyLedger(ctx, domain.LedgerChange{Balances: []domain.Balance{funded}}); err != nil {
		t.Fatal(err)
	}
	// 300 resting buys need tens of kilobytes: more than the free space
	// left in the pages the database already has, so more pages.
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	price, qty := decimal.NewFromInt(50_000), decimal.RequireFromString("0.001")
	var change domain.LedgerChange
	hold := decimal.Zero
	for i := range 300 {
		o := domain.Order{ID: fmt.Sprintf("order-%03d", i), ClientOrderID: fmt.Sprintf("client-%03d", i), Symbol: "BTC-USD", Side: domain.Buy,
			Type: domain.Limit, Quantity: qty, Price: &price, FilledQuantity: decimal.Zero, Fee: decimal.Zero, Hold: price.Mul(qty),
			Status: domain.StatusOpen, Strategy: "manual", UserID: "u1", CreatedAt: at, UpdatedAt: at}
		change.Orders = append(change.Orders, o)
		hold = hold.Add(o.Hold)
	}
	change.Balances = []domain.Balance{{Currency: "USD", Available: funded.Available.Sub(hold), Hold: hold}}

	pages, err := sqlite.PageCount(st)
	if err != nil {
		t.Fatal(err)
	}
	if err := sqlite.SetMaxPageCount(st, pages); err != nil {
		t.Fatal(err)
	}
	err = st.ApplyLedger(ctx, change)
	if domain.ErrorCode(err) != domain.EUnavailable || domain.ErrorMessage(err) != sqlite.MsgDiskFull {
		t.Fatalf("a change the disk has no room for: %v, want EUnavailable %q", err, sqlite.MsgDiskFull)
	}
	ledger := func() (int, domain.Balance) {
		t.Helper()
		orders, err := st.LedgerOrders(ctx, domain.OrderFilter{Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		bals, err := st.LedgerBalances(ctx)
		if err != nil || len(bals) != 1 {
			t.Fatalf("balances %v, %v", bals, err)
		}
		return len(orders), bals[0]
	}
	if n, usd := ledger(); n != 0 || !usd.Available.Equal(funded.Available) || !usd.Hold.IsZero() {
		t.Fatalf("after the refused change: %d orders, USD %s available %s held; want none stored", n, usd.Available, usd.Hold)
	}

	if err := sqlite.SetMaxPageCount(st, noCap); err != nil {
		t.Fatal(err)
	}
	if err := st.ApplyLedger(ctx, change); err != nil {
		t.Fatalf("the same change once there is room: %v", err)
	}
	if n, usd := ledger(); n != 300 || !usd.Hold.Equal(hold) {
		t.Fatalf("after the change: %d orders, USD hold %s; want 300 and %s", n, usd.Hold, hold)
	}
}

// With the database read-only, every call either answers (reads) or fails
// as EUnavailable (writes): none returns SQLite's error, which the API
// would answer with a 500. The methods are found by reflection, so a new
// one is checked without being listed here. Writes work again afterwards.
func TestEveryWriteUnavailableOnAReadOnlyDatabase(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	// Arguments that make each write store something (zero values can
	// make some a no-op, or be refused before the database is asked).
	args := map[string][]any{
		"ApplyLedger":          {domain.LedgerChange{Balances: []domain.Balance{{Currency: "USD", Available: decimal.NewFromInt(1)}}}},
		"AppendLogs":           {[]domain.LogEntry{{Time: at, Level: "ERROR", Component: "test", Message: "m"}}},
		"SaveBacktest":         {domain.BacktestRecord{ID: "b1", Request: []byte(`{}`), Result: []byte(`{}`)}},
		"CreateJob":            {domain.Job{ID: "j1", Kind: "backtest", Params: []byte(`{}`)}},
		"FinishJob":            {"j1", domain.JobFailed, "", "reason", time.Time{}},
		"SaveSweepTrial":       {domain.SweepTrial{SweepID: "s1", Values: []byte(`{}`), Params: []byte(`{}`), Metrics: []byte(`{}`)}},
		"SaveStrategy":         {domain.StrategyRecord{Name: "s1"}},
		"AddStrategyVersion":   {domain.StrategyVersion{Strategy: "s1"}},
		"AppendEvaluation":     {domain.Evaluation{ID: "e1"}},
		"SaveAIRecordings":     {[]domain.AIRecording{{PromptHash: "h", Decision: "BUY"}}},
		"SaveShadowDecisions":  {[]domain.ShadowDecision{{ID: "d1", EvaluationID: "e1", Role: domain.RoleShadow}}},
		"AppendPortfolioPoint": {domain.PortfolioPoint{Time: at}},
		"BackupTo":             {filepath.Join(t.TempDir(), "backup.db")},
		"InsertCandles":        {"BTC-USD", domain.FifteenMinute, "test", []domain.CandleRow{{Time: at, Open: "1", High: "1", Low: "1", Close: "1", Volume: "1"}}},
		"CandleGaps":           {"BTC-USD", domain.FifteenMinute},
	}
	if err := sqlite.SetReadOnly(st, true); err != nil {
		t.Fatal(err)
	}
	refused := 0
	storetest.CallEveryMethod(ctx, st, args, func(name string, err error) {
		switch domain.ErrorCode(err) {
		case "", domain.ENotFound:
		case domain.EUnavailable:
			if domain.ErrorMessage(err) != domain.MsgDatabaseUnavailable {
				t.Errorf("%s: message %q", name, domain.ErrorMessage(err))
			}
			refused++
		default:
			t.Errorf("%s on a read-only database: %v, want success or EUnavailable", name, err)
		}
	})
	if refused < 25 {
		t.Errorf("only %d calls refused: the writes did not reach the database", refused)
	}
	t.Logf("%d calls refused as unavailable", refused)

	if err := sqlite.SetReadOnly(st, false); err != nil {
		t.Fatal(err)
	}
	if err := st.PutValue(ctx, "k", "v"); err != nil {
		t.Fatalf("a write once the database is writable again: %v", err)
	}
}
