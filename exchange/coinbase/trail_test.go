package coinbase_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"kestrel/domain"
	"kestrel/exchange/coinbase"
	"kestrel/exchange/coinbase/coinbasefake"
)

// clock is a time the test moves: the trail's rate limit is read from it,
// so no test waits or depends on the wall clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time       { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration)  { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }
func newClock() *clock                { return &clock{t: time.Now()} }
func trailPct(p string) *domain.Trail { return &domain.Trail{Percent: dp(p)} }
func trailEvery() time.Duration       { return coinbase.DefaultTrailEvery }
func edits(r *rig) int                { return count(r.fake.Requests(), "POST /orders/edit") }
func stopNow(t *testing.T, r *rig, id string) string {
	t.Helper()
	return stopAtFake(t, r, id).StopPrice
}

// trailer is the adapter with a store and a clock, on the rig's client.
func trailer(r *rig, kv *memKV, clk *clock) *coinbase.Exchange {
	return coinbase.New(coinbase.Options{Client: r.x.Client(), Meta: kv, Now: clk.now})
}

// move sets the market at the fake and hands the adapter the tick the
// live feed would.
func move(r *rig, x *coinbase.Exchange, price string) {
	r.fake.SetPrice("BTC-USD", price)
	x.Follow(ctx, domain.Tick{Symbol: "BTC-USD", Price: d(price)})
}

// trailingSell buys 0.1 BTC at 50,000 and guards it with a trailing SELL.
func trailingSell(t *testing.T, r *rig, x *coinbase.Exchange, tr *domain.Trail) domain.Order {
	t.Helper()
	if _, err := x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("0.1")}); err != nil {
		t.Fatal(err)
	}
	o, err := x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Sell, Type: domain.TrailingStop, Quantity: d("0.1"), Trail: tr, UserID: "u1"})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// A trailing stop on Coinbase is a real stop-limit, 2% under the price at
// placement; Kestrel raises it in place as the price makes new highs,
// never lowers it, and it triggers and fills when the price falls to it.
func TestTrailingStopFollowsThePriceUpAndFills(t *testing.T) {
	r := newRig(t, 5*time.Second)
	clk := newClock()
	x := trailer(r, &memKV{m: map[string]string{}}, clk)
	o := trailingSell(t, r, x, trailPct("2"))
	if o.Type != domain.TrailingStop || !o.StopPrice.Equal(d("49000")) || o.Trail == nil || !o.Trail.Extreme.Equal(d("50000")) {
		t.Fatalf("placed %+v", o)
	}
	if c := stopAtFake(t, r, o.ID); c.StopPrice != "49000" || c.LimitPrice != "48510" || c.StopDirection != "STOP_DIRECTION_STOP_DOWN" {
		t.Fatalf("at Coinbase: %+v", c)
	}
	for _, step := range []struct{ price, stop string }{
		{"51000", "49980"}, // a new high: 51,000 x 0.98
		{"50500", "49980"}, // lower: the stop stays
		{"52000", "50960"},
	} {
		clk.add(trailEvery())
		move(r, x, step.price)
		if got := stopNow(t, r, o.ID); got != step.stop {
			t.Fatalf("at %s the stop is %s, want %s", step.price, got, step.stop)
		}
	}
	if got, _ := x.Order(ctx, o.ID); got.Type != domain.TrailingStop || !got.StopPrice.Equal(d("50960")) || !got.Trail.Extreme.Equal(d("52000")) {
		t.Fatalf("Kestrel's view: %+v", got)
	}
	if n := edits(r); n != 2 {
		t.Fatalf("%d edits, want 2 (one per higher stop)", n)
	}
	clk.add(trailEvery())
	move(r, x, "50900") // through the stop: Coinbase triggers it
	if err := x.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	got, _ := x.Order(ctx, o.ID)
	fills := r.fake.Fills()
	last := fills[len(fills)-1]
	if got.Status != domain.StatusFilled || last.Side != "SELL" || last.Size != "0.1" || last.Price != "50900" {
		t.Fatalf("after the fall: %+v, last fill %s %s @ %s", got, last.Side, last.Size, last.Price)
	}
}

