package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/loadgen"
	"kestrel/store/storetest"
)

// The flood the crash tests send: a fixed mix of market, limit, stop-loss,
// modify and cancel requests from concurrent clients, every placement with a
// client order id, and a record of what each request got so the ledger can
// be checked against the acknowledgements and every unanswered request
// retried.

type opKind int

const (
	opLimit opKind = iota
	opMarket
	opStop
	opModify
	opCancel
)

var opNames = [...]string{"limit", "market", "stop-loss", "modify", "cancel"}

// mix is the operation of request i (i mod 10): 4 limits, 1 market, 1
// stop-loss, 2 modifies, 2 cancels. A modify or cancel from a client with no
// resting order of its own becomes a limit.
var mix = [10]opKind{opLimit, opLimit, opMarket, opModify, opLimit, opStop, opCancel, opLimit, opModify, opCancel}

// floodClients is how many requests are in flight at once.
const floodClients = 16

// request is one request of the flood and what became of it.
type request struct {
	kind     opKind
	cid      string          // placements
	target   string          // modify, cancel: the order
	price    decimal.Decimal // modify: the new limit price
	order    string          // placements: the acknowledged order's id
	answered bool
}

func (r *request) String() string {
	if r.cid != "" {
		return opNames[r.kind] + " " + r.cid
	}
	return opNames[r.kind] + " of " + r.target
}

// floodClient is one concurrent client and the resting limits it placed.
type floodClient struct {
	id      int
	resting []string
}

type flood struct {
	t      *testing.T
	c      *loadgen.Client
	plan   loadgen.Plan
	stop   decimal.Decimal // stop-loss trigger, far below the market
	prefix string

	mu        sync.Mutex
	reqs      []*request
	next      int
	acked     int                        // placements acknowledged
	modified  map[string]decimal.Decimal // order id -> last acknowledged price
	cancelled map[string]bool            // order id -> cancel acknowledged
	refused   map[string]int             // 503 and 504 answers (retried later) by message
	found     int                        // retried placements the server had stored before (200, not 201)
	clients   []*floodClient
	halt      atomic.Bool // stop sending
	down      atomic.Bool // a request got no answer: the server is gone
}

// newFlood signs in to srv and funds the account for the flood's resting
// SELLs (each rests about ten times above the market and never fills).
func newFlood(t *testing.T, url, prefix string) *flood {
	t.Helper()
	ctx := context.Background()
	f := &flood{t: t, c: loadgen.NewClient(url, floodClients), prefix: prefix,
		modified: map[string]decimal.Decimal{}, cancelled: map[string]bool{}, refused: map[string]int{}}
	if err := f.c.SignIn(ctx, "crash@example.com", "crash-test-pass", "Crash", true); err != nil {
		t.Fatal(err)
	}
	var err error
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if f.plan, err = loadgen.Prepare(ctx, f.c, "BTC-USD", "SELL", decimal.Zero, 1_000, decimal.NewFromInt(10_000), io.Discard); err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	// LimitPrice is about 10x the market; a hundredth of it is about a tenth.
	f.stop = f.plan.LimitPrice.Div(decimal.NewFromInt(100)).Floor()
	for i := 0; i < floodClients; i++ {
		f.clients = append(f.clients, &floodClient{id: i})
	}
	return f
}

// run sends requests next..end-1 from the concurrent clients and returns
// when they are all sent, when halt is set, or when the server stops
// answering (each client then stops at its first unanswered request).
// reached (if not nil) is closed when request at is handed out: the moment
// to kill, with the flood still going.
// run hands out requests up to end; reached closes when request at is
// handed out and late when request end-lateMargin is (nil: not wanted).
func (f *flood) run(end, at int, reached, late chan struct{}) {
	f.down.Store(false)
	// A fast server can pass a kill point during the delay before the
	// previous kill: that point is reached as soon as the flood goes on.
	at = max(at, f.next)
	var wg sync.WaitGroup
	for _, fc := range f.clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !f.halt.Load() && !f.down.Load() {
				f.mu.Lock()
				if f.next >= end {
					f.mu.Unlock()
					return
				}
				r := f.build(fc, f.next)
				if f.next == at && reached != nil {
					close(reached)
				}
				if f.next == end-lateMargin && late != nil {
					close(late)
				}
				f.next++
				f.mu.Unlock()
				f.send(fc, r)
			}
		}()
	}
	wg.Wait()
}

// lateMargin is how many requests are still to be handed out when run
// says the flood is nearly over: a kill waits no longer than that, so the
// server dies with requests in flight however fast it answers.
const lateMargin = 100

