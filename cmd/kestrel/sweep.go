package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"kestrel/analytics/robust"
	"kestrel/backtest"
	"kestrel/candles"
	"kestrel/domain"
	"kestrel/research"
	"kestrel/strategy"
)

const sweepUsage = `usage: kestrel sweep --strategy technical|ai|hybrid --grid NAME=V1,V2,... [--grid ...]
                     --objective total_return|sharpe|sortino|calmar|profit_factor [--min-trades N]
                     [--walk-forward rolling:N|anchored:N [--in-sample-fraction 0.7]]
                     [the data and cost flags of kestrel backtest] [--json]

Runs one backtest per combination of the grid's values (at most 5,000) over
the same candles, on every core, each exactly what kestrel backtest would
give for the strategy's default settings with those values, and ranks them by
the objective. NAME is a key of the strategy's configuration: an indicator
(rsi_period, sma_short, ...; indicators.rsi_period also works) or a top-level
key (min_confidence). Bad flags or input exit with status 2.

--walk-forward MODE:N also validates the search in N folds (rolling or
anchored; see docs/ANALYTICS.md): the candles after the longest warm-up are
cut into N out-of-sample windows that end the data, each after an
in-sample window; in each fold the trial with the best objective in sample
(--min-trades holding) runs out of sample, its indicators warmed up on the
candles before the window. The output adds the folds' in-sample and
out-of-sample metrics, the stitched out-of-sample equity, the walk-forward
efficiency, the parameters' stability and the deflated Sharpe ratio of the
best trial.

--pbo-blocks S (even, 2 to 16; default 16) sets the blocks of the
probability of backtest overfitting (combinatorially symmetric
cross-validation, docs/ANALYTICS.md) the output adds: the share of the
C(S, S/2) splits of the blocks where the trial best in sample by Sharpe
ratio ranks in the lower half out of sample.

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
	var wf string
	fraction := 0.7
	fs.StringVar(&wf, "walk-forward", "", "rolling:N or anchored:N folds")
	fs.Float64Var(&fraction, "in-sample-fraction", 0.7, "the in-sample share of a fold (walk-forward)")
	fs.IntVar(&ask.PBOBlocks, "pbo-blocks", robust.DefaultBlocks, "the blocks S the probability of backtest overfitting cuts the candles into (even, 2 to 16)")
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
	if wf != "" {
		mode, n, ok := strings.Cut(wf, ":")
		folds, err := strconv.Atoi(n)
		if !ok || err != nil {
			return badInput(errors.New("--walk-forward: want rolling:N or anchored:N"))
		}
		ask.WalkForward = &research.WalkForward{Mode: mode, Folds: folds, InSampleFraction: fraction}
		if _, f := research.Spans(*ask.WalkForward, 1<<20, 0, ""); len(f) > 0 {
			return badInput(fmt.Errorf("--walk-forward: %s", f[research.FirstKey(f)]))
		}
	}
	plan, err := research.Expand(ask)
	if why := robust.CheckBlocks(ask.PBOBlocks, 1<<30); err == nil && why != "" {
		err = fmt.Errorf("--pbo-blocks: %s", why)
	}
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
	// Every trial reads the same fixed-point bars (shared, read-only), as
	// kestrel backtest does: no decimal candle is kept per bar.
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
	// Each trial starts after its own warm-up: the PBO reads their returns
	// from the candle after the longest, a time grid common to all.
	first := 0
	for _, c := range cfgs {
		first = max(first, c.Window())
	}
	var common time.Time
	if first < len(bars) {
		common = time.Unix(0, bars[first].Time).UTC()
	}
	trials := make([]domain.SweepTrial, len(cfgs))
	began := time.Now()
	err = research.RunTrials(context.Background(), len(cfgs), nil, func(ctx context.Context, i int) (domain.SweepTrial, error) {
		res, _, err := strategyRun(ctx, o, cfgs[i], nil, bars)
		if err != nil {
			return domain.SweepTrial{}, err
		}
		m, err := research.TrialMetrics(res, ask, common)
		return domain.SweepTrial{Index: i, Values: plan.Values[i], Params: plan.Params[i], Metrics: m, Score: research.Score(res, ask.Objective),
			Trades: res.TotalTrades}, err
	}, func(t domain.SweepTrial) error { trials[t.Index] = t; return nil }, func(float64) {})
	if err != nil {
		return badInput(err)
	}
	var wfr *research.WalkForwardReport
	if ask.WalkForward != nil {
		if wfr, err = walkForward(o, ask, plan, cfgs, bars, trials); err != nil {
			return err
		}
	}
	pbo, note := research.PBO(trials)
	elapsed := time.Since(began)
	ranked, best := research.Rank(trials, ask)
	return writeSweep(stdout, o, name, ask, plan, ranked, best, len(bars), elapsed, wfr, pbo, note)
}

// walkForward runs a sweep's folds over the candles (research.Spans in
// candles, after the longest warm-up of the trials, so that every run's
// indicators warm up on the candles before its window) and reports them
// as the server does (research.Report over research.Layout's runs).
func walkForward(o *backtestOptions, ask research.Ask, plan research.Plan, cfgs []strategy.Config, bars []candles.Bar, trials []domain.SweepTrial) (*research.WalkForwardReport, error) {
	warm := make([]int, len(cfgs))
	first := 0
	for i, c := range cfgs {
		warm[i] = c.Window() // the live engine's warm-up, as strategyRun uses
		first = max(first, warm[i])
	}
	spans, f := research.Spans(*ask.WalkForward, len(bars)-first, research.MinFoldCandles, "candles")
	if len(f) > 0 {
		return nil, badInput(fmt.Errorf("--walk-forward: %s", f[research.FirstKey(f)]))
	}
	at := func(k int) string { // the open of candle first+k, or the close of the last
		if first+k < len(bars) {
			return time.Unix(0, bars[first+k].Time).UTC().Format(time.RFC3339)
		}
		return time.Unix(0, bars[len(bars)-1].Time).Add(o.granularity.Duration()).UTC().Format(time.RFC3339)
	}
	ws := make([]research.Window, len(spans))
	for k, s := range spans {
		ws[k] = research.Window{InSample: research.Period{Start: at(s.ISFrom), End: at(s.ISTo)}, OutOfSample: research.Period{Start: at(s.OOSFrom), End: at(s.OOSTo)}}
	}
	l := research.Layout{N: len(cfgs), K: len(spans)}
	runs := make([]domain.SweepTrial, 0, l.Total())
	runs = append(runs, trials...)
	var mu sync.Mutex
	keep := func(t domain.SweepTrial) error {
		mu.Lock()
		defer mu.Unlock()
		if t.Index >= 0 {
			runs = append(runs, t)
		}
		return nil
	}
	// window runs trial i over candles [from, to) after the warm-up start.
	window := func(ctx context.Context, idx, i, from, to int, extra func(backtest.Result) map[string]any) (domain.SweepTrial, error) {
		res, _, err := strategyRun(ctx, o, cfgs[i], nil, bars[first+from-warm[i]:first+to])
		if err != nil {
			return domain.SweepTrial{}, err
		}
		m, err := research.Metrics(res)
		if err == nil && extra != nil {
			m, err = research.WithExtra(m, extra(res))
		}
		return domain.SweepTrial{Index: idx, Values: plan.Values[i], Params: plan.Params[i], Metrics: m, Score: research.Score(res, ask.Objective), Trades: res.TotalTrades}, err
	}
	ctx := context.Background()
	err := research.RunTrials(ctx, l.K*l.N, nil, func(ctx context.Context, j int) (domain.SweepTrial, error) {
		k, i := j/l.N, j%l.N
		return window(ctx, l.InSample(k, i), i, spans[k].ISFrom, spans[k].ISTo, nil)
	}, keep, func(float64) {})
	if err != nil {
		return nil, badInput(err)
	}
	slices.SortFunc(runs, func(a, b domain.SweepTrial) int { return a.Index - b.Index }) // by index: every one is there
	chosen := make([]int, l.K+1)                                                         // by fold, then the whole data: a trial or -1
	for k := range l.K {
		_, chosen[k] = research.Rank(runs[l.InSample(k, 0):l.InSample(k+1, 0)], ask)
	}
	_, chosen[l.K] = research.Rank(trials, ask)
	err = research.RunTrials(ctx, l.K+1, nil, func(ctx context.Context, k int) (domain.SweepTrial, error) {
		switch {
		case chosen[k] < 0:
			return domain.SweepTrial{Index: -1}, nil // nothing eligible: nothing to run
		case k < l.K:
			return window(ctx, l.OutOfSample(k), chosen[k], spans[k].OOSFrom, spans[k].OOSTo, research.OutOfSampleExtra)
		}
		// The best trial over the whole data again, as its trial ran.
		res, _, err := strategyRun(ctx, o, cfgs[chosen[k]], nil, bars)
		if err != nil {
			return domain.SweepTrial{}, err
		}
		m, err := research.Metrics(res)
		if err == nil {
			m, err = research.WithExtra(m, research.BestExtra(res))
		}
		return domain.SweepTrial{Index: l.Best(), Values: plan.Values[chosen[k]], Params: plan.Params[chosen[k]], Metrics: m, Score: research.Score(res, ask.Objective), Trades: res.TotalTrades}, err
	}, keep, func(float64) {})
	if err != nil {
		return nil, badInput(err)
	}
	rep := research.Report(ask, plan.Names, ws, runs)
	return &rep, nil
}

func writeSweep(stdout io.Writer, o *backtestOptions, name string, ask research.Ask, plan research.Plan, ranked []research.Trial, best, candles int, elapsed time.Duration, wf *research.WalkForwardReport, pbo *robust.PBO, pboNote string) error {
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
			// Walk-forward: the options and the report (folds, stitched
			// equity, efficiency, stability, deflated Sharpe).
			WalkForward *research.WalkForward `json:"walk_forward,omitempty"`
			*research.WalkForwardReport
			// The probability of backtest overfitting (null with the
			// reason when there is no figure), as the server answers it.
			PBO     *robust.PBO `json:"pbo"`
			PBONote string      `json:"pbo_note,omitempty"`
		}{o.strategy, name, candles, ask.Objective, plan.Names, ranked, nil, elapsed.Seconds(), ask.WalkForward, wf, pbo, pboNote}
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
	if pbo != nil {
		fmt.Fprintf(w, "\nprobability of backtest overfitting %.3f (%d blocks, %d combinations, %d trials by Sharpe ratio; median logit %.3f)\n",
			pbo.Probability, pbo.Blocks, pbo.Combinations, pbo.Trials, pbo.Logits.Median)
	} else {
		fmt.Fprintf(w, "\nprobability of backtest overfitting N/A: %s\n", pboNote)
	}
	if wf != nil {
		writeWalkForward(w, ask, wf)
	}
	return w.Flush()
}

// writeWalkForward prints the folds and the walk-forward figures as text.
func writeWalkForward(w io.Writer, ask research.Ask, wf *research.WalkForwardReport) {
	pct := func(p *float64) string {
		if p == nil {
			return "N/A"
		}
		return fmt.Sprintf("%.2f%%", *p*100)
	}
	ret := func(m json.RawMessage) *float64 {
		var x struct {
			R *float64 `json:"total_return"`
		}
		_ = json.Unmarshal(m, &x)
		return x.R
	}
	fmt.Fprintf(w, "\nwalk-forward, %s, %d folds, %.0f%% in sample\n", ask.WalkForward.Mode, ask.WalkForward.Folds, ask.WalkForward.InSampleFraction*100)
	for _, f := range wf.Folds {
		trial := "none eligible"
		if f.Trial != nil {
			trial = fmt.Sprintf("trial %d %s", *f.Trial, f.Values)
		}
		fmt.Fprintf(w, "  fold %d  IS %s to %s return %s  OOS %s to %s return %s  %s\n", f.Fold+1, f.InSamplePeriod.Start, f.InSamplePeriod.End, pct(ret(f.InSample)),
			f.OutOfSamplePeriod.Start, f.OutOfSamplePeriod.End, pct(ret(f.OutOfSample)), trial)
	}
	fmt.Fprintf(w, "stitched out-of-sample return %s\n", pct(wf.StitchedReturn))
	if wf.WalkForwardEfficiency != nil {
		fmt.Fprintf(w, "walk-forward efficiency %.3f\n", *wf.WalkForwardEfficiency)
	} else {
		fmt.Fprintln(w, "walk-forward efficiency N/A")
	}
	for _, n := range slices.Sorted(maps.Keys(wf.ParameterStability)) {
		st := wf.ParameterStability[n]
		disp := "N/A"
		if st.Dispersion != nil {
			disp = fmt.Sprintf("%.3f", *st.Dispersion)
		}
		fmt.Fprintf(w, "stability %s: modal %s in %.0f%% of folds, dispersion %s\n", n, st.ModalValue, st.ModalShare*100, disp)
	}
	if d := wf.DeflatedSharpe; d != nil && d.Probability != nil {
		fmt.Fprintf(w, "deflated Sharpe of trial %d: %.3f (Sharpe %.3f annualised over %d trials, expected best by luck %.4f per candle)\n", d.Trial, *d.Probability, d.SharpeAnnualised, d.Trials, d.ExpectedMaxSharpe)
	}
	for _, n := range wf.Notes {
		fmt.Fprintln(w, "note:", n)
	}
}
