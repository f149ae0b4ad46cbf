package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"time"

	"kestrel/backtest"
	"kestrel/candles"
	"kestrel/domain"
	"kestrel/research"
	"kestrel/strategy"
)

const sweepUsage = `usage: kestrel sweep --strategy technical|ai|hybrid --grid NAME=V1,V2,... [--grid ...]
                     --objective total_return|sharpe|sortino|calmar|profit_factor [--min-trades N]
                     [the data and cost flags of kestrel backtest] [--json]

Runs one backtest per combination of the grid's values (at most 5,000) over
the same candles, on every core, each exactly what kestrel backtest would
give for the strategy's default settings with those values, and ranks them by
the objective. NAME is a key of the strategy's configuration: an indicator
(rsi_period, sma_short, ...; indicators.rsi_period also works) or a top-level
key (min_confidence). Bad flags or input exit with status 2.

`

// gridFlags collects repeated --grid NAME=V1,V2 flags.
type gridFlags map[string][]json.RawMessage

func (g gridFlags) String() string { return "" }

func (g gridFlags) Set(v string) error {
	name, list, ok := strings.Cut(v, "=")
	if !ok || name == "" || list == "" {
		return errors.New("want NAME=V1,V2 (a comma-separated list of values)")
	}
	if !strings.Contains(name, ".") && slices.Contains(indicatorKeys(), name) {
		name = "indicators." + name
	}
	if _, dup := g[name]; dup {
		return fmt.Errorf("%s is given twice", name)
	}
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		if !json.Valid([]byte(s)) {
			b, _ := json.Marshal(s) // a word: a string value
			s = string(b)
		}
		g[name] = append(g[name], json.RawMessage(s))
	}
	return nil
}

// indicatorKeys are the JSON names of the indicator settings.
func indicatorKeys() []string {
	t := reflect.TypeFor[strategy.Indicators]()
	out := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		out = append(out, name)
	}
	return out
}

// sweepCmd runs `kestrel sweep`.
func sweepCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var ask research.Ask
	g := gridFlags{}
	fs := flag.NewFlagSet("kestrel sweep", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Var(g, "grid", "NAME=V1,V2,... (repeat for each parameter)")
	fs.StringVar(&ask.Objective, "objective", "sharpe", "total_return, sharpe, sortino, calmar or profit_factor")
	fs.IntVar(&ask.MinTrades, "min-trades", 0, "a trial with fewer closed trades is never the best")
	// The sweep's own flags are taken out; the rest are kestrel backtest's.
	var rest []string
	for i := 0; i < len(args); i++ {
		name := strings.TrimLeft(args[i], "-")
		name, _, hasValue := strings.Cut(name, "=")
		if fs.Lookup(name) == nil || !strings.HasPrefix(args[i], "-") {
			rest = append(rest, args[i])
			continue
		}
		one := []string{args[i]}
		if !hasValue && i+1 < len(args) {
			one, i = append(one, args[i+1]), i+1
		}
		if err := fs.Parse(one); err != nil {
			return badInput(fmt.Errorf("--%s: %w", name, err))
		}
	}
	o, err := parseBacktestFlags(rest, stderr)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stderr, sweepUsage)
		return err
	}
	if err != nil {
		return err
	}
	if _, ok := strategyKinds[o.strategy]; !ok {
		return badInput(errors.New("--strategy: a sweep runs technical, ai or hybrid (their default settings with the grid's values)"))
	}
	ask.Grid = g
	plan, err := research.Expand(ask)
	if err == nil {
		if _, ok := research.Objectives[ask.Objective]; !ok {
			err = fmt.Errorf("--objective: one of total_return, sharpe, sortino, calmar, profit_factor")
		}
	}
	if err != nil {
		return badInput(err)
	}
	bars, name, err := o.load(stdin)
	if err != nil {
		return badInput(err)
	}
	cs := make([]domain.Candle, len(bars))
	for i, b := range bars {
		cs[i] = b.Candle()
	}
	symbols := make([]string, 0, len(candles.Products()))
	for _, p := range candles.Products() {
		symbols = append(symbols, p.Symbol)
	}
	cfgs := make([]strategy.Config, len(plan.Params))
	for i, p := range plan.Params {
		if cfgs[i], err = backtest.ApplyParams(defaultConfig(o), p, symbols); err != nil {
			var e *domain.Error
			if errors.As(err, &e) && len(e.Fields) > 0 {
				return badInput(fmt.Errorf("trial %s: %s", plan.Values[i], e.Message))
			}
			return badInput(fmt.Errorf("trial %s: %w", plan.Values[i], err))
		}
	}
	trials := make([]domain.SweepTrial, len(cfgs))
	began := time.Now()
	err = research.RunTrials(context.Background(), len(cfgs), nil, func(ctx context.Context, i int) (domain.SweepTrial, error) {
		res, _, err := strategyRun(ctx, o, cfgs[i], cs)
		if err != nil {
			return domain.SweepTrial{}, err
		}
		m, err := research.Metrics(res)
		return domain.SweepTrial{Index: i, Values: plan.Values[i], Params: plan.Params[i], Metrics: m, Score: research.Score(res, ask.Objective),
			Trades: res.TotalTrades}, err
	}, func(t domain.SweepTrial) error { trials[t.Index] = t; return nil }, func(float64) {})
	if err != nil {
		return badInput(err)
	}
	elapsed := time.Since(began)
	ranked, best := research.Rank(trials, ask)
	return writeSweep(stdout, o, name, ask, plan, ranked, best, len(cs), elapsed)
}

func writeSweep(stdout io.Writer, o *backtestOptions, name string, ask research.Ask, plan research.Plan, ranked []research.Trial, best, candles int, elapsed time.Duration) error {
	w := bufio.NewWriter(stdout)
	if o.json {
		out := struct {
			Strategy   string           `json:"strategy"`
			Data       string           `json:"data"`
			Candles    int              `json:"candles"`
			Objective  string           `json:"objective"`
			Parameters []string         `json:"parameters"`
			Trials     []research.Trial `json:"trials"`
			Best       *research.Trial  `json:"best"`
			Seconds    float64          `json:"seconds"`
		}{o.strategy, name, candles, ask.Objective, plan.Names, ranked, nil, elapsed.Seconds()}
		if best >= 0 {
			out.Best = &ranked[best]
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
		return w.Flush()
	}
	fmt.Fprintf(w, "%s (default settings) on %s, %d candles: %d trials in %.2fs, objective %s\n\n", o.strategy, name, candles, len(ranked), elapsed.Seconds(), ask.Objective)
	for _, t := range ranked {
		score := "N/A"
		if t.Score != nil {
			score = fmt.Sprintf("%.4f", *t.Score)
		}
		mark := " "
		if best >= 0 && t.Index == ranked[best].Index {
			mark = "*"
		}
		fmt.Fprintf(w, "%s %4d  %s  %s=%s  trades %d\n", mark, t.Index, t.Values, ask.Objective, score, t.Trades)
	}
	if best < 0 {
		fmt.Fprintln(w, "\nno trial is eligible (the objective is undefined, or fewer trades than --min-trades)")
	}
	return w.Flush()
}
