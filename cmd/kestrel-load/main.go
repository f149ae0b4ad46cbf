// Command kestrel-load drives a running Kestrel server on loopback with
// concurrent order clients (and optionally WebSocket clients) for a fixed
// time and reports throughput, latency percentiles, errors and the
// server's memory. It stops by itself and refuses non-loopback addresses.
//
//	kestrel-load --url http://127.0.0.1:18080 --email load@example.com --password secret-pass --clients 8 --duration 10s
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/loadgen"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if err == flag.ErrHelp {
			return
		}
		fmt.Fprintln(os.Stderr, "kestrel-load:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("kestrel-load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	base := fs.String("url", "http://127.0.0.1:8080", "server base URL (loopback only); several, comma-separated, spread the clients over the instances of a cluster")
	token := fs.String("token", "", "bearer token to use (instead of --email/--password)")
	email := fs.String("email", "load@example.com", "account to sign in as")
	password := fs.String("password", "", "its password")
	register := fs.Bool("register", true, "register the account when it does not exist (the first account of a new server becomes operator)")
	clients := fs.Int("clients", 8, "concurrent order clients, each with its own connection")
	duration := fs.Duration("duration", 10*time.Second, "how long to run (at most 2h)")
	mix := fs.String("mix", "limit", "operations and weights, e.g. limit:8,market:1,modify:1,cancel:1")
	symbol := fs.String("symbol", "BTC-USD", "symbol to trade")
	side := fs.String("side", "SELL", "side of every order: SELL (reduces a position, passes every risk limit) or BUY (short runs: daily trade limit)")
	qty := fs.String("quantity", "", "quantity of each order (default: the product's minimum size)")
	rate := fs.Float64("rate", 0, "requests per second across all clients (0: as fast as the server answers); a soak holds e.g. 100")
	maxOrders := fs.Int("max-orders", 0, "stop after this many requests (0: run for the duration)")
	expect := fs.Int("expect-orders", 200000, "orders the account must be able to rest (SELL: base currency bought at setup when short)")
	fund := fs.String("fund-usd", "2000", "USD of base currency bought at setup when the free balance is short")
	wsClients := fs.Int("ws", 0, "WebSocket clients subscribed to the symbol's ticker and trades")
	pid := fs.Int("pid", 0, "server process id whose resident memory is sampled")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	hook := fs.Bool("webhook", false, "subscribe a loopback webhook receiver to the account's fills and report each message's delay from its fill (aggregation off)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	bases := strings.Split(*base, ",")
	for _, b := range bases {
		if err := loadgen.CheckLoopback(b); err != nil {
			return err
		}
	}
	weights, err := loadgen.ParseMix(*mix)
	if err != nil {
		return err
	}
	q := decimal.Zero
	if *qty != "" {
		if q, err = decimal.NewFromString(*qty); err != nil || !q.IsPositive() {
			return fmt.Errorf("--quantity %q: a positive decimal is required", *qty)
		}
	}
	fundUSD, err := decimal.NewFromString(*fund)
	if err != nil || !fundUSD.IsPositive() {
		return fmt.Errorf("--fund-usd %q: a positive decimal is required", *fund)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	c := loadgen.NewClient(bases[0], 2)
	c.Token = *token
	if c.Token == "" {
		if *password == "" {
			return fmt.Errorf("--token or --password is required")
		}
		if err := c.SignIn(ctx, *email, *password, "Load test", *register); err != nil {
			return err
		}
	}
	plan, err := loadgen.Prepare(ctx, c, *symbol, *side, q, *expect, fundUSD, stderr)
	if err != nil {
		return err
	}
	cfg := loadgen.Config{Clients: *clients, Duration: *duration, Mix: weights, Plan: plan, MaxOrders: *maxOrders, Rate: *rate,
		WSClients: *wsClients, PID: *pid, IDPrefix: "load-" + strconv.FormatInt(time.Now().UnixNano(), 36)}
	fmt.Fprintf(stderr, "running: %d clients, %s, mix %s, %s %s %s @ %s, %d websocket clients\n",
		cfg.Clients, cfg.Duration, *mix, plan.Side, plan.Quantity, plan.Symbol, plan.LimitPrice, cfg.WSClients)
	var h *loadgen.Hook
	if *hook {
		if h, err = loadgen.StartHook(ctx, c); err != nil {
			return err
		}
	}
	res, err := loadgen.Run(ctx, bases, c.Token, cfg)
	if err != nil {
		return err
	}
	if h != nil {
		hr := h.Drain(3*time.Second, time.Minute)
		out := stdout
		if *asJSON {
			out = stderr // stdout is the JSON document
		}
		fmt.Fprintf(out, "webhook: %d fill messages, delay from the fill p50 %.1f ms, p99 %.1f ms, max %.1f ms\n", hr.Messages,
			ms(hr.P50), ms(hr.P99), ms(hr.Max))
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(summary(res, cfg))
	}
	report(stdout, res, cfg)
	return nil
}

type opSummary struct {
	OK, Failed    int
	PerSecond     float64
	P50, P90, P99 float64 // milliseconds
	Max           float64
}

type runSummary struct {
	Clients    int
	Seconds    float64
	Ops        map[loadgen.Op]opSummary
	PerSecond  float64
	Errors     map[string]int
	WS         loadgen.WSStats
	RSSPeakMiB float64
	RSSEndMiB  float64
	// RSSPerMinuteMiB is the server's memory at the end of each minute.
	RSSPerMinuteMiB []float64 `json:",omitempty"`
	// CPU time per successful request, in microseconds, and cores used on
	// average: the server's (with --pid) and this tool's own.
	ServerCPUPerRequestUS, ServerCores float64 `json:",omitempty"`
	ToolCPUPerRequestUS, ToolCores     float64
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func summary(res loadgen.Result, cfg loadgen.Config) runSummary {
	s := runSummary{Clients: cfg.Clients, Seconds: res.Elapsed.Seconds(), Ops: map[loadgen.Op]opSummary{}, Errors: res.Errors, WS: res.WS,
		RSSPeakMiB: float64(res.RSS.Peak) / (1 << 20), RSSEndMiB: float64(res.RSS.End) / (1 << 20)}
	for _, v := range res.RSS.PerMinute {
		s.RSSPerMinuteMiB = append(s.RSSPerMinuteMiB, float64(v)/(1<<20))
	}
	all := 0
	for op, st := range res.Ops {
		s.Ops[op] = opSummary{OK: st.OK, Failed: st.Failed, PerSecond: float64(st.OK) / res.Elapsed.Seconds(),
			P50: ms(st.Percentile(0.50)), P90: ms(st.Percentile(0.90)), P99: ms(st.Percentile(0.99)), Max: ms(st.Max())}
		all += st.OK
	}
	s.PerSecond = float64(all) / res.Elapsed.Seconds()
	if all > 0 {
		perReq := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(all) }
		s.ServerCPUPerRequestUS, s.ServerCores = perReq(res.ServerCPU), res.ServerCPU.Seconds()/res.Elapsed.Seconds()
		s.ToolCPUPerRequestUS, s.ToolCores = perReq(res.ToolCPU), res.ToolCPU.Seconds()/res.Elapsed.Seconds()
	}
	return s
}

func report(w io.Writer, res loadgen.Result, cfg loadgen.Config) {
	s := summary(res, cfg)
	fmt.Fprintf(w, "%d clients, %.1f s: %.0f successful requests/s\n", s.Clients, s.Seconds, s.PerSecond)
	fmt.Fprintf(w, "%-7s %9s %7s %9s %8s %8s %8s %8s\n", "op", "ok", "failed", "per s", "p50 ms", "p90 ms", "p99 ms", "max ms")
	ops := make([]string, 0, len(s.Ops))
	for op := range s.Ops {
		ops = append(ops, string(op))
	}
	sort.Strings(ops)
	for _, op := range ops {
		o := s.Ops[loadgen.Op(op)]
		fmt.Fprintf(w, "%-7s %9d %7d %9.0f %8.2f %8.2f %8.2f %8.2f\n", op, o.OK, o.Failed, o.PerSecond, o.P50, o.P90, o.P99, o.Max)
	}
	if len(s.Errors) > 0 {
		fmt.Fprintln(w, "errors:")
		for k, v := range s.Errors {
			fmt.Fprintf(w, "  %6d  %s\n", v, k)
		}
	}
	if s.WS.Clients > 0 {
		fmt.Fprintf(w, "websocket: %d of %d connected, %d frames (%.0f/s), %d dropped\n", s.WS.Connected, s.WS.Clients, s.WS.Frames,
			float64(s.WS.Frames)/s.Seconds, s.WS.Dropped)
	}
	if res.ServerCPU > 0 {
		fmt.Fprintf(w, "server CPU: %.0f µs per request (%.2f cores); ", s.ServerCPUPerRequestUS, s.ServerCores)
	}
	fmt.Fprintf(w, "this tool's CPU: %.0f µs per request (%.2f cores)\n", s.ToolCPUPerRequestUS, s.ToolCores)
	if res.RSS.Peak > 0 {
		fmt.Fprintf(w, "server RSS: %.0f MiB at start, %.0f MiB peak, %.0f MiB at end\n", float64(res.RSS.Start)/(1<<20), s.RSSPeakMiB, s.RSSEndMiB)
		if len(s.RSSPerMinuteMiB) > 1 {
			fmt.Fprint(w, "server RSS per minute (MiB):")
			for _, v := range s.RSSPerMinuteMiB {
				fmt.Fprintf(w, " %.0f", v)
			}
			fmt.Fprintln(w)
		}
	}
}
