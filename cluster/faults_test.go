package cluster_test

import (
	"context"
	"fmt"
	"math/rand"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/jackc/pgx/v5"
)

// TestSeededFaults runs three real instances under a mixed flood of orders
// from several clients (market BUYs that fill and get their protective
// stop; resting limit BUYs, some modified to a new price, then cancelled;
// each with a client order id, every attempt retried with it until
// answered) while seeded random faults hit them: SIGKILL of the leader or
// of a follower (restarted), SIGSTOP of the leader or of a follower, a NATS
// restart (when a nats-server can be started here) and the database's
// connections terminated. Then: every acknowledged order exists exactly
// once; no order whose every attempt was refused with 503 exists; every
// filled order's fills add up to its quantity once; USD and BTC balances
// are the starting funds moved by the fills (prices and fees); each
// currency's hold is its live orders' holds; and each order's history of
// place, modify and cancel attempts, with the final state (status and
// price) read from the database, is linearizable (porcupine). The seed is
// printed; KESTREL_FAULT_SEED=<seed> replays its faults and choices.
func TestSeededFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three servers")
	}
	seed := time.Now().UnixNano()
	if s := os.Getenv("KESTREL_FAULT_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseInt(s, 10, 64); err != nil {
			t.Fatalf("KESTREL_FAULT_SEED: %v", err)
		}
	}
	t.Logf("seed %d (replay with KESTREL_FAULT_SEED=%d)", seed, seed)
	rng := rand.New(rand.NewSource(seed))
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	dbURL := freshDatabase(t)
	natsURL, restartNATS := privateNATS(t)
	if natsURL == "" {
		natsURL = natsOrSkip(t)
		t.Log("no nats-server here: the NATS restart fault is left out")
	}
	bin := buildKestrel(t, ctx)

	suffix := randHex(4)
	name := "kestrelfaults" + suffix
	env := []string{"KESTREL_FORWARD_TIMEOUT=2s"}
	var mu sync.Mutex // guards slots
	slots := make([]*instance, 3)
	for i := range slots {
		slots[i] = start(t, bin, dbURL, natsURL, name, fmt.Sprintf("c%d-%s", i+1, suffix), env...)
	}
	for _, in := range slots {
		waitReady(t, ctx, in)
	}
	token := register(t, ctx, slots[0].url)
	leaderOf := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		for _, in := range slots {
			qctx, cancel := context.WithTimeout(ctx, time.Second) // a frozen instance does not answer
			v, ok := clusterOf(qctx, in.url, token)
			cancel()
			if ok && v.Leader != "" {
				for i, s := range slots {
					if s.id == v.Leader {
						return i, true
					}
				}
			}
		}
		return 0, false
	}
	waitFor(t, ctx, 15*time.Second, "a leader", func() bool { _, ok := leaderOf(); return ok })
	waitFor(t, ctx, 10*time.Second, "the risk limits to be raised", func() bool {
		return call(ctx, "PUT", slots[0].url+"/api/settings", token, `{"trading":{"riskManagement":{"maxDailyTrades":1000,"maxPositionSize":0.9}}}`, nil) == http.StatusOK
	})

	// The starting funds, before any fill: the balances must end as these
	// moved by the fills. (A connection of its own each time: the fault
	// that terminates the database's connections would end a kept one.)
	funds := func() (usd, btc string) {
		t.Helper()
		conn, err := pgx.Connect(ctx, dbURL)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(context.Background())
		if err := conn.QueryRow(ctx, `SELECT
			coalesce((SELECT (available::numeric + hold::numeric)::text FROM sandbox_balances WHERE currency = 'USD'), '0'),
			coalesce((SELECT (available::numeric + hold::numeric)::text FROM sandbox_balances WHERE currency = 'BTC'), '0')`).Scan(&usd, &btc); err != nil {
			t.Fatal(err)
		}
		return usd, btc
	}
	startUSD, startBTC := funds()

	// The clients.
	began := time.Now()
	var hmu sync.Mutex
	var history []porcupine.Operation
	var acked []string        // client order ids acknowledged
	statuses := map[int]int{} // attempts by HTTP status (0: no answer)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	const clients = 4
	for c := range clients {
		crng := rand.New(rand.NewSource(seed + int64(c) + 1))
		wg.Add(1)
		go func() {
			defer wg.Done()
			pick := func() string {
				mu.Lock()
				defer mu.Unlock()
				return slots[crng.Intn(len(slots))].url
			}
			attempt := func(in opInput, do func(url string) (int, string)) (int, string) {
				call := time.Since(began).Nanoseconds()
				status, id := do(pick())
				out := classify(in.kind, status)
				hmu.Lock()
				statuses[status]++
				history = append(history, porcupine.Operation{ClientId: c, Input: in, Call: call, Output: out, Return: time.Since(began).Nanoseconds()})
				hmu.Unlock()
				if out == outOther {
					t.Errorf("%s %s: unexpected status %d", in.kind, in.cid, status)
				}
				return status, id
			}
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				cid := fmt.Sprintf("ch-%s-%d-%d", suffix, c, i)
				market := crng.Intn(4) == 0 // a market BUY that fills; else a resting limit
				kind := "place"
				if market {
					kind = "market"
				}
				var id string
				for ctx.Err() == nil { // place until answered for certain
					status, got := attempt(opInput{kind: kind, cid: cid}, func(url string) (int, string) {
						o, s := placeWithin(ctx, url, token, cid, market)
						return s, o.ID
					})
					if status == http.StatusCreated || status == http.StatusOK {
						id = got
						hmu.Lock()
						acked = append(acked, cid)
						hmu.Unlock()
						break
					}
					if classify(kind, status) == outNotRun && (status != http.StatusServiceUnavailable || crng.Intn(2) == 0) {
						// Refused for good (a rule), or a 503 the client takes
						// at its word half the time: the order must never exist.
						break
					}
					time.Sleep(100 * time.Millisecond)
				}
				if market {
					id = "" // filled: nothing to cancel
				}
				if px := strconv.Itoa(900 + crng.Intn(99)); id != "" && crng.Intn(2) == 0 {
					for ctx.Err() == nil { // a new price, until answered for certain
						status, _ := attempt(opInput{kind: "modify", cid: cid, px: px}, func(url string) (int, string) {
							return modifyWithin(ctx, url, token, id, px), ""
						})
						if status == http.StatusOK || status == http.StatusConflict || classify("modify", status) == outNotRun && status != http.StatusServiceUnavailable {
							break
						}
						time.Sleep(100 * time.Millisecond)
					}
				}
				for id != "" && ctx.Err() == nil { // then cancel it until answered for certain
					status, _ := attempt(opInput{kind: "cancel", cid: cid}, func(url string) (int, string) {
						return cancelWithin(ctx, url, token, id), ""
					})
					if status == http.StatusOK || status == http.StatusConflict {
						break
					}
					time.Sleep(100 * time.Millisecond)
				}
				time.Sleep(150 * time.Millisecond) // paced: the run stays inside the day's trade limit
			}
		}()
	}

	// The faults.
	faults := map[string]int{}
	var newLeader []time.Duration
	faultsUntil := time.Now().Add(20 * time.Second)
	for time.Now().Before(faultsUntil) && ctx.Err() == nil {
		time.Sleep(time.Duration(1500+rng.Intn(1500)) * time.Millisecond)
		li, ok := leaderOf()
		if !ok {
			continue
		}
		kinds := []string{"kill leader", "kill follower", "stop leader", "stop follower", "terminate database connections"}
		if restartNATS != nil {
			kinds = append(kinds, "restart NATS")
		}
		kind := kinds[rng.Intn(len(kinds))]
		faults[kind]++
		t.Logf("%s: %s", time.Since(began).Round(time.Millisecond), kind)
		switch kind {
		case "kill leader":
			mu.Lock()
			old := slots[li]
			mu.Unlock()
			at := time.Now()
			_ = old.cmd.Process.Signal(syscall.SIGKILL)
			_ = old.cmd.Wait()
			if _, ok := waitNewLeader(ctx, leaderOf, slots, &mu, old.id); ok {
				newLeader = append(newLeader, time.Since(at))
			}
			in := start(t, bin, dbURL, natsURL, name, old.id, env...)
			waitReady(t, ctx, in)
			mu.Lock()
			slots[li] = in
			mu.Unlock()
		case "kill follower":
			i := (li + 1 + rng.Intn(2)) % 3
			mu.Lock()
			old := slots[i]
			mu.Unlock()
			_ = old.cmd.Process.Signal(syscall.SIGKILL)
			_ = old.cmd.Wait()
			in := start(t, bin, dbURL, natsURL, name, old.id, env...)
			waitReady(t, ctx, in)
			mu.Lock()
			slots[i] = in
			mu.Unlock()
		case "stop leader", "stop follower":
			i := li
			if kind == "stop follower" {
				i = (li + 1 + rng.Intn(2)) % 3
			}
			mu.Lock()
			in := slots[i]
			mu.Unlock()
			at := time.Now()
			_ = in.cmd.Process.Signal(syscall.SIGSTOP)
			if kind == "stop leader" {
				if _, ok := waitNewLeader(ctx, leaderOf, slots, &mu, in.id); ok {
					newLeader = append(newLeader, time.Since(at))
				}
			} else {
				time.Sleep(2 * time.Second)
			}
			_ = in.cmd.Process.Signal(syscall.SIGCONT)
		case "restart NATS":
			restartNATS(time.Second)
		case "terminate database connections":
			terminateConnections(t, ctx, dbURL)
		}
	}
	time.Sleep(3 * time.Second) // calm: the last retries land
	close(stop)
	wg.Wait()
	took := time.Since(began)

	// The checks.
	admin, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.Background())
	rows, err := admin.Query(ctx, `SELECT client_order_id, status, coalesce(trunc(price::numeric)::text, '') FROM sandbox_orders WHERE client_order_id LIKE 'ch-%'`)
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string][]string{}
	storedPx := map[string]string{}
	for rows.Next() {
		var cid, status, px string
		if err := rows.Scan(&cid, &status, &px); err != nil {
			t.Fatal(err)
		}
		stored[cid] = append(stored[cid], status)
		storedPx[cid] = px
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for cid, rows := range stored {
		if len(rows) > 1 {
			t.Errorf("client order id %s is stored %d times: a command ran twice", cid, len(rows))
		}
	}
	for _, cid := range acked {
		if len(stored[cid]) != 1 {
			t.Errorf("acknowledged order %s is stored %d times", cid, len(stored[cid]))
		}
	}
	refusedOnly := map[string]bool{} // client order id -> every attempt refused (not run)
	marketIDs := map[string]bool{}
	for _, op := range history {
		in, out := op.Input.(opInput), op.Output.(opOutput)
		if in.kind == "market" {
			marketIDs[in.cid] = true
		}
		if in.kind != "place" && in.kind != "market" {
			continue
		}
		if _, seen := refusedOnly[in.cid]; !seen {
			refusedOnly[in.cid] = true
		}
		if out != outNotRun {
			refusedOnly[in.cid] = false
		}
	}
	abandoned := 0
	for cid, only := range refusedOnly {
		if only {
			abandoned++
			if len(stored[cid]) > 0 {
				t.Errorf("order %s exists though every attempt was refused", cid)
			}
		}
	}
	// Each currency's hold is its live orders' holds (BUYs hold USD, SELLs
	// the base: the protective stops of the market BUYs hold BTC).
	for _, c := range []struct{ cur, side string }{{"USD", "BUY"}, {"BTC", "SELL"}} {
		var hold, live string
		if err := admin.QueryRow(ctx, `SELECT coalesce((SELECT hold FROM sandbox_balances WHERE currency = $1), '0'),
			(SELECT coalesce(sum(hold::numeric), 0)::text FROM sandbox_orders WHERE status IN ('pending', 'open') AND side = $2)`, c.cur, c.side).Scan(&hold, &live); err != nil {
			t.Fatal(err)
		}
		if !sameDecimal(t, ctx, admin, hold, live) {
			t.Errorf("%s hold %s, live %s orders' holds %s", c.cur, hold, c.side, live)
		}
	}
	// Every fill once: a filled order's fills add up to its quantity, and
	// the balances are the starting funds moved by every fill.
	var short int
	if err := admin.QueryRow(ctx, `SELECT count(*) FROM sandbox_orders o WHERE o.status = 'filled' AND o.quantity::numeric <>
		(SELECT coalesce(sum(f.quantity::numeric), 0) FROM sandbox_fills f WHERE f.order_id = o.id)`).Scan(&short); err != nil {
		t.Fatal(err)
	}
	if short != 0 {
		t.Errorf("%d filled orders whose fills do not add up to their quantity", short)
	}
	var fills int
	var usdMoved, btcMoved string
	if err := admin.QueryRow(ctx, `SELECT count(*),
		coalesce(sum(CASE side WHEN 'BUY' THEN -(quantity::numeric * price::numeric) ELSE quantity::numeric * price::numeric END - fee::numeric), 0)::text,
		coalesce(sum(CASE side WHEN 'BUY' THEN quantity::numeric ELSE -quantity::numeric END), 0)::text
		FROM sandbox_fills WHERE symbol = 'BTC-USD'`).Scan(&fills, &usdMoved, &btcMoved); err != nil {
		t.Fatal(err)
	}
	endUSD, endBTC := funds()
	var usdOK, btcOK bool
	if err := admin.QueryRow(ctx, `SELECT $1::numeric + $2::numeric = $3::numeric, $4::numeric + $5::numeric = $6::numeric`,
		startUSD, usdMoved, endUSD, startBTC, btcMoved, endBTC).Scan(&usdOK, &btcOK); err != nil {
		t.Fatal(err)
	}
	if !usdOK || !btcOK {
		t.Errorf("balances do not reconcile with %d fills: USD %s %+s = %s? BTC %s %+s = %s?", fills, startUSD, usdMoved, endUSD, startBTC, btcMoved, endBTC)
	}
	// The final state of every order, read after everything settled.
	end := time.Since(began).Nanoseconds()
	for cid := range refusedOnly {
		state := orderState{st: stateAbsent}
		if st := stored[cid]; len(st) == 1 {
			state = orderState{st: stateOf(st[0]), px: storedPx[cid]}
			if marketIDs[cid] {
				state.px = "" // a market order has no price of its own
			}
		}
		history = append(history, porcupine.Operation{ClientId: clients, Input: opInput{kind: "read", cid: cid}, Call: end, Output: state, Return: end + 1})
	}
	res := porcupine.CheckOperationsTimeout(orderModel.ToModel(), history, 30*time.Second)
	t.Logf("seed %d: %s under faults %v; %d orders (%d market), %d acknowledged, %d given up after a refusal, %d fills (USD %s -> %s, BTC %s -> %s); attempts by status %v; new leader after a leader fault: %v; linearizable: %v",
		seed, took.Round(time.Second), faults, len(refusedOnly), len(marketIDs), len(acked), abandoned, fills, startUSD, endUSD, startBTC, endBTC, statuses, newLeader, res)
	if res != porcupine.Ok {
		t.Errorf("the history of place, modify and cancel is not linearizable (%v); seed %d", res, seed)
		// Name the orders whose own history is not, with what each attempt was told.
		by := map[string][]porcupine.Operation{}
		for _, op := range history {
			by[op.Input.(opInput).cid] = append(by[op.Input.(opInput).cid], op)
		}
		for cid, ops := range by {
			if porcupine.CheckOperations(orderModel.ToModel(), ops) {
				continue
			}
			for _, op := range ops {
				t.Logf("%s: %+v -> %+v (%.3f s to %.3f s)", cid, op.Input, op.Output, float64(op.Call)/1e9, float64(op.Return)/1e9)
			}
		}
	}
	for _, d := range newLeader {
		if d > 10*time.Second {
			t.Errorf("a new leader took %s after a leader fault, want at most 10 s", d)
		}
	}
}

