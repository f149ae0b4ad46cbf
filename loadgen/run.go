package loadgen

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Op is one kind of request the runner sends.
type Op string

// The operations: a resting limit order, a market order (it fills at once),
// a modify of one of the client's resting orders (a new price), a cancel.
const (
	OpLimit  Op = "limit"
	OpMarket Op = "market"
	OpModify Op = "modify"
	OpCancel Op = "cancel"
)

// Bounds keep a run from becoming a flood by mistake.
const (
	MaxClients   = 1024
	MaxWSClients = 5000
	// MaxDuration allows a soak (the reliability issue's hour at 100
	// orders/s) with room to spare.
	MaxDuration = 2 * time.Hour
	MaxRate     = 100_000
)

// Config is one run.
type Config struct {
	Clients  int
	Duration time.Duration
	// Mix weights the operations, e.g. {limit: 8, cancel: 1, modify: 1}.
	Mix  map[Op]int
	Plan Plan
	// IDPrefix prefixes every order's client order id (unique per run).
	IDPrefix string
	// MaxOrders stops the run after this many requests (0: duration only).
	MaxOrders int
	// Rate paces the requests of all clients together, per second (0: each
	// client sends its next request when the last one answered). A soak
	// uses it to hold a steady load.
	Rate      float64
	WSClients int
	PID       int // server process whose RSS is sampled (0: none)
}

// ParseMix reads "limit:8,market:1,modify:1,cancel:1".
func ParseMix(s string) (map[Op]int, error) {
	out := map[Op]int{}
	for _, part := range strings.Split(s, ",") {
		name, w, ok := strings.Cut(strings.TrimSpace(part), ":")
		if !ok {
			w = "1"
		}
		n, err := strconv.Atoi(w)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("mix %q: weight of %s must be a whole number", s, name)
		}
		switch op := Op(name); op {
		case OpLimit, OpMarket, OpModify, OpCancel:
			out[op] = n
		default:
			return nil, fmt.Errorf("mix %q: unknown operation %q (limit, market, modify, cancel)", s, name)
		}
	}
	return out, nil
}

// schedule expands the weights into a repeating sequence, spread evenly
// (limit first, so modifies and cancels have orders to work on).
func schedule(mix map[Op]int) []Op {
	var out []Op
	for _, op := range []Op{OpLimit, OpMarket, OpModify, OpCancel} {
		for i := 0; i < mix[op]; i++ {
			out = append(out, op)
		}
	}
	return out
}

// Result is a run's outcome.
type Result struct {
	Elapsed time.Duration
	Ops     map[Op]*Stats
	Errors  map[string]int // by status and message
	WS      WSStats
	RSS     RSSStats
	// ServerCPU is the CPU time the server (Config.PID) used during the
	// run, ToolCPU this tool's own: both share the machine's cores.
	ServerCPU, ToolCPU time.Duration
}

// Stats is one operation's count and latencies.
type Stats struct {
	OK, Failed int
	lat        []time.Duration
}

// Percentile returns the q-quantile (0..1) of the successful latencies.
func (s *Stats) Percentile(q float64) time.Duration {
	if len(s.lat) == 0 {
		return 0
	}
	i := int(q*float64(len(s.lat))+0.5) - 1
	return s.lat[max(0, min(i, len(s.lat)-1))]
}

// Max is the slowest successful call.
func (s *Stats) Max() time.Duration {
	if len(s.lat) == 0 {
		return 0
	}
	return s.lat[len(s.lat)-1]
}

// caller sends one API request (Client and wireClient).
type caller interface {
	Do(ctx context.Context, method, path string, body, out any) (int, error)
}

type worker struct {
	c       caller
	cfg     *Config
	id      int
	n       int
	resting []string // this client's resting orders, oldest first (when track)
	track   bool     // the mix modifies or cancels: keep the resting orders' ids
	body    []byte
	stats   map[Op]*Stats
	errs    map[string]int
	alt     bool
}