// build makes request i for fc. Callers hold mu.
func (f *flood) build(fc *floodClient, i int) *request {
	r := &request{kind: mix[i%len(mix)]}
	if (r.kind == opModify || r.kind == opCancel) && len(fc.resting) == 0 {
		r.kind = opLimit
	}
	switch r.kind {
	case opModify: // the next resting order, to the other of the two prices
		r.target = fc.resting[0]
		fc.resting = append(fc.resting[1:], r.target)
		r.price = f.plan.AltPrice
		if p, ok := f.modified[r.target]; ok && p.Equal(f.plan.AltPrice) {
			r.price = f.plan.LimitPrice
		}
	case opCancel:
		last := len(fc.resting) - 1
		r.target = fc.resting[last]
		fc.resting = fc.resting[:last]
	default:
		r.cid = fmt.Sprintf("%s-%d", f.prefix, i)
	}
	f.reqs = append(f.reqs, r)
	return r
}

func (f *flood) call(r *request) (int, loadgen.OrderReply, error) {
	p := f.plan
	var method, path string
	var body map[string]any
	switch r.kind {
	case opLimit:
		method, path = http.MethodPost, "/api/trading/orders/limit"
		body = map[string]any{"symbol": p.Symbol, "side": p.Side, "quantity": p.Quantity.String(), "price": p.LimitPrice.String(), "client_order_id": r.cid}
	case opMarket:
		method, path = http.MethodPost, "/api/trading/execute"
		body = map[string]any{"symbol": p.Symbol, "action": p.Side, "quantity": p.Quantity.String(), "order_type": "market", "client_order_id": r.cid}
	case opStop:
		method, path = http.MethodPost, "/api/trading/orders/stop-loss"
		body = map[string]any{"symbol": p.Symbol, "side": p.Side, "quantity": p.Quantity.String(), "stop_price": f.stop.String(), "client_order_id": r.cid}
	case opModify:
		method, path = http.MethodPut, "/api/trading/orders/"+r.target
		body = map[string]any{"price": r.price.String()}
	case opCancel:
		method, path = http.MethodDelete, "/api/trading/orders/"+r.target
	}
	var out loadgen.OrderReply
	var b any
	if body != nil {
		b = body
	}
	status, err := f.c.Do(context.Background(), method, path, b, &out)
	return status, out, err
}

// send sends r once and records the answer. No answer at all (the server
// died) and a 503 leave r to be retried; any other failure fails the test.
func (f *flood) send(fc *floodClient, r *request) {
	status, out, err := f.call(r)
	f.mu.Lock()
	defer f.mu.Unlock()
	if err == nil {
		f.answer(r, out)
		if r.kind == opLimit && fc != nil && (out.Order.Status == "open" || out.Order.Status == "pending") {
			fc.resting = append(fc.resting, out.Order.ID)
		}
		return
	}
	var ae *loadgen.APIError
	switch {
	case errors.As(err, &ae) && ae.Message != "" && (ae.Status == http.StatusServiceUnavailable && ae.Code == domain.EUnavailable ||
		ae.Status == http.StatusGatewayTimeout && ae.Code == domain.EUnknownOutcome): // not run, or not known to have run
		f.refused[ae.Message]++
	case status == 0:
		// unanswered: the outcome is unknown until the retry
		f.down.Store(true)
	default:
		f.t.Errorf("%s: %v", r, err)
	}
}

// answer records an acknowledgement. Callers hold mu.
func (f *flood) answer(r *request, out loadgen.OrderReply) {
	r.answered = true
	switch r.kind {
	case opModify:
		if out.Order.ID != r.target {
			f.t.Errorf("%s answered for order %s", r, out.Order.ID)
		}
		f.modified[r.target] = r.price
	case opCancel:
		f.cancelled[r.target] = true
	default:
		r.order = out.Order.ID
		f.acked++
	}
}

// retry sends every unanswered request again until it is answered (a 503
// waits and tries again, for at most 10 s). A cancel that finds its order
// already cancelled was applied the first time; a refused modify of an
// order its client cancelled since is moot. It returns how many it
// retried.
func (f *flood) retry() int {
	f.mu.Lock()
	var todo []*request
	for _, r := range f.reqs {
		if !r.answered {
			todo = append(todo, r)
		}
	}
	f.mu.Unlock()
	for _, r := range todo {
		f.mu.Lock()
		superseded := r.kind == opModify && f.cancelled[r.target]
		f.mu.Unlock()
		if superseded { // refused, then its client cancelled the order: moot
			continue
		}
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			status, out, err := f.call(r)
			var ae *loadgen.APIError
			switch {
			case err == nil:
				f.mu.Lock()
				f.answer(r, out)
				if r.cid != "" && status == http.StatusOK {
					f.found++
				}
				f.mu.Unlock()
			case r.kind == opCancel && errors.As(err, &ae) && ae.Code == domain.EConflict && strings.Contains(ae.Message, string(domain.StatusCancelled)):
				f.mu.Lock()
				r.answered = true
				f.cancelled[r.target] = true
				f.mu.Unlock()
			case (status == 0 || status == http.StatusServiceUnavailable) && time.Now().Before(deadline):
				continue
			default:
				f.t.Fatalf("retry of %s: %v", r, err)
			}
			break
		}
	}
	return len(todo)
}