// A BUY trailing stop mirrors it: its stop falls with each new low.
func TestTrailingBuyStopFollowsThePriceDown(t *testing.T) {
	r := newRig(t, 5*time.Second)
	clk := newClock()
	x := trailer(r, &memKV{m: map[string]string{}}, clk)
	o, err := x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.TrailingStop, Quantity: d("0.1"), Trail: &domain.Trail{Amount: dp("500")}})
	if err != nil || !o.StopPrice.Equal(d("50500")) {
		t.Fatalf("placed %+v %v", o, err)
	}
	clk.add(trailEvery())
	move(r, x, "49000")
	if c := stopAtFake(t, r, o.ID); c.StopPrice != "49500" || c.StopDirection != "STOP_DIRECTION_STOP_UP" || c.LimitPrice != "49995" {
		t.Fatalf("at Coinbase: %+v", c)
	}
}

// However fast the ticks come, one trailing stop is edited at most once
// per interval; the mark keeps following meanwhile and the next edit
// takes the stop to it.
func TestTrailingStopEditsAreRateLimited(t *testing.T) {
	r := newRig(t, 5*time.Second)
	clk := newClock()
	x := trailer(r, &memKV{m: map[string]string{}}, clk)
	o := trailingSell(t, r, x, trailPct("2"))
	for _, p := range []string{"51000", "51500", "52000"} {
		move(r, x, p)
	}
	if n, stop := edits(r), stopNow(t, r, o.ID); n != 1 || stop != "49980" {
		t.Fatalf("%d edits, stop %s; want the first tick's edit only", n, stop)
	}
	clk.add(trailEvery() - time.Millisecond)
	move(r, x, "52000")
	if n := edits(r); n != 1 {
		t.Fatalf("%d edits before the interval passed", n)
	}
	clk.add(time.Millisecond)
	move(r, x, "52000")
	if n, stop := edits(r), stopNow(t, r, o.ID); n != 2 || stop != "50960" {
		t.Fatalf("%d edits, stop %s; want the second edit to the mark's 50960", n, stop)
	}
}

// Coinbase refusing an edit leaves the stop where it was, live, guarding
// the position; the next round tries again.
func TestRefusedTrailEditLeavesTheStop(t *testing.T) {
	r := newRig(t, 5*time.Second)
	clk := newClock()
	x := trailer(r, &memKV{m: map[string]string{}}, clk)
	o := trailingSell(t, r, x, trailPct("2"))
	r.fake.Inject(coinbasefake.Fault{Match: "POST /orders/edit", Times: 1, Reject: "COMMANDER_REJECTED_EDIT_ORDER"})
	move(r, x, "51000")
	if got, _ := x.Order(ctx, o.ID); r.fake.PendingFaults() != 0 || !got.Status.Live() || stopNow(t, r, o.ID) != "49000" {
		t.Fatalf("after a refused edit: %+v at %s", got, stopNow(t, r, o.ID))
	}
	if _, hold := r.fake.Balance("BTC"); !hold.Equal(d("0.1")) {
		t.Fatalf("BTC on hold %s: the stop no longer guards the position", hold)
	}
	clk.add(trailEvery())
	move(r, x, "51000")
	if got := stopNow(t, r, o.ID); got != "49980" {
		t.Fatalf("stop %s after the next round, want 49980", got)
	}
}

// A stop Coinbase keeps refusing to move raises one alert on the third
// refusal in a row (not before: one refusal can be the price moving as
// the edit was sent), naming the order and both prices; it still guards.
// The edit that lands at last resolves the alert.
func TestRepeatedlyRefusedTrailEditRaisesAnAlert(t *testing.T) {
	r := newRig(t, 5*time.Second)
	clk := newClock()
	type raised struct{ key, severity, title, message string }
	var alerts []raised
	var resolved []string
	x := coinbase.New(coinbase.Options{Client: r.x.Client(), Meta: &memKV{m: map[string]string{}}, Now: clk.now,
		Alert: func(_ context.Context, key, severity, title, message string) {
			alerts = append(alerts, raised{key, severity, title, message})
		},
		ResolveAlert: func(_ context.Context, key string) { resolved = append(resolved, key) }})
	o := trailingSell(t, r, x, trailPct("2"))
	r.fake.Inject(coinbasefake.Fault{Match: "POST /orders/edit", Times: 4, Reject: "COMMANDER_REJECTED_EDIT_ORDER"})
	for round := 1; round <= 4; round++ {
		move(r, x, "51000")
		want := 0
		if round >= coinbase.TrailRefusalsAlert {
			want = 1
		}
		if len(alerts) != want {
			t.Fatalf("round %d: %d alerts, want %d: %+v", round, len(alerts), want, alerts)
		}
		clk.add(trailEvery())
	}
	a := alerts[0]
	if a.key != "coinbase:trailing-stop:"+o.ID || a.severity != "high" || a.title != "Trailing stop not moved" ||
		!strings.Contains(a.message, o.ID) || !strings.Contains(a.message, "stays at 49000") || !strings.Contains(a.message, "instead of 49980") {
		t.Fatalf("alert %+v", a)
	}
	if got := stopNow(t, r, o.ID); got != "49000" {
		t.Fatalf("stop %s after the refusals, want 49000", got)
	}
	if len(resolved) != 0 {
		t.Fatalf("resolved %v while the stop was still behind", resolved)
	}
	move(r, x, "51000") // the fifth edit lands: the alert is resolved, as no longer true
	if got := stopNow(t, r, o.ID); got != "49980" || len(alerts) != 1 || len(resolved) != 1 || resolved[0] != a.key {
		t.Fatalf("stop %s, %d alerts, resolved %v after the edit landed", got, len(alerts), resolved)
	}
	clk.add(trailEvery())
	move(r, x, "52000") // a later move, with no alert open, resolves nothing
	if got := stopNow(t, r, o.ID); got != "50960" || len(resolved) != 1 {
		t.Fatalf("stop %s, resolved %v after a later move", got, resolved)
	}
}

