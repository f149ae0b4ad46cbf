package sqlite_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/app"
	"kestrel/domain"
	"kestrel/httpapi"
	"kestrel/loadgen"
	"kestrel/store/sqlite"
	"kestrel/store/storetest"
)

// A whole Kestrel on SQLite, through its HTTP API, while its disk is full
// and then while its database is read-only: every refused request is a 503
// "unavailable" envelope (never a 500), a refused order or strategy leaves
// nothing behind in the store or the engine, reads keep answering, and
// everything works again once the disk has room, without a restart.
func TestFullOrReadOnlyDiskAnswers503AndRecovers(t *testing.T) {
	ctx := context.Background()
	a := runApp(t)
	for i := 0; i < 100 && a.Market.LastTickAge() < 0; i++ {
		time.Sleep(20 * time.Millisecond)
	}
	st := a.Store.(*sqlite.Store)
	c := loadgen.NewClient(a.URL(), 2)
	if err := c.SignIn(ctx, "disk@example.com", "disk-test-pass", "Disk", true); err != nil {
		t.Fatal(err)
	}
	var me struct {
		ID string `json:"id"`
	}
	if _, err := c.Do(ctx, http.MethodGet, "/api/auth/me", nil, &me); err != nil {
		t.Fatal(err)
	}
	plan, err := loadgen.Prepare(ctx, c, "BTC-USD", "SELL", decimal.Zero, 1000, decimal.NewFromInt(10_000), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	place := func(cid string) (loadgen.OrderReply, int, error) {
		var out loadgen.OrderReply
		status, err := c.Do(ctx, http.MethodPost, "/api/trading/orders/limit", map[string]any{"symbol": plan.Symbol, "side": plan.Side,
			"quantity": plan.Quantity.String(), "price": plan.LimitPrice.String(), "client_order_id": cid}, &out)
		return out, status, err
	}
	refused := func(what string, err error) {
		t.Helper()
		var ae *loadgen.APIError
		if !errors.As(err, &ae) || ae.Status != http.StatusServiceUnavailable || ae.Code != domain.EUnavailable || ae.Message == "" {
			t.Fatalf("%s: %v, want a 503 unavailable envelope", what, err)
		}
	}
	stored := func(cid string) bool {
		t.Helper()
		_, err := st.LedgerOrderByClientID(ctx, me.ID, cid)
		if err != nil && domain.ErrorCode(err) != domain.ENotFound {
			t.Fatal(err)
		}
		return err == nil
	}

	// The disk is full: orders are acknowledged while their rows fit in
	// the pages the database has, then refused.
	pages, err := sqlite.PageCount(st)
	if err != nil {
		t.Fatal(err)
	}
	if err := sqlite.SetMaxPageCount(st, pages); err != nil {
		t.Fatal(err)
	}
	var acked []string
	full := ""
	for i := 0; i < 1000 && full == ""; i++ {
		cid := fmt.Sprintf("full-%d", i)
		out, _, err := place(cid)
		if err != nil {
			refused("an order on a full disk", err)
			full = cid
			break
		}
		acked = append(acked, out.Order.ID)
	}
	if full == "" {
		t.Fatal("1000 orders were stored on a database capped at its size")
	}
	if stored(full) {
		t.Fatalf("the refused order %s was stored", full)
	}
	if _, err := c.Do(ctx, http.MethodGet, "/api/trading/orders", nil, nil); err != nil {
		t.Errorf("reading orders on a full disk: %v", err)
	}
	checkHolds(t, st)
	if err := sqlite.SetMaxPageCount(st, noCap); err != nil {
		t.Fatal(err)
	}
	if _, status, err := place(full); err != nil || status != http.StatusCreated {
		t.Fatalf("the refused order sent again once there is room: %d %v, want 201 (placed now, not before)", status, err)
	}
	t.Logf("full disk: %d orders acknowledged, then %s refused; placed once there was room", len(acked), full)

	// Read-only: every write refused, every read answered.
	if err := sqlite.SetReadOnly(st, true); err != nil {
		t.Fatal(err)
	}
	writes := []struct {
		name         string
		method, path string
		body         any
	}{
		{"sign-in", http.MethodPost, "/api/auth/login", map[string]string{"email": "disk@example.com", "password": "disk-test-pass"}},
		{"cancel", http.MethodDelete, "/api/trading/orders/" + acked[0], nil},
		{"settings", http.MethodPut, "/api/settings", map[string]any{"trading": map[string]any{"riskManagement": map[string]any{"maxTradeAmount": 5000}}}},
		{"new strategy", http.MethodPost, "/api/strategy", map[string]any{"name": "disk_rsi", "type": "technical"}},
	}
	for _, w := range writes {
		_, err := c.Do(ctx, w.method, w.path, w.body, nil)
		refused(w.name+" on a read-only database", err)
	}
	_, _, err = place("read-only")
	refused("an order on a read-only database", err)
	for _, path := range []string{"/api/auth/me", "/api/trading/orders", "/api/trading/balances", "/api/settings", "/api/strategy/list", "/api/system/alerts"} {
		if _, err := c.Do(ctx, http.MethodGet, path, nil, nil); err != nil {
			t.Errorf("GET %s on a read-only database: %v", path, err)
		}
	}
	if stored("read-only") {
		t.Fatal("the order refused on a read-only database was stored")
	}
	strategies, err := st.Strategies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(strategies, func(s domain.StrategyRecord) bool { return s.Name == "disk_rsi" }) {
		t.Fatal("the strategy refused on a read-only database was stored")
	}
	checkHolds(t, st)

	if err := sqlite.SetReadOnly(st, false); err != nil {
		t.Fatal(err)
	}
	for _, w := range writes {
		if _, err := c.Do(ctx, w.method, w.path, w.body, nil); err != nil {
			t.Errorf("%s once the database is writable: %v", w.name, err)
		}
	}
	if _, status, err := place("read-only"); err != nil || status != http.StatusCreated {
		t.Errorf("the refused order sent again once the database is writable: %d %v, want 201", status, err)
	}
	checkHolds(t, st)
}

// checkHolds compares each currency's hold with the holds of the live orders.
func checkHolds(t *testing.T, st domain.LedgerStore) {
	t.Helper()
	holds, live := storetest.LiveHolds(t, st)
	bals, err := st.LedgerBalances(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bals {
		if !b.Hold.Equal(holds[b.Currency]) {
			t.Errorf("%s hold %s, the %d live orders hold %s", b.Currency, b.Hold, len(live), holds[b.Currency])
		}
	}
}

// runApp runs a whole Kestrel on SQLite in a temporary directory until the
// test ends.
func runApp(t *testing.T) *app.App {
	t.Helper()
	cfg := app.Defaults()
	cfg.Addr, cfg.DataDir = "127.0.0.1:0", t.TempDir()
	a, err := app.New(context.Background(), cfg, httpapi.BuildInfo{Version: "test"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	go a.Run(context.Background())
	t.Cleanup(func() { a.Close() })
	return a
}