// Run drives the server with cfg.Clients concurrent clients (each its own
// keep-alive connection, sending the next request when the last answered)
// until the duration ends or MaxOrders requests were sent. With several
// base URLs (instances of one cluster) client i uses bases[i mod n], and the
// WebSocket clients are spread the same way.
func Run(ctx context.Context, bases []string, token string, cfg Config) (Result, error) {
	if len(bases) == 0 {
		return Result{}, errors.New("no server URL")
	}
	if cfg.Clients < 1 || cfg.Clients > MaxClients {
		return Result{}, fmt.Errorf("clients must be 1-%d", MaxClients)
	}
	if cfg.Duration <= 0 || cfg.Duration > MaxDuration {
		return Result{}, fmt.Errorf("duration must be above 0 and at most %s", MaxDuration)
	}
	if cfg.Rate < 0 || cfg.Rate > MaxRate {
		return Result{}, fmt.Errorf("rate must be 0-%d requests/s", MaxRate)
	}
	if cfg.WSClients < 0 || cfg.WSClients > MaxWSClients {
		return Result{}, fmt.Errorf("websocket clients must be 0-%d", MaxWSClients)
	}
	sched := schedule(cfg.Mix)
	if len(sched) == 0 {
		return Result{}, errors.New("the mix has no operation with a weight")
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Duration)
	defer cancel()

	rss := startRSS(ctx, cfg.PID)
	serverCPU0, _ := ReadCPU(cfg.PID)
	toolCPU0 := selfCPU()
	wsDone := startWS(ctx, bases, token, cfg.Plan.Symbol, cfg.WSClients)

	var sent sync.Mutex
	total := 0
	paced := pace(ctx, cfg.Rate)
	take := func() bool {
		if paced != nil {
			select {
			case <-paced:
			case <-ctx.Done():
				return false
			}
		}
		sent.Lock()
		defer sent.Unlock()
		if cfg.MaxOrders > 0 && total >= cfg.MaxOrders {
			return false
		}
		total++
		return true
	}
	clients := make([]*Client, len(bases))
	for i, b := range bases {
		clients[i] = NewClient(b, (cfg.Clients+len(bases)-1)/len(bases))
		clients[i].Token = token
	}
	// Each worker has a connection of its own: the light client for http://
	// servers, net/http's otherwise.
	callerFor := func(i int) caller {
		if wc, err := newWireClient(bases[i%len(bases)], token); err == nil {
			return wc
		}
		return clients[i%len(clients)]
	}
	workers := make([]*worker, cfg.Clients)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range workers {
		w := &worker{c: callerFor(i), cfg: &cfg, track: cfg.Mix[OpModify] > 0 || cfg.Mix[OpCancel] > 0, id: i, stats: map[Op]*Stats{}, errs: map[string]int{}}
		workers[i] = w
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := i; !over(ctx) && take(); k++ {
				w.do(ctx, sched[k%len(sched)])
			}
		}()
	}
	wg.Wait()
	res := Result{Elapsed: time.Since(start), Ops: map[Op]*Stats{}, Errors: map[string]int{}}
	cancel()
	res.WS = <-wsDone
	res.RSS = <-rss
	res.ToolCPU = selfCPU() - toolCPU0
	if cfg.PID > 0 {
		if c, err := ReadCPU(cfg.PID); err == nil {
			res.ServerCPU = c - serverCPU0
		}
	}
	for _, w := range workers {
		for op, s := range w.stats {
			t := res.Ops[op]
			if t == nil {
				t = &Stats{}
				res.Ops[op] = t
			}
			t.OK += s.OK
			t.Failed += s.Failed
			t.lat = append(t.lat, s.lat...)
		}
		for k, v := range w.errs {
			res.Errors[k] += v
		}
	}
	for _, s := range res.Ops {
		sort.Slice(s.lat, func(i, j int) bool { return s.lat[i] < s.lat[j] })
	}
	return res, nil
}

