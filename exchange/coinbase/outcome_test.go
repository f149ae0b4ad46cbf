package coinbase_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"kestrel/domain"
	"kestrel/exchange/coinbase"
	"kestrel/exchange/coinbase/coinbasefake"
)

// A create carried out at Coinbase whose answer is lost (the attempt times
// out, or the connection is reset) and whose look by client order id fails
// too may or may not have been placed: 504 outcome_unknown, never the 503
// that promises it did not run. The retry with the same client order id
// returns that one order.
func TestLostCreateIsUnknownAndRetryFindsIt(t *testing.T) {
	for name, lost := range map[string]coinbasefake.Fault{
		"timeout": {Match: "POST /orders", Times: 1, Hang: true},
		"reset":   {Match: "POST /orders", Times: 1, Reset: true},
	} {
		t.Run(name, func(t *testing.T) {
			r := newRig(t, 300*time.Millisecond)
			r.fake.Inject(lost, coinbasefake.Fault{Match: "GET /orders/historical/batch", Times: 4, Status: 503})
			req := domain.OrderRequest{ClientOrderID: "u-1", UserID: "u1", Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.01"), Price: dp("40000")}
			_, err := r.x.PlaceOrder(ctx, req)
			if domain.ErrorCode(err) != domain.EUnknownOutcome || !strings.Contains(domain.ErrorMessage(err), "same client order id") {
				t.Fatalf("error %v, want outcome_unknown saying to retry with the same client order id", err)
			}
			if n := r.fake.PendingFaults(); n != 0 {
				t.Fatalf("%d faults not met: the case did not happen", n)
			}
			if n := r.fake.OrderCount(); n != 1 {
				t.Fatalf("%d orders at Coinbase, want the one the lost create made", n)
			}
			o, err := r.x.PlaceOrder(ctx, req)
			if err != nil || o.ClientOrderID != "u-1" || o.Status != domain.StatusOpen || r.fake.OrderCount() != 1 {
				t.Fatalf("retry: %+v %v, %d orders at Coinbase, want the one open order", o, err, r.fake.OrderCount())
			}
			// The gateway asks this before sending a retry: the same order.
			got, err := r.x.OrderByClientID(ctx, "u1", "u-1")
			if err != nil || got.ID != o.ID {
				t.Fatalf("by client order id: %+v %v, want %s", got, err, o.ID)
			}
		})
	}
}

// Without a client order id the trader is told to check Orders, since a
// retry would be a new order.
func TestLostCreateWithoutClientIDSaysCheck(t *testing.T) {
	r := newRig(t, 300*time.Millisecond)
	r.fake.Inject(coinbasefake.Fault{Match: "POST /orders", Times: 1, Hang: true},
		coinbasefake.Fault{Match: "GET /orders/historical/batch", Times: 4, Status: 503})
	_, err := r.x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.01"), Price: dp("40000")})
	if domain.ErrorCode(err) != domain.EUnknownOutcome || !strings.Contains(domain.ErrorMessage(err), "Check Orders") {
		t.Fatalf("error %v", err)
	}
}

// A caller that stops waiting after the create was sent gets 504: the
// order may have been placed (here it was).
func TestCallerGivingUpOnCreateIsUnknown(t *testing.T) {
	r := newRig(t, 30*time.Second)
	if _, err := r.x.Products(ctx); err != nil { // product metadata read before the fault
		t.Fatal(err)
	}
	r.fake.Inject(coinbasefake.Fault{Match: "POST /orders", Times: 1, Hang: true})
	cctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	_, err := r.x.PlaceOrder(cctx, domain.OrderRequest{ClientOrderID: "gone", UserID: "u1", Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.01"), Price: dp("40000")})
	if domain.ErrorCode(err) != domain.EUnknownOutcome {
		t.Fatalf("error %v, want outcome_unknown", err)
	}
	if n := r.fake.OrderCount(); n != 1 {
		t.Fatalf("%d orders at Coinbase, want 1", n)
	}
}

// A cancel whose every answer is lost is looked up: found cancelled, it is
// the answer; when the look fails too, the outcome is unknown (504).
func TestLostCancel(t *testing.T) {
	r := newRig(t, 300*time.Millisecond)
	place := func() domain.Order {
		o, err := r.x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.01"), Price: dp("40000")})
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	a := place()
	r.fake.Inject(coinbasefake.Fault{Match: "POST /orders/batch_cancel", Times: 4, Hang: true})
	c, err := r.x.CancelOrder(ctx, a.ID)
	if err != nil || c.Status != domain.StatusCancelled {
		t.Fatalf("cancel with lost answers: %+v %v, want it found cancelled", c, err)
	}

	b := place()
	read := "GET /orders/historical/" + b.ID
	r.fake.Inject(
		coinbasefake.Fault{Match: read, Times: 1}, // the read before the cancel: answered
		coinbasefake.Fault{Match: "POST /orders/batch_cancel", Times: 4, Hang: true},
		coinbasefake.Fault{Match: read, Times: 4, Status: 503}, // the look after it fails
	)
	_, err = r.x.CancelOrder(ctx, b.ID)
	if domain.ErrorCode(err) != domain.EUnknownOutcome || !strings.Contains(domain.ErrorMessage(err), "may or may not") {
		t.Fatalf("error %v, want outcome_unknown", err)
	}
	if n := r.fake.PendingFaults(); n != 0 {
		t.Fatalf("%d faults not met: the case did not happen", n)
	}
	if now, err := r.x.Order(ctx, b.ID); err != nil || now.Status != domain.StatusCancelled {
		t.Fatalf("order %+v %v: the cancel landed", now, err)
	}
}

// An edit whose two tries both lose their answers, with the look between
// failing, is 504; sending the same edit again finds it made and sends none.
func TestLostEditIsUnknown(t *testing.T) {
	r := newRig(t, 300*time.Millisecond)
	o, err := r.x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: d("0.1"), Price: dp("40000")})
	if err != nil {
		t.Fatal(err)
	}
	read := "GET /orders/historical/" + o.ID
	r.fake.Inject(
		coinbasefake.Fault{Match: read, Times: 1},
		coinbasefake.Fault{Match: "POST /orders/edit", Times: 2, Hang: true},
		coinbasefake.Fault{Match: read, Times: 4, Status: 503},
	)
	_, err = r.x.ModifyOrder(ctx, o.ID, dp("0.2"), dp("45000"))
	if domain.ErrorCode(err) != domain.EUnknownOutcome || !strings.Contains(domain.ErrorMessage(err), "same edit again") {
		t.Fatalf("error %v, want outcome_unknown", err)
	}
	if n := r.fake.PendingFaults(); n != 0 {
		t.Fatalf("%d faults not met: the case did not happen", n)
	}
	m, err := r.x.ModifyOrder(ctx, o.ID, dp("0.2"), dp("45000"))
	if err != nil || !m.Quantity.Equal(d("0.2")) || !m.Price.Equal(d("45000")) {
		t.Fatalf("retry: %+v %v", m, err)
	}
	if n := count(r.fake.Requests(), "POST /orders/edit"); n != 2 {
		t.Fatalf("%d edits sent, want 2 (the retry finds the edit made)", n)
	}
}

// A create that never left this machine (connection refused) certainly did
// not run: 503 unavailable after the retries, not an unknown outcome.
func TestUnreachableCreateIsNotRun(t *testing.T) {
	r := newRig(t, time.Second)
	gone := httptest.NewServer(nil)
	url := gone.URL
	gone.Close()
	c, err := coinbase.NewClient(coinbase.ClientConfig{BaseURL: url, Key: r.key, Retries: 2,
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.CreateOrder(ctx, coinbase.CreateOrderRequest{ClientOrderID: "refused", ProductID: "BTC-USD", Side: "BUY"})
	if domain.ErrorCode(err) != domain.EUnavailable || !strings.Contains(domain.ErrorMessage(err), "could not be reached") {
		t.Fatalf("error %v, want unavailable", err)
	}
}
