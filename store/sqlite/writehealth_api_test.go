package sqlite_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/httpapi/openapi/openapitest"
	"kestrel/loadgen"
	"kestrel/store/sqlite"
)

// settableNow is the write health's clock, moved by the test.
type settableNow struct {
	mu sync.Mutex
	t  time.Time
}

func (c *settableNow) now() time.Time         { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *settableNow) add(d time.Duration)    { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }
func (c *settableNow) String() string         { return c.now().Format(time.RFC3339) }
func newSettableNow(t time.Time) *settableNow { return &settableNow{t: t} }

// dbHealth is what the two health endpoints say of the database.
type dbHealth struct {
	health, check  string // /system/health: status, checks.database
	status, reason string // /system/status: database.status, database.last_error
	overall        string // /system/status: overall_status
}

// A full or read-only disk leaves SQLite answering reads and pings, so the
// health endpoint said healthy while every write was refused. Through the
// real endpoints of a whole Kestrel: while writes fail the database is
// degraded (the public health says only that; the status says why), a
// write that fits again does not clear it at once (FaultHold), time alone
// does not clear it either, and a successful write after the hold does.
func TestHealthDegradedWhileWritesFail(t *testing.T) {
	ctx := context.Background()
	a := runApp(t)
	st := a.Store.(*sqlite.Store)
	clock := newSettableNow(time.Now())
	sqlite.SetWriteHealthClock(st, clock.now)
	c := loadgen.NewClient(a.URL(), 2)
	if err := c.SignIn(ctx, "health@example.com", "health-test-pass", "Health", true); err != nil {
		t.Fatal(err)
	}
	plan, err := loadgen.Prepare(ctx, c, "BTC-USD", "SELL", decimal.Zero, 1000, decimal.NewFromInt(10_000), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	place := func(cid string) (int, error) {
		return c.Do(ctx, http.MethodPost, "/api/trading/orders/limit", map[string]any{"symbol": plan.Symbol, "side": plan.Side,
			"quantity": plan.Quantity.String(), "price": plan.LimitPrice.String(), "client_order_id": cid}, nil)
	}
	expect := func(when string, want dbHealth) {
		t.Helper()
		if got := readDBHealth(t, a.URL(), c.Token); got != want {
			t.Fatalf("%s: %+v, want %+v", when, got, want)
		}
	}
	healthy := dbHealth{"healthy", "healthy", "healthy", "", "healthy"}
	degraded := func(reason string) dbHealth { return dbHealth{"degraded", "degraded", "degraded", reason, "degraded"} }
	expect("at start", healthy)

	// The disk fills: orders are stored until one needs a page it cannot have.
	pages, err := sqlite.PageCount(st)
	if err != nil {
		t.Fatal(err)
	}
	if err := sqlite.SetMaxPageCount(st, pages); err != nil {
		t.Fatal(err)
	}
	refused := ""
	for i := 0; i < 1000 && refused == ""; i++ {
		cid := fmt.Sprintf("health-%d", i)
		if status, err := place(cid); err != nil {
			if status != http.StatusServiceUnavailable {
				t.Fatalf("order %s on a full disk: %d %v, want 503", cid, status, err)
			}
			refused = cid
		}
	}
	if refused == "" {
		t.Fatal("1000 orders were stored on a database capped at its size")
	}
	expect("an order refused on a full disk", degraded(sqlite.MsgDiskFull))
	if err := sqlite.SetMaxPageCount(st, noCap); err != nil {
		t.Fatal(err)
	}
	if status, err := place(refused); err != nil || status != http.StatusCreated {
		t.Fatalf("the refused order once there is room: %d %v", status, err)
	}
	expect("a write stored again, within the hold", degraded(sqlite.MsgDiskFull))
	clock.add(sqlite.FaultHold)
	expect("a write stored and the hold passed", healthy)

	// Read-only: every write refused, however long it lasts.
	if err := sqlite.SetReadOnly(st, true); err != nil {
		t.Fatal(err)
	}
	if status, err := place("read-only"); status != http.StatusServiceUnavailable {
		t.Fatalf("an order on a read-only database: %d %v, want 503", status, err)
	}
	expect("an order refused on a read-only database", degraded(domain.MsgDatabaseUnavailable))
	clock.add(2 * sqlite.FaultHold)
	expect("read-only past the hold, nothing stored since", degraded(domain.MsgDatabaseUnavailable))
	if err := sqlite.SetReadOnly(st, false); err != nil {
		t.Fatal(err)
	}
	if status, err := place("read-only"); err != nil || status != http.StatusCreated {
		t.Fatalf("the refused order once the database is writable: %d %v", status, err)
	}
	clock.add(sqlite.FaultHold)
	expect("writable, a write stored and the hold passed", healthy)
	t.Logf("full disk: %s refused; degraded until a write was stored and %s passed (write health clock at %s)", refused, sqlite.FaultHold, clock)
}

// readDBHealth reads /api/system/health (public) and /api/system/status
// (signed in with token), each checked against the OpenAPI description.
func readDBHealth(t *testing.T, base, token string) dbHealth {
	t.Helper()
	var h struct {
		Status string            `json:"status"`
		Checks map[string]string `json:"checks"`
	}
	var s struct {
		Overall  string `json:"overall_status"`
		Database struct {
			Status    string  `json:"status"`
			LastError *string `json:"last_error"`
		} `json:"database"`
	}
	getChecked(t, base+"/api/system/health", "", &h)
	getChecked(t, base+"/api/system/status", token, &s)
	got := dbHealth{health: h.Status, check: h.Checks["database"], status: s.Database.Status, overall: s.Overall}
	if s.Database.LastError != nil {
		got.reason = *s.Database.LastError
	}
	return got
}

// getChecked GETs url, checks the reply against the OpenAPI description and
// decodes its data into out.
func getChecked(t *testing.T, url, token string, out any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	openapitest.Check(t, req, resp.StatusCode, resp.Header, body)
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &env) != nil || json.Unmarshal(env.Data, out) != nil {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, body)
	}
}