// pace hands out rate permits a second, evenly spaced, until ctx ends; nil
// when the rate is 0 (no pacing). A permit not taken in time is not saved
// up: a slow server gets the rate it can take, not a burst afterwards.
func pace(ctx context.Context, rate float64) <-chan struct{} {
	if rate <= 0 {
		return nil
	}
	out := make(chan struct{})
	go func() {
		t := time.NewTicker(time.Duration(float64(time.Second) / rate))
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				select {
				case out <- struct{}{}:
				default:
				}
			}
		}
	}()
	return out
}

func (w *worker) stat(op Op) *Stats {
	s := w.stats[op]
	if s == nil {
		s = &Stats{}
		w.stats[op] = s
	}
	return s
}

// do sends one operation and records its latency or error. A modify or
// cancel without a resting order of this client's places one instead.
func (w *worker) do(ctx context.Context, op Op) {
	if (op == OpModify || op == OpCancel) && len(w.resting) == 0 {
		op = OpLimit
	}
	p := w.cfg.Plan
	w.n++
	cid := fmt.Sprintf("%s-%d-%d", w.cfg.IDPrefix, w.id, w.n)
	var method, path string
	var body any
	switch op {
	case OpLimit:
		method, path = http.MethodPost, "/api/trading/orders/limit"
		body = w.orderBody(`{"symbol":`, p.Symbol, `,"side":`, p.Side, `,"quantity":`, p.Quantity.String(), `,"price":`, p.LimitPrice.String(), cid)
	case OpMarket:
		method, path = http.MethodPost, "/api/trading/execute"
		body = w.orderBody(`{"symbol":`, p.Symbol, `,"action":`, p.Side, `,"quantity":`, p.Quantity.String(), `,"order_type":`, "market", cid)
	case OpModify:
		w.alt = !w.alt
		price := p.LimitPrice
		if w.alt {
			price = p.AltPrice
		}
		method, path = http.MethodPut, "/api/trading/orders/"+url.PathEscape(w.resting[0])
		body = map[string]any{"price": price.String()}
		w.resting = append(w.resting[1:], w.resting[0]) // next modify takes the next order
	case OpCancel:
		last := len(w.resting) - 1
		method, path = http.MethodDelete, "/api/trading/orders/"+url.PathEscape(w.resting[last])
		w.resting = w.resting[:last]
	}
	var out OrderReply
	var into any
	if w.track && op == OpLimit {
		into = &out // the order's id, for later modifies and cancels
	}
	start := time.Now()
	status, err := w.c.Do(ctx, method, path, body, into)
	d := time.Since(start)
	s := w.stat(op)
	if err != nil {
		if over(ctx) && status == 0 {
			return // the run ended while this request was in flight
		}
		s.Failed++
		key := string(op) + ": " + err.Error()
		if e, ok := err.(*APIError); ok {
			key = fmt.Sprintf("%s: HTTP %d %s", op, e.Status, e.Message)
		}
		w.errs[key]++
		return
	}
	s.OK++
	s.lat = append(s.lat, d)
	if into != nil && (out.Order.Status == "open" || out.Order.Status == "pending") {
		w.resting = append(w.resting, out.Order.ID)
	}
}

// orderBody writes an order's JSON into the worker's buffer: four string
// fields in pairs (key prefix, value), the client order id and the
// strategy. The values are symbols, sides and decimals: nothing to escape.
func (w *worker) orderBody(k1, v1, k2, v2, k3, v3, k4, v4, cid string) []byte {
	b := w.body[:0]
	for _, kv := range [4][2]string{{k1, v1}, {k2, v2}, {k3, v3}, {k4, v4}} {
		b = append(b, kv[0]...)
		b = strconv.AppendQuote(b, kv[1])
	}
	b = append(b, `,"client_order_id":`...)
	b = strconv.AppendQuote(b, cid)
	b = append(b, `,"strategy":"kestrel-load"}`...)
	w.body = b
	return b
}

// over reports whether the run has ended. A connection's deadline is the
// run's, and it can expire a moment before the context's own timer marks
// the context done: a request cut off then is the end of the run, not a
// failure.
func over(ctx context.Context) bool {
	if ctx.Err() != nil {
		return true
	}
	d, ok := ctx.Deadline()
	return ok && !time.Now().Before(d)
}