// waitNewLeader waits for an instance other than old to be named leader.
func waitNewLeader(ctx context.Context, leaderOf func() (int, bool), slots []*instance, mu *sync.Mutex, old string) (int, bool) {
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline) && ctx.Err() == nil; time.Sleep(50 * time.Millisecond) {
		if i, ok := leaderOf(); ok {
			mu.Lock()
			id := slots[i].id
			mu.Unlock()
			if id != old {
				return i, true
			}
		}
	}
	return 0, false
}

// The model of one order (a client order id): absent, open (at a price),
// cancelled, or filled (a market order).
const (
	stateAbsent = iota
	stateOpen
	stateCancelled
	stateFilled
)

// orderState is an order's state and, while it rests, its limit price;
// a read's output is the state found in the database.
type orderState struct {
	st int
	px string
}

// placedAt is the price placeWithin gives a limit order.
const placedAt = "1000"

// opInput is an attempt: place (a limit), market, modify (to px), cancel,
// or the final read.
type opInput struct{ kind, cid, px string }

// opOutput is what an attempt was told.
type opOutput int

const (
	outOK      opOutput = 100 + iota // placed (201, or 200: the same order again), or cancelled (200)
	outNotRun                        // 503, or a refusal of the request itself: it did not run
	outUnknown                       // 504 or no answer: it may have run
	outAlready                       // cancel: 409, no longer open
	outOther                         // anything else (a failure of the test)
)