// replay sends every acknowledged placement again: each must answer 200
// with the order it was first acknowledged as (the client order id makes
// the request idempotent across restarts). Modified orders are left out:
// the original request no longer matches them, and the server rightly
// refuses their client order id for it (409).
func (f *flood) replay() int {
	n := 0
	for _, r := range f.reqs {
		if _, changed := f.modified[r.order]; r.cid == "" || changed {
			continue
		}
		status, out, err := f.call(r)
		if err != nil || status != http.StatusOK || out.Order.ID != r.order {
			f.t.Fatalf("%s was acknowledged as %s; sent again it is %q (status %d, %v)", r, r.order, out.Order.ID, status, err)
		}
		n++
	}
	return n
}

// counts says what the flood sent, by kind, for the log.
func (f *flood) counts() string {
	if f.refusedTotal() == 0 {
		return f.sent()
	}
	return f.sent() + "; " + f.refusals()
}

// refusals sums the 503 answers by message.
func (f *flood) refusals() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var parts []string
	for m, n := range f.refused {
		parts = append(parts, fmt.Sprintf("%d × %q", n, m))
	}
	slices.Sort(parts)
	return fmt.Sprintf("503 and 504 answers: %d kinds [%s]", len(parts), strings.Join(parts, ", "))
}

// refusedTotal is how many 503 answers the flood got.
func (f *flood) refusedTotal() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.refused {
		n += c
	}
	return n
}

func (f *flood) sent() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var by [len(opNames)]int
	for _, r := range f.reqs {
		by[r.kind]++
	}
	parts := make([]string, len(opNames))
	for k, n := range by {
		parts[k] = fmt.Sprintf("%d %s", n, opNames[k])
	}
	return fmt.Sprintf("%d requests (%s)", len(f.reqs), strings.Join(parts, ", "))
}

// verifyLedger checks the journal: each placement's order exactly once with
// the acknowledged id, acknowledged cancels and modifies kept, holds equal
// to the live orders' holds, and every balance equal to the starting funds
// moved by the fills.
func verifyLedger(t *testing.T, ctx context.Context, st domain.LedgerStore, f *flood) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	orders, err := st.LedgerOrders(ctx, domain.OrderFilter{Limit: 1_000_000})
	if err != nil {
		t.Fatal(err)
	}
	byCID := map[string][]domain.Order{}
	byID := map[string]domain.Order{}
	for _, o := range orders {
		byID[o.ID] = o
		if o.ClientOrderID != "" {
			byCID[o.ClientOrderID] = append(byCID[o.ClientOrderID], o)
		}
	}
	for _, r := range f.reqs {
		if r.cid == "" {
			continue
		}
		if got := byCID[r.cid]; len(got) != 1 || got[0].ID != r.order {
			t.Fatalf("%s: %d stored orders, want exactly 1 with id %s", r, len(got), r.order)
		}
	}
	for id := range f.cancelled {
		if o := byID[id]; o.Status != domain.StatusCancelled {
			t.Fatalf("cancel of %s was acknowledged, but it is %q", id, o.Status)
		}
	}
	for id, p := range f.modified {
		if o := byID[id]; o.Price == nil || !o.Price.Equal(p) {
			t.Fatalf("modify of %s to %s was acknowledged, but its price is %v", id, p, o.Price)
		}
	}
	fills, err := st.LedgerFills(ctx, domain.FillFilter{Limit: 1_000_000})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]decimal.Decimal{"USD": decimal.NewFromInt(100_000)}
	perOrder := map[string]decimal.Decimal{}
	for _, fl := range fills {
		base, quote, _ := strings.Cut(fl.Symbol, "-")
		notional := fl.Quantity.Mul(fl.Price)
		if fl.Side == domain.Buy {
			want[base] = want[base].Add(fl.Quantity)
			want[quote] = want[quote].Sub(notional).Sub(fl.Fee)
		} else {
			want[base] = want[base].Sub(fl.Quantity)
			want[quote] = want[quote].Add(notional).Sub(fl.Fee)
		}
		perOrder[fl.OrderID] = perOrder[fl.OrderID].Add(fl.Quantity)
	}
	for id, q := range perOrder {
		if o, ok := byID[id]; !ok || !o.FilledQuantity.Equal(q) {
			t.Fatalf("order %s: filled %s, its fills say %s", id, o.FilledQuantity, q)
		}
	}
	holds, live := storetest.LiveHolds(t, st)
	bals, err := st.LedgerBalances(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bals {
		if !b.Total().Equal(want[b.Currency]) {
			t.Errorf("%s total %s, the fills say %s", b.Currency, b.Total(), want[b.Currency])
		}
		if !b.Hold.Equal(holds[b.Currency]) {
			t.Errorf("%s hold %s, the live orders hold %s", b.Currency, b.Hold, holds[b.Currency])
		}
		delete(want, b.Currency)
	}
	for cur, v := range want {
		if !v.IsZero() {
			t.Errorf("%s: no balance stored, the fills say %s", cur, v)
		}
	}
	t.Logf("ledger: %d orders, %d fills, %d live orders, %d cancels and %d modified prices checked", len(orders), len(fills), len(live), len(f.cancelled), len(f.modified))
}
