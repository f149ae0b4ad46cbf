package exchangetest

import (
	"strconv"
	"testing"

	"kestrel/domain"
)

// Fault is a failure one request to the exchange meets.
type Fault string

const (
	// Timeout: the request is carried out and its answer is lost, so the
	// caller does not know whether it took effect.
	Timeout Fault = "timeout"
	// RateLimited: the request is refused with 429 and nothing is done.
	RateLimited Fault = "rate_limited"
	// ServerError: the request fails with a 5xx and nothing is done.
	ServerError Fault = "server_error"
)

// Op is the kind of request a fault hits.
type Op string

const (
	Create Op = "create" // placing an order
	Cancel Op = "cancel" // cancelling one (not the read before it)
	Modify Op = "modify" // a new quantity and price for a resting limit (not the read before it)
	Read   Op = "read"   // balances, orders, fills
)

// Faults injects failures into a harness's exchange.
type Faults struct {
	// FailNext makes the next request of kind op meet f, once. It returns ""
	// when armed, or why f means nothing for this exchange (the case is
	// then skipped with that reason).
	FailNext func(op Op, f Fault) string
	// Armed counts failures armed and not met yet: a case whose failure
	// never happened proves nothing, so it fails.
	Armed func() int
	// SelfRetrying says the exchange retries transient failures itself:
	// its caller must then never see one. Otherwise the caller retries
	// (the gateway answers 503 and the client sends the request again).
	SelfRetrying bool
}

// faultCases are run for each Fault against each Op.
var faultCases = []struct {
	op Op
	fn func(*testing.T, Harness, Fault)
}{
	{Create, createFault},
	{Cancel, cancelFault},
	{Modify, modifyFault},
	{Read, readFault},
}

// runFaults runs the fault cases, each on a fresh harness.
func runFaults(t *testing.T, open func(t *testing.T) Harness) {
	for _, c := range faultCases {
		for _, f := range []Fault{Timeout, RateLimited, ServerError} {
			t.Run("Fault/"+string(c.op)+"/"+string(f), func(t *testing.T) {
				h := open(t)
				if h.Faults == nil {
					t.Skip("this harness injects no faults")
				}
				c.fn(t, h, f)
			})
		}
	}
}

// arm makes the next request of kind op meet f, or skips the case with
// the harness's reason. Cases arm right before the request under test, so
// the requests that set the scene meet no failure.
func arm(t *testing.T, h Harness, op Op, f Fault) {
	t.Helper()
	if why := h.Faults.FailNext(op, f); why != "" {
		t.Skip(why)
	}
}

// retryable says a caller should send the same request again.
func retryable(err error) bool {
	c := domain.ErrorCode(err)
	return c == domain.EUnavailable || c == domain.EUnknownOutcome || c == domain.ETooMany
}

// maxTries bounds a caller's retries of one request.
const maxTries = 4

// retry calls op as a careful caller does: again after a retryable error,
// never after any other. It returns the last result and the tries made.
func retry[T any](op func() (T, error)) (T, int, error) {
	var v T
	var err error
	for n := 1; ; n++ {
		v, err = op()
		if err == nil || !retryable(err) || n == maxTries {
			return v, n, err
		}
	}
}

// met fails the test when an armed failure never happened, and when a
// self-retrying exchange let the caller see one.
func met(t *testing.T, h Harness, what string, f Fault, tries int) {
	t.Helper()
	if n := h.Faults.Armed(); n != 0 {
		t.Fatalf("%d armed failure(s) never happened: the case proves nothing", n)
	}
	if h.Faults.SelfRetrying && tries != 1 {
		t.Fatalf("the exchange retries by itself, yet the caller saw the %s (%d tries)", f, tries)
	}
	t.Logf("%s, %s injected: %d tries by the caller", what, f, tries)
}

// createFault: a market buy whose first create meets f, retried with the
// same client order id, is exactly one order with one fill; the balances
// are the starting funds moved by that fill; placing it again once more
// returns the same order.
func createFault(t *testing.T, h Harness, f Fault) {
	x := h.Exchange
	usd0 := balance(t, x, "USD").Available
	req := domain.OrderRequest{ClientOrderID: "fault-create", UserID: "u1", Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("0.1")}
	arm(t, h, Create, f)
	o, tries, err := retry(func() (domain.Order, error) { return x.PlaceOrder(ctx, req) })
	if err != nil {
		t.Fatalf("place after a %s, %d tries: %v", f, tries, err)
	}
	met(t, h, "create", f, tries)
	if o.Status != domain.StatusFilled || !o.FilledQuantity.Equal(d("0.1")) {
		t.Fatalf("order %+v, want filled 0.1", o)
	}
	if again := place(t, x, req); again.ID != o.ID {
		t.Fatalf("a retry after the success made order %s, the first was %s", again.ID, o.ID)
	}
	if os, err := x.Orders(ctx, domain.OrderFilter{}); err != nil || len(os) != 1 {
		t.Fatalf("orders %d (%v), want exactly 1", len(os), err)
	}
	fills, err := x.Fills(ctx, domain.FillFilter{})
	if err != nil || len(fills) != 1 || fills[0].OrderID != o.ID {
		t.Fatalf("fills %+v (%v), want one of order %s", fills, err, o.ID)
	}
	fl := fills[0]
	want := usd0.Sub(fl.Quantity.Mul(fl.Price)).Sub(fl.Fee)
	if got := balance(t, x, "USD").Available; !got.Equal(want) {
		t.Fatalf("USD %s, the one fill says %s", got, want)
	}
	if got := balance(t, x, "BTC").Available; !got.Equal(d("0.1")) {
		t.Fatalf("BTC %s, want 0.1", got)
	}
}

