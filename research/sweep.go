package research

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"kestrel/analytics/robust"
	"kestrel/backtest"
	"kestrel/domain"
	"kestrel/strategy"
)

// SweepJobKind is the jobs runner's kind for a parameter sweep: its
// parameters are an Ask; it resumes after a restart, skipping stored trials.
const SweepJobKind = "sweep"

// Objectives a sweep ranks its trials by, and the report field each reads.
var Objectives = map[string]string{
	"total_return":  "total_return",
	"sharpe":        "sharpe_ratio",
	"sortino":       "sortino_ratio",
	"calmar":        "calmar_ratio",
	"profit_factor": "profit_factor",
}

// Ask is a sweep: a backtest's fields (its params are the base overrides
// every trial starts from) plus a search space, an objective and
// constraints.
type Ask struct {
	backtest.Ask
	// Grid tries every combination of the values.
	Grid map[string][]json.RawMessage `json:"grid,omitempty"`
	// Random draws Trials distinct points of the ranges with Seed.
	Random    map[string]Range `json:"random,omitempty"`
	Trials    int              `json:"trials,omitempty"`
	Seed      uint64           `json:"seed,omitempty"`
	Objective string           `json:"objective"`
	// MinTrades: a trial with fewer closed trades is never the best.
	MinTrades int `json:"min_trades,omitempty"`
	// StrategyConfig is the instance's configuration when the sweep was
	// submitted (set by the server, whatever a client sends): a sweep
	// resumed after its settings changed would mix two configurations, so
	// it fails instead (see Pinned).
	StrategyConfig json.RawMessage `json:"strategy_config,omitempty"`
	// WalkForward, when set, validates the search fold by fold
	// (walkforward.go).
	WalkForward *WalkForward `json:"walk_forward,omitempty"`
	// StrategyVersion is the version of that configuration (set by the
	// server like StrategyConfig): the base every trial's overrides apply to.
	StrategyVersion int `json:"strategy_version,omitempty"`
	// PBOBlocks is the number of blocks S the probability of backtest
	// overfitting cuts the period into (even, robust.MinBlocks to
	// robust.MaxBlocks; absent: robust.DefaultBlocks).
	PBOBlocks int `json:"pbo_blocks,omitempty"`
}

// Pinned records the instance's current configuration in the ask.
func Pinned(bt Backtests, a Ask) (Ask, error) { return pinned(bt, nil, a) }

func pinned(bt Backtests, sh *backtest.Shared, a Ask) (Ask, error) {
	cfg, err := bt.Config(sh, a.StrategyName)
	if err != nil {
		return a, domain.FieldErrors(map[string]string{"strategy_name": "Unknown strategy: " + a.StrategyName}, "strategy_name")
	}
	a.StrategyConfig, err = json.Marshal(cfg)
	a.StrategyVersion = cfg.Version
	return a, err
}

// unchanged refuses to run a sweep whose instance's settings (as sh pins
// them for all its trials) changed since it was submitted.
func unchanged(bt Backtests, sh *backtest.Shared, a Ask) error {
	now, err := pinned(bt, sh, a)
	if err != nil {
		return err
	}
	if len(a.StrategyConfig) > 0 && !sameJSON(now.StrategyConfig, a.StrategyConfig) {
		return fmt.Errorf("the settings of %s changed after the sweep was submitted; its trials would not be comparable: submit it again", a.StrategyName)
	}
	return nil
}

// sameJSON reports whether two JSON texts hold the same value: the pinned
// configuration comes back from the database in the engine's own spacing
// and key order (PostgreSQL's jsonb), which changes no setting.
func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// Plan is a validated sweep: its trials' values and overrides.
type Plan struct {
	Names  []string
	Values []json.RawMessage // by trial: {name: value}
	Params []json.RawMessage // by trial: the overrides in the config's shape
	// shared is the candle source Check prepared (it knows every trial's
	// window, so the candles are read once); Run uses it.
	shared *backtest.Shared
}

// Backtests runs single backtests (backtest.Service).
type Backtests interface {
	Start(ctx context.Context, a backtest.Ask, o backtest.RunOptions) (backtest.Report, error)
	NewShared() *backtest.Shared
	Config(sh *backtest.Shared, name string) (strategy.Config, error)
}