// An edit carried out whose answer is lost is found made by reading the
// order back: it is not sent again.
func TestLostTrailEditIsNotSentAgain(t *testing.T) {
	r := newRig(t, 300*time.Millisecond)
	clk := newClock()
	x := trailer(r, &memKV{m: map[string]string{}}, clk)
	o := trailingSell(t, r, x, trailPct("2"))
	r.fake.Inject(coinbasefake.Fault{Match: "POST /orders/edit", Times: 1, Hang: true})
	move(r, x, "51000")
	if r.fake.PendingFaults() != 0 {
		t.Fatal("the lost edit did not happen")
	}
	if got, _ := x.Order(ctx, o.ID); !got.StopPrice.Equal(d("49980")) {
		t.Fatalf("Kestrel's view after the lost answer: %+v", got)
	}
	clk.add(trailEvery())
	move(r, x, "51000")
	if n := edits(r); n != 1 {
		t.Fatalf("%d edits, want the one whose answer was lost", n)
	}
}

// Until the activation price is reached the stop rests where it was
// placed (at the trail from the price then), guarding the position;
// from there it trails.
func TestTrailingStopWaitsForItsActivationPrice(t *testing.T) {
	r := newRig(t, 5*time.Second)
	clk := newClock()
	x := trailer(r, &memKV{m: map[string]string{}}, clk)
	o := trailingSell(t, r, x, &domain.Trail{Percent: dp("2"), Activation: dp("52000")})
	if !o.StopPrice.Equal(d("49000")) || o.Trail.Extreme != nil {
		t.Fatalf("placed %+v", o)
	}
	clk.add(trailEvery())
	move(r, x, "51000")
	if n, got := edits(r), stopNow(t, r, o.ID); n != 0 || got != "49000" {
		t.Fatalf("before activation: %d edits, stop %s", n, got)
	}
	clk.add(trailEvery())
	move(r, x, "52500")
	if got := stopNow(t, r, o.ID); got != "51450" {
		t.Fatalf("after activation: stop %s, want 51450", got)
	}
}

// The mark is stored: a new adapter on the same store (a restart, or the
// instance taking over the engine) trails on from the highest price seen,
// not from the stop's last edit.
func TestTrailingStopResumesFromTheStoredMark(t *testing.T) {
	r := newRig(t, 5*time.Second)
	clk := newClock()
	kv := &memKV{m: map[string]string{}}
	x := trailer(r, kv, clk)
	o := trailingSell(t, r, x, trailPct("2"))
	move(r, x, "51000")
	move(r, x, "53000") // within the interval: the mark moves, the stop waits
	if got := stopNow(t, r, o.ID); got != "49980" {
		t.Fatalf("stop %s before the restart", got)
	}
	again := trailer(r, kv, clk)
	if err := again.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	clk.add(trailEvery())
	r.fake.SetPrice("BTC-USD", "52000")
	again.Follow(ctx, domain.Tick{Symbol: "BTC-USD", Price: d("52000")})
	if got := stopNow(t, r, o.ID); got != "51940" { // 53,000 x 0.98
		t.Fatalf("stop %s after the restart, want 51940 from the stored 53,000", got)
	}
}