// cancelFault: a cancel whose first attempt meets f ends with the order
// cancelled, its hold released and the caller told so: the cancelled
// order, or (when its own earlier try failed retryably) a conflict about
// an order that is cancelled.
func cancelFault(t *testing.T, h Harness, f Fault) {
	x := h.Exchange
	before := balance(t, x, "USD")
	o := place(t, x, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("40000")})
	arm(t, h, Cancel, f)
	var failedOnce bool
	c, tries, err := retry(func() (domain.Order, error) {
		c, err := x.CancelOrder(ctx, o.ID)
		if err != nil && retryable(err) {
			failedOnce = true
		}
		return c, err
	})
	got := order(t, x, o.ID)
	switch {
	case err == nil && c.Status == domain.StatusCancelled:
	case err != nil && failedOnce && domain.ErrorCode(err) == domain.EConflict && got.Status == domain.StatusCancelled:
	default:
		t.Fatalf("cancel after a %s, %d tries: %+v %v (the order is %s)", f, tries, c, err, got.Status)
	}
	met(t, h, "cancel", f, tries)
	if got.Status != domain.StatusCancelled {
		t.Fatalf("order %s after the cancel", got.Status)
	}
	if b := balance(t, x, "USD"); !b.Available.Equal(before.Available) || !b.Hold.Equal(before.Hold) {
		t.Fatalf("USD after the cancel %+v, before the order %+v", b, before)
	}
}

// modifyFault: a resting limit buy (0.1 at 40,000) whose modify to 0.2 at
// 45,000 meets f, retried with the same values, is that one order with the
// new quantity and price: no second order, no fill, the USD hold the new
// order's (the first hold scaled by the notional, as an exchange may hold
// a fee reserve too) and the total unchanged. Modifying it once more to the
// same values, as a caller whose answer was lost does, answers the same
// order unchanged.
func modifyFault(t *testing.T, h Harness, f Fault) {
	x := h.Exchange
	before := balance(t, x, "USD")
	o := place(t, x, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("40000")})
	held := balance(t, x, "USD").Hold.Sub(before.Hold)
	wantHold := before.Hold.Add(held.Mul(d("9000")).Div(d("4000"))) // 0.2 x 45,000 for 0.1 x 40,000
	modified := func(what string, m domain.Order) {
		t.Helper()
		if m.ID != o.ID || m.Status != domain.StatusOpen || !m.Quantity.Equal(d("0.2")) || m.Price == nil || !m.Price.Equal(d("45000")) {
			t.Fatalf("%s after a %s: %+v, want order %s open, 0.2 at 45000", what, f, m, o.ID)
		}
		if b := balance(t, x, "USD"); !b.Hold.Equal(wantHold) || !b.Available.Add(b.Hold).Equal(before.Available.Add(before.Hold)) {
			t.Fatalf("%s: USD %+v, want hold %s and the total of %+v", what, b, wantHold, before)
		}
	}
	arm(t, h, Modify, f)
	m, tries, err := retry(func() (domain.Order, error) { return x.ModifyOrder(ctx, o.ID, dp("0.2"), dp("45000")) })
	if err != nil {
		t.Fatalf("modify after a %s, %d tries: %v", f, tries, err)
	}
	met(t, h, "modify", f, tries)
	modified("the answer", m)
	modified("the order", order(t, x, o.ID))
	if os, err := x.Orders(ctx, domain.OrderFilter{}); err != nil || len(os) != 1 {
		t.Fatalf("orders %d (%v), want exactly 1", len(os), err)
	}
	if fs, err := x.Fills(ctx, domain.FillFilter{}); err != nil || len(fs) != 0 {
		t.Fatalf("fills %+v (%v), want none", fs, err)
	}
	again, err := x.ModifyOrder(ctx, o.ID, dp("0.2"), dp("45000"))
	if err != nil {
		t.Fatalf("the same modify once more: %v", err)
	}
	modified("the same modify once more", again)
}

// readFault: each read whose request meets f answers what it would have.
func readFault(t *testing.T, h Harness, f Fault) {
	x := h.Exchange
	buy := place(t, x, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("0.1")})
	rest := place(t, x, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("40000")})
	wantUSD := balance(t, x, "USD")
	reads := []struct {
		name string
		read func() (string, error)
	}{
		{"balances", func() (string, error) {
			bs, err := x.Balances(ctx)
			for _, b := range bs {
				if b.Currency == "USD" {
					return b.Available.String() + "/" + b.Hold.String(), err
				}
			}
			return "", err
		}},
		{"order", func() (string, error) {
			o, err := x.Order(ctx, rest.ID)
			return string(o.Status), err
		}},
		{"orders", func() (string, error) {
			os, err := x.Orders(ctx, domain.OrderFilter{})
			return strconv.Itoa(len(os)), err
		}},
		{"fills", func() (string, error) {
			fs, err := x.Fills(ctx, domain.FillFilter{})
			if len(fs) == 1 && fs[0].OrderID != buy.ID {
				return "another order's fill", err
			}
			return strconv.Itoa(len(fs)), err
		}},
	}
	want := map[string]string{"balances": wantUSD.Available.String() + "/" + wantUSD.Hold.String(), "order": string(domain.StatusOpen), "orders": "2", "fills": "1"}
	for _, r := range reads {
		arm(t, h, Read, f)
		got, tries, err := retry(r.read)
		if err != nil {
			t.Fatalf("%s after a %s, %d tries: %v", r.name, f, tries, err)
		}
		met(t, h, r.name, f, tries)
		if got != want[r.name] {
			t.Fatalf("%s after a %s: %s, want %s", r.name, f, got, want[r.name])
		}
	}
}