// Check validates a sweep: the search space, the objective and every
// trial's overrides (each checked as its single backtest would be), with
// field errors; nothing runs.
func Check(ctx context.Context, bt Backtests, a Ask) (Plan, error) {
	f := map[string]string{}
	if _, ok := Objectives[a.Objective]; !ok {
		f["objective"] = "Objective must be one of " + strings.Join(names(Objectives), ", ")
	}
	if a.MinTrades < 0 {
		f["min_trades"] = "min_trades must not be negative"
	}
	if a.AIMode == backtest.AILive || a.ConfirmLive {
		f["ai_mode"] = "A sweep never asks a live model (each trial would spend model calls): use builtin or recorded"
	}
	if a.PBOBlocks != 0 && (a.PBOBlocks < robust.MinBlocks || a.PBOBlocks > robust.MaxBlocks || a.PBOBlocks%2 != 0) {
		f["pbo_blocks"] = fmt.Sprintf("pbo_blocks must be even, from %d to %d", robust.MinBlocks, robust.MaxBlocks)
	}
	if a.MonteCarlo != nil {
		f["monte_carlo"] = "Monte Carlo applies to a single backtest, not to a sweep's trials"
	}
	p, err := Expand(a)
	for k, v := range checkWalkForward(bt, a, len(p.Params)) {
		f[k] = v
	}
	if len(f) > 0 {
		var e *domain.Error
		if errors.As(err, &e) {
			for k, v := range e.Fields {
				f[k] = v
			}
		}
		return Plan{}, domain.FieldErrors(f, "objective", "grid", "random", "trials", "min_trades", "ai_mode", "walk_forward.mode", "walk_forward.folds", "walk_forward.in_sample_fraction", "start_date", "pbo_blocks", "monte_carlo")
	}
	if err != nil {
		return Plan{}, err
	}
	// The backtest fields once, then each trial's overrides.
	shared := bt.NewShared() // the store's span read once
	if _, err := bt.Start(ctx, a.Ask, backtest.RunOptions{Check: true, Shared: shared}); err != nil {
		return Plan{}, err
	}
	p.shared = shared
	space := "grid"
	if len(a.Random) > 0 {
		space = "random"
	}
	for i, params := range p.Params {
		vals := p.Values[i]
		one := a.Ask
		one.Params = params
		if _, err := bt.Start(ctx, one, backtest.RunOptions{Check: true, Shared: shared}); err != nil {
			var e *domain.Error
			if errors.As(err, &e) && e.Code == domain.EInvalid {
				msg := fmt.Sprintf("Trial %s: %s", vals, e.Message)
				return Plan{}, domain.FieldErrors(map[string]string{space: msg}, space)
			}
			return Plan{}, err
		}
	}
	return p, nil
}

// Expand checks the search space and expands it into each trial's values
// and overrides (merged into the ask's params); no backtest is checked.
func Expand(a Ask) (Plan, error) {
	ns, pts, f := space(a)
	if len(f) > 0 {
		return Plan{}, domain.FieldErrors(f, "grid", "random", "trials")
	}
	p := Plan{Names: ns, Values: make([]json.RawMessage, len(pts)), Params: make([]json.RawMessage, len(pts))}
	for i, pt := range pts {
		params, vals, err := overrides(a.Params, ns, pt)
		if err != nil {
			return Plan{}, err
		}
		p.Values[i], p.Params[i] = vals, params
	}
	return p, nil
}

// space expands the search space into its points (no backtest is checked).
func space(a Ask) ([]string, []point, map[string]string) {
	switch {
	case len(a.Grid) > 0 && len(a.Random) > 0:
		return nil, nil, map[string]string{"grid": "Give either a grid or a random search, not both"}
	case len(a.Grid) > 0:
		return grid(a.Grid)
	case len(a.Random) > 0:
		return random(a.Random, a.Trials, a.Seed)
	}
	return nil, nil, map[string]string{"grid": "Give a search space: a grid {param: [values]} or a random search {param: {min, max, step}} with trials"}
}

// Size is a valid sweep's parameter names and number of trials.
func Size(a Ask) ([]string, int) {
	ns, pts, _ := space(a)
	if ns == nil {
		ns = []string{}
	}
	return ns, len(pts)
}

// Trial is one finished trial as a sweep reports it.
type Trial struct {
	domain.SweepTrial
	// Eligible: the objective is defined and the constraints hold; Note
	// says why not.
	Eligible bool   `json:"eligible"`
	Note     string `json:"note,omitempty"`
	// Halted is set when a risk limit stopped the trial's trading for good
	// (its report's halted: the limit, when, the signals refused): its
	// figures describe a strategy that stopped trading, so it is never the
	// best while a trial that traded to the end is eligible.
	Halted *backtest.Halted `json:"halted,omitempty"`
}

// haltedOf is a trial's halt, from its metrics (the report's halted).
func haltedOf(m json.RawMessage) *backtest.Halted {
	var x struct {
		Halted *backtest.Halted `json:"halted"`
	}
	if json.Unmarshal(m, &x) != nil {
		return nil
	}
	return x.Halted
}