func classify(kind string, status int) opOutput {
	switch {
	case status == http.StatusOK || status == http.StatusCreated:
		return outOK
	case status == http.StatusConflict && (kind == "cancel" || kind == "modify"):
		return outAlready
	case status == http.StatusServiceUnavailable || status == http.StatusBadRequest || status == http.StatusUnprocessableEntity:
		return outNotRun
	case status == http.StatusGatewayTimeout || status == 0:
		return outUnknown
	}
	return outOther
}

func stateOf(status string) int {
	switch status {
	case "pending", "open":
		return stateOpen
	case "cancelled":
		return stateCancelled
	case "filled":
		return stateFilled
	}
	return -1 // rejected: not something this test's orders do
}

var orderModel = porcupine.NondeterministicModel{
	Partition: func(h []porcupine.Operation) [][]porcupine.Operation {
		by := map[string][]porcupine.Operation{}
		for _, op := range h {
			cid := op.Input.(opInput).cid
			by[cid] = append(by[cid], op)
		}
		out := make([][]porcupine.Operation, 0, len(by))
		for _, ops := range by {
			out = append(out, ops)
		}
		return out
	},
	Init: func() []any { return []any{orderState{st: stateAbsent}} },
	Step: func(state, input, output any) []any {
		s, in := state.(orderState), input.(opInput)
		if in.kind == "read" {
			if output.(orderState) == s {
				return []any{s}
			}
			return nil
		}
		out := output.(opOutput)
		if out == outNotRun {
			return []any{s}
		}
		// next is the state the attempt leads to when it runs, if it can.
		var next orderState
		switch in.kind {
		case "place", "market":
			if s.st != stateAbsent { // a retry: the same order again
				if out == outOK || out == outUnknown {
					return []any{s}
				}
				return nil
			}
			next = orderState{st: stateOpen, px: placedAt}
			if in.kind == "market" {
				next = orderState{st: stateFilled}
			}
		case "modify":
			if out == outAlready {
				if s.st != stateOpen {
					return []any{s}
				}
				return nil
			}
			if s.st != stateOpen {
				return nil
			}
			next = orderState{st: stateOpen, px: in.px}
		case "cancel":
			if out == outAlready {
				if s.st == stateCancelled {
					return []any{s}
				}
				return nil
			}
			if s.st != stateOpen {
				if out == outUnknown {
					return []any{s}
				}
				return nil
			}
			next = orderState{st: stateCancelled, px: s.px} // a cancelled order keeps its last price
		}
		switch out {
		case outOK:
			return []any{next}
		case outUnknown:
			return []any{s, next}
		}
		return nil
	},
}