// Run runs the plan's trials not in done on every core (GOMAXPROCS
// workers) over candles read once, saving each as it finishes. Each trial
// is the single backtest of its overrides (backtest.Service.Start), not
// stored as a backtest: only its metrics are kept.
func Run(ctx context.Context, bt Backtests, id string, a Ask, p Plan, done map[int]bool, save func(domain.SweepTrial) error, progress func(float64), now func() time.Time) error {
	shared := p.shared
	if shared == nil {
		shared = bt.NewShared()
	}
	if err := unchanged(bt, shared, a); err != nil {
		return err
	}
	return RunTrials(ctx, len(p.Params), done, func(ctx context.Context, i int) (domain.SweepTrial, error) {
		t, err := trial(ctx, bt, shared, a, p, i, now)
		t.SweepID = id
		return t, err
	}, save, progress)
}

// RunTrials runs trials 0..n-1 but those in done on GOMAXPROCS workers,
// saving each as it finishes; the first error stops the others and is
// returned. Memory holds one result per worker at a time.
func RunTrials(ctx context.Context, n int, done map[int]bool, run func(context.Context, int) (domain.SweepTrial, error), save func(domain.SweepTrial) error, progress func(float64)) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	next := make(chan int)
	finished := atomic.Int64{}
	finished.Store(int64(len(done)))
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				t, err := run(ctx, i)
				if err == nil {
					err = save(t)
				}
				if err != nil {
					cancel(fmt.Errorf("trial %d: %w", i, err))
					return
				}
				progress(float64(finished.Add(1)) / float64(n))
			}
		})
	}
feed:
	for i := range n {
		if done[i] {
			continue
		}
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	return context.Cause(ctx)
}

// trial runs one trial and keeps its metrics.
func trial(ctx context.Context, bt Backtests, shared *backtest.Shared, a Ask, p Plan, i int, now func() time.Time) (domain.SweepTrial, error) {
	one := a.Ask
	one.Params = p.Params[i]
	rep, err := bt.Start(ctx, one, backtest.RunOptions{Shared: shared, Discard: true})
	if err != nil {
		return domain.SweepTrial{}, err
	}
	m, err := TrialMetrics(rep.Result, a, time.Time{}) // every trial starts at the period's start
	if err != nil {
		return domain.SweepTrial{}, err
	}
	return domain.SweepTrial{Index: i, Values: p.Values[i], Params: p.Params[i], Metrics: m, Score: Score(rep.Result, a.Objective),
		Trades: rep.TotalTrades, CreatedAt: now().UTC()}, nil
}

// Metrics is a report's metrics under its own names: the result less the
// equity curve, trades and fills.
func Metrics(r backtest.Result) (json.RawMessage, error) {
	r.EquityCurve, r.Trades, r.Fills = nil, nil, nil
	raw, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	delete(m, "equity_curve")
	delete(m, "trades")
	delete(m, "fills")
	return json.Marshal(m)
}

// Score is the objective's value for a result; nil when it is undefined.
func Score(r backtest.Result, objective string) *float64 {
	v := func(x float64) *float64 { return &x }
	switch objective {
	case "total_return":
		return v(r.TotalReturn)
	case "sharpe":
		return v(r.SharpeRatio)
	case "sortino":
		return v(r.SortinoRatio)
	case "calmar":
		return r.CalmarRatio
	case "profit_factor":
		return r.ProfitFactor
	}
	return nil
}

// Rank marks each trial eligible or not (and halted, from its metrics)
// and returns the index (in ts) of the best eligible one by the
// objective, the earliest on a tie: among the trials that traded to the
// end, or among the halted ones when every eligible trial halted; -1 when
// none is eligible.
func Rank(ts []domain.SweepTrial, a Ask) ([]Trial, int) {
	out := make([]Trial, len(ts))
	best, bestHalted := -1, -1
	for i, t := range ts {
		out[i] = Trial{SweepTrial: t, Eligible: true, Halted: haltedOf(t.Metrics)}
		out[i].Metrics = shown(t.Metrics)
		switch {
		case t.Score == nil:
			out[i].Eligible, out[i].Note = false, "The objective is undefined for this trial (N/A: too short a period, or no losing trade)"
		case t.Trades < a.MinTrades:
			out[i].Eligible, out[i].Note = false, fmt.Sprintf("%d closed trades, fewer than min_trades (%d)", t.Trades, a.MinTrades)
		}
		if !out[i].Eligible {
			continue
		}
		if out[i].Halted != nil {
			if bestHalted < 0 || *t.Score > *ts[bestHalted].Score {
				bestHalted = i
			}
		} else if best < 0 || *t.Score > *ts[best].Score {
			best = i
		}
	}
	if best < 0 {
		best = bestHalted
	}
	return out, best
}