// placeWithin places a market BUY or a resting limit BUY (at placedAt),
// giving up after 15 s (no answer: status 0).
func placeWithin(ctx context.Context, url, token, cid string, market bool) (order, int) {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	return place(ctx, url, token, cid, market)
}

// modifyWithin gives a live limit order a new price, giving up after 15 s.
func modifyWithin(ctx context.Context, url, token, id, px string) int {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	return call(ctx, "PUT", url+"/api/trading/orders/"+id, token, fmt.Sprintf(`{"price":%q}`, px), nil)
}

func cancelWithin(ctx context.Context, url, token, id string) int {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	return call(ctx, "DELETE", url+"/api/trading/orders/"+id, token, "", nil)
}

// privateNATS starts a nats-server of the test's own, which the test may
// restart; ("", nil) when none can be started here.
func privateNATS(t *testing.T) (string, func(down time.Duration)) {
	t.Helper()
	bin, err := exec.LookPath("nats-server")
	if err != nil {
		return "", nil
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	var mu sync.Mutex
	var cmd *exec.Cmd
	run := func() {
		c := exec.Command(bin, "-a", "127.0.0.1", "-p", port)
		if err := c.Start(); err != nil {
			t.Fatalf("start nats-server: %v", err)
		}
		mu.Lock()
		cmd = c
		mu.Unlock()
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if conn, err := net.Dial("tcp", "127.0.0.1:"+port); err == nil {
				conn.Close()
				return
			}
		}
		t.Fatal("nats-server did not start")
	}
	kill := func() {
		mu.Lock()
		defer mu.Unlock()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
	run()
	t.Cleanup(kill)
	return "nats://127.0.0.1:" + port, func(down time.Duration) {
		kill()
		time.Sleep(down)
		run()
	}
}

// terminateConnections ends every session of the test's database but this one.
func terminateConnections(t *testing.T, ctx context.Context, dbURL string) {
	t.Helper()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid()`); err != nil {
		t.Fatal(err)
	}
}
