package research

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/analytics"
	"kestrel/backtest"
	"kestrel/domain"
)

// Walk-forward modes.
const (
	Anchored = "anchored" // every in-sample window starts at the period's start
	Rolling  = "rolling"  // in-sample windows of one length move forward
)

// Limits of a walk-forward sweep.
const (
	MaxFolds = 20
	// MinFoldDays is the shortest window a fold may have: each window is a
	// backtest, and a backtest is at least 7 days.
	MinFoldDays = 7
	// MinFoldCandles is the fewest candles of the strategy's timeframe a
	// window may hold: fewer give no statistics worth comparing.
	MinFoldCandles = 30
	// MaxRuns caps a walk-forward sweep's backtests (the trials over the
	// whole period and over each fold's in-sample window).
	MaxRuns = 5 * MaxTrials
)

// WalkForward asks a sweep to validate its search out of sample: the
// period is cut into folds, and in each the trial with the best objective
// in sample (the constraints holding) is run on the out-of-sample window
// that follows.
type WalkForward struct {
	Mode  string `json:"mode"`
	Folds int    `json:"folds"`
	// InSampleFraction is the in-sample share of a fold (of the first fold
	// when anchored: later ones grow), strictly between 0 and 1.
	InSampleFraction float64 `json:"in_sample_fraction"`
}

// Span is a fold's windows in whole units (days for a sweep of the candle
// store, candles for the CLI), each [from, to).
type Span struct{ ISFrom, ISTo, OOSFrom, OOSTo int }

// Spans cuts n units into the folds: the out-of-sample windows are
// consecutive, of one length o, and end the period; the in-sample length
// i is the rest, i = n - folds x o, with o = floor(n (1 - f) / (folds (1 -
// f) + f)) so that i / (i + o) is f up to the rounding. Rolling: fold k's
// in-sample window is [k o, k o + i); anchored: [0, i + k o). Either way
// its out-of-sample window is [i + k o, i + (k + 1) o). Field errors when
// a window would be shorter than minUnits.
func Spans(w WalkForward, n, minUnits int, unit string) ([]Span, map[string]string) {
	f := map[string]string{}
	switch w.Mode {
	case Anchored, Rolling:
	default:
		f["walk_forward.mode"] = "mode must be anchored or rolling"
	}
	if w.Folds < 2 || w.Folds > MaxFolds {
		f["walk_forward.folds"] = fmt.Sprintf("folds must be between 2 and %d", MaxFolds)
	}
	if !(w.InSampleFraction > 0 && w.InSampleFraction < 1) {
		f["walk_forward.in_sample_fraction"] = "in_sample_fraction must be between 0 and 1 (exclusive)"
	}
	if len(f) > 0 {
		return nil, f
	}
	fr := w.InSampleFraction
	o := int(math.Floor(float64(n)*(1-fr)/(float64(w.Folds)*(1-fr)+fr) + 1e-9)) // 45 x 0.4 / 1.8 is 10, not 9.999...
	i := n - w.Folds*o
	if o < minUnits || i < minUnits {
		f["walk_forward.folds"] = fmt.Sprintf("%d folds of these %d %s give in-sample windows of %d and out-of-sample windows of %d %s; each needs at least %d: use fewer folds, another in-sample fraction or a longer period",
			w.Folds, n, unit, i, o, unit, minUnits)
		return nil, f
	}
	out := make([]Span, w.Folds)
	for k := range out {
		s := Span{ISFrom: k * o, ISTo: i + k*o, OOSFrom: i + k*o, OOSTo: i + (k+1)*o}
		if w.Mode == Anchored {
			s.ISFrom = 0
		}
		out[k] = s
	}
	return out, nil
}

// FirstKey is the first of field errors' keys in order (for a message).
func FirstKey(f map[string]string) string {
	ks := slices.Sorted(maps.Keys(f))
	return ks[0]
}

// Period is a window's dates as a backtest asks for them.
type Period struct {
	Start string `json:"start"`
	End   string `json:"end"` // exclusive
}

// Window is a fold's in-sample and out-of-sample periods.
type Window struct {
	InSample    Period `json:"in_sample"`
	OutOfSample Period `json:"out_of_sample"`
}

// Windows are the folds of a walk-forward sweep over the candle store, in
// whole days from its start date; tf is the strategy's timeframe (for the
// candles per window). Field errors when the folds do not fit.
func Windows(a Ask, tf time.Duration) ([]Window, map[string]string) {
	start, e1 := parseDate(a.StartDate)
	end, e2 := parseDate(a.EndDate)
	if e1 != nil || e2 != nil || !start.Before(end) {
		return nil, map[string]string{"start_date": "A walk-forward sweep needs a valid period"}
	}
	days := int(end.Sub(start) / (24 * time.Hour))
	minDays := MinFoldDays
	if tf > 0 {
		minDays = max(minDays, int(math.Ceil(float64(MinFoldCandles)*float64(tf)/float64(24*time.Hour))))
	}
	spans, f := Spans(*a.WalkForward, days, minDays, "days")
	if m, ok := f["walk_forward.folds"]; ok && strings.HasPrefix(m, fmt.Sprint(a.WalkForward.Folds)) {
		f["walk_forward.folds"] = fmt.Sprintf("%s (a window is at least %d days, and %d candles of the strategy's timeframe)", m, MinFoldDays, MinFoldCandles)
	}
	if len(f) > 0 {
		return nil, f
	}
	day := func(n int) string {
		t := start.Add(time.Duration(n) * 24 * time.Hour)
		if t.Equal(t.Truncate(24 * time.Hour)) {
			return t.Format(time.DateOnly)
		}
		return t.Format(time.RFC3339)
	}
	out := make([]Window, len(spans))
	for k, s := range spans {
		out[k] = Window{InSample: Period{day(s.ISFrom), day(s.ISTo)}, OutOfSample: Period{day(s.OOSFrom), day(s.OOSTo)}}
	}
	return out, nil
}

func parseDate(s string) (time.Time, error) {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t.UTC(), nil
	}
	t, err := time.Parse(time.RFC3339, s)
	return t.UTC(), err
}

// Layout numbers a walk-forward sweep's runs, all stored as its trials
// (domain.SweepStore), so a restart resumes any of them: with n trials
// and k folds,
//
//	[0, n)                 the trials over the whole period (as any sweep)
//	n + f n + i            trial i in fold f's in-sample window
//	n + k n + f            fold f's out-of-sample run of its chosen trial
//	n + k n + k            the best whole-period trial again, for its returns
//
// The out-of-sample runs keep their equity curve (equity_curve in their
// metrics) for the stitched curve; the last run keeps its returns'
// moments (return_moments) and periods_per_year for the deflated Sharpe
// ratio. Only [0, n) are the sweep's trials.
type Layout struct{ N, K int }

// InSample is the index of trial i in fold f's in-sample window.
func (l Layout) InSample(f, i int) int { return l.N + f*l.N + i }

// OutOfSample is the index of fold f's out-of-sample run.
func (l Layout) OutOfSample(f int) int { return l.N + l.K*l.N + f }

// Best is the index of the best trial's second run.
func (l Layout) Best() int { return l.N + l.K*l.N + l.K }

// Total is the number of runs planned.
func (l Layout) Total() int { return l.Best() + 1 }

// LayoutOf is a sweep's layout: without walk-forward, K is 0 and only
// [0, N) are used.
func LayoutOf(a Ask) Layout {
	_, n := Size(a)
	if a.WalkForward == nil {
		return Layout{N: n}
	}
	return Layout{N: n, K: a.WalkForward.Folds}
}

// checkWalkForward validates the walk-forward options of a sweep (the
// folds' windows against the strategy's timeframe, the number of runs).
func checkWalkForward(bt Backtests, a Ask, trials int) map[string]string {
	if a.WalkForward == nil {
		return nil
	}
	tf := time.Duration(0)
	if cfg, err := bt.Config(nil, a.StrategyName); err == nil {
		tf = domain.Granularity(cfg.Timeframe).Duration()
	}
	var over struct {
		Timeframe string `json:"timeframe"`
	}
	if json.Unmarshal(a.Params, &over) == nil && over.Timeframe != "" {
		tf = domain.Granularity(over.Timeframe).Duration()
	}
	var f map[string]string
	if s, e1 := parseDate(a.StartDate); e1 != nil {
		_, f = Spans(*a.WalkForward, 1<<20, 0, "") // the options alone: the dates are the backtest check's to refuse
	} else if e, e2 := parseDate(a.EndDate); e2 != nil || !s.Before(e) {
		_, f = Spans(*a.WalkForward, 1<<20, 0, "")
	} else {
		_, f = Windows(a, tf)
	}
	if f == nil {
		f = map[string]string{}
	}
	if runs := trials * (a.WalkForward.Folds + 1); runs > MaxRuns && f["walk_forward.folds"] == "" {
		f["walk_forward.folds"] = fmt.Sprintf("%d trials over the period and %d folds make %d backtests, more than %d: use fewer trials or folds", trials, a.WalkForward.Folds, runs, MaxRuns)
	}
	return f
}

// RunWalkForward runs a walk-forward sweep's runs not in done (Layout):
// first the trials over the whole period and over every fold's in-sample
// window, all on every core; then, each fold's chosen trial (Rank: the best
// eligible by the objective) out of sample, and the best whole-period trial
// again. stored are the runs already stored (their scores choose the
// folds' trials on a resume). Every run is the single backtest of its
// overrides over its window (backtest.Service.Start): its indicators warm
// up on the real candles before the window's start, as a backtest of that
// window alone does.
func RunWalkForward(ctx context.Context, bt Backtests, id string, a Ask, p Plan, stored []domain.SweepTrial, save func(domain.SweepTrial) error, progress func(float64), now func() time.Time) error {
	l := Layout{N: len(p.Params), K: a.WalkForward.Folds}
	shared := p.shared
	if shared == nil {
		shared = bt.NewShared()
	}
	if err := unchanged(bt, shared, a); err != nil {
		return err
	}
	cfg, err := bt.Config(shared, a.StrategyName)
	if err != nil {
		return err
	}
	tf := domain.Granularity(cfg.Timeframe).Duration()
	var over struct {
		Timeframe string `json:"timeframe"`
	}
	if json.Unmarshal(a.Params, &over) == nil && over.Timeframe != "" {
		tf = domain.Granularity(over.Timeframe).Duration()
	}
	ws, f := Windows(a, tf)
	if f != nil {
		return domain.FieldErrors(f, "walk_forward.folds")
	}
	// One shared source per window end (a fold's out-of-sample window ends
	// where the next fold's in-sample window does), each read once; the
	// period's own end is the sweep's source.
	byEnd := map[string]*backtest.Shared{a.EndDate: shared}
	source := func(end string) *backtest.Shared {
		if byEnd[end] == nil {
			byEnd[end] = shared.Sibling()
		}
		return byEnd[end]
	}
	for _, w := range ws {
		for _, per := range []Period{w.InSample, w.OutOfSample} {
			sh := source(per.End)
			for _, params := range p.Params { // notes each run's window, so the first read covers them all
				one := windowAsk(a, per, params)
				if _, err := bt.Start(ctx, one, backtest.RunOptions{Check: true, Shared: sh}); err != nil {
					return err
				}
			}
		}
	}
	var mu sync.Mutex
	scores := map[int]domain.SweepTrial{} // index: score, trades and halt (the folds' choice)
	keep := func(t domain.SweepTrial) {
		var m json.RawMessage // the halt alone (Rank reads it), not the whole metrics
		if h := haltedOf(t.Metrics); h != nil {
			m, _ = json.Marshal(map[string]any{"halted": h})
		}
		mu.Lock()
		scores[t.Index] = domain.SweepTrial{Index: t.Index, Score: t.Score, Trades: t.Trades, Metrics: m}
		mu.Unlock()
	}
	done := map[int]bool{}
	for _, t := range stored {
		keep(t)
		done[t.Index] = true
	}
	saveKeep := func(t domain.SweepTrial) error {
		if err := save(t); err != nil {
			return err
		}
		keep(t)
		return nil
	}
	runWindow := func(ctx context.Context, idx, trialIdx int, per Period, extra func(backtest.Result) map[string]any) (domain.SweepTrial, error) {
		rep, err := bt.Start(ctx, windowAsk(a, per, p.Params[trialIdx]), backtest.RunOptions{Shared: source(per.End), Discard: true})
		if err != nil {
			return domain.SweepTrial{}, err
		}
		m, err := Metrics(rep.Result)
		if err == nil && extra != nil {
			m, err = WithExtra(m, extra(rep.Result))
		}
		if err != nil {
			return domain.SweepTrial{}, err
		}
		return domain.SweepTrial{SweepID: id, Index: idx, Values: p.Values[trialIdx], Params: p.Params[trialIdx], Metrics: m,
			Score: Score(rep.Result, a.Objective), Trades: rep.TotalTrades, CreatedAt: now().UTC()}, nil
	}

	// Phase 1: the whole period's trials and every fold's in-sample trials.
	first := l.OutOfSample(0)
	phase := func(from, to int, offset float64) (map[int]bool, func(float64)) {
		d := map[int]bool{}
		for i := range done {
			if i >= from && i < to {
				d[i-from] = true
			}
		}
		return d, func(x float64) { progress((offset + x*float64(to-from)) / float64(l.Total())) }
	}
	d1, p1 := phase(0, first, 0)
	err = RunTrials(ctx, first, d1, func(ctx context.Context, i int) (domain.SweepTrial, error) {
		if i < l.N {
			t, err := trial(ctx, bt, shared, a, p, i, now)
			t.SweepID = id
			return t, err
		}
		k, ti := (i-l.N)/l.N, (i-l.N)%l.N
		return runWindow(ctx, i, ti, ws[k].InSample, nil)
	}, saveKeep, p1)
	if err != nil {
		return err
	}

	// Phase 2: each fold's choice out of sample, and the best trial again.
	chosen := make([]int, l.K+1) // by fold, then the whole period: the trial, or -1
	for k := 0; k <= l.K; k++ {
		ts := make([]domain.SweepTrial, l.N)
		for i := range ts {
			idx := i
			if k < l.K {
				idx = l.InSample(k, i)
			}
			ts[i] = scores[idx]
		}
		_, best := Rank(ts, a)
		chosen[k] = best
	}
	d2, p2 := phase(first, l.Total(), float64(first))
	return RunTrials(ctx, l.K+1, d2, func(ctx context.Context, j int) (domain.SweepTrial, error) {
		if chosen[j] < 0 {
			return domain.SweepTrial{Index: -1}, nil // nothing eligible: nothing to run
		}
		if j < l.K {
			return runWindow(ctx, l.OutOfSample(j), chosen[j], ws[j].OutOfSample, OutOfSampleExtra)
		}
		return runWindow(ctx, l.Best(), chosen[j], Period{a.StartDate, a.EndDate}, BestExtra)
	}, func(t domain.SweepTrial) error {
		if t.Index < 0 {
			return nil
		}
		return saveKeep(t)
	}, p2)
}

// windowAsk is the sweep's backtest over one window with a trial's params.
func windowAsk(a Ask, per Period, params json.RawMessage) backtest.Ask {
	one := a.Ask
	one.Params, one.StartDate, one.EndDate = params, per.Start, per.End
	return one
}

// OutOfSampleExtra is what an out-of-sample run keeps beyond its metrics:
// its equity curve, for the stitched curve.
func OutOfSampleExtra(r backtest.Result) map[string]any {
	return map[string]any{"equity_curve": r.EquityCurve}
}

// BestExtra is what the best trial's second run keeps beyond its metrics:
// its returns' moments and how many make a year, for the deflated Sharpe
// ratio.
func BestExtra(r backtest.Result) map[string]any {
	return map[string]any{"return_moments": analytics.ReturnMoments(curveReturns(r.InitialEquity, r.EquityCurve)),
		"periods_per_year": periodsPerYear(r.EquityCurve)}
}

// WithExtra adds keys to a metrics object.
func WithExtra(m json.RawMessage, extra map[string]any) (json.RawMessage, error) {
	var o map[string]any
	if err := json.Unmarshal(m, &o); err != nil {
		return nil, err
	}
	for k, v := range extra {
		o[k] = v
	}
	return json.Marshal(o)
}

// curveReturns are the period returns of an equity curve after the
// capital, as the report's Sharpe ratio reads them.
func curveReturns(capital decimal.Decimal, curve []backtest.Point) []float64 {
	eq := make([]decimal.Decimal, 0, len(curve)+1)
	eq = append(eq, capital)
	for _, pt := range curve {
		eq = append(eq, pt.Equity.Decimal())
	}
	return analytics.Returns(eq)
}

// periodsPerYear is the curve's returns per year: a year over the median
// spacing of its points (the report annualises its Sharpe ratio so).
func periodsPerYear(curve []backtest.Point) float64 {
	gaps := make([]time.Duration, 0, len(curve))
	for i := 1; i < len(curve); i++ {
		if g := curve[i].Time.Sub(curve[i-1].Time); g > 0 {
			gaps = append(gaps, g)
		}
	}
	if len(gaps) == 0 {
		return 0
	}
	slices.Sort(gaps)
	return float64(365*24*time.Hour) / float64(gaps[len(gaps)/2])
}

// Fold is one fold of a walk-forward sweep as reported.
type Fold struct {
	Fold              int    `json:"fold"`
	InSamplePeriod    Period `json:"in_sample_period"`
	OutOfSamplePeriod Period `json:"out_of_sample_period"`
	Status            string `json:"status"` // pending, in_sample, out_of_sample (running), completed, no_eligible_trial
	// InSampleDone is how many trials have run in sample (of the sweep's).
	InSampleDone int `json:"in_sample_done"`
	// Trial is the chosen trial (its index among the sweep's trials), with
	// its values and overrides: the best eligible in sample.
	Trial  *int            `json:"trial"`
	Values json.RawMessage `json:"values,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	// InSample and OutOfSample are the chosen trial's metrics in each
	// window, under the backtest report's names.
	InSample    json.RawMessage `json:"in_sample"`
	OutOfSample json.RawMessage `json:"out_of_sample"`
	// Annualised returns of both windows (simple: total return x 365 days
	// / the window's length) and their ratio (null when the in-sample one
	// is not positive).
	InSampleAnnualised    *float64 `json:"in_sample_annualised_return"`
	OutOfSampleAnnualised *float64 `json:"out_of_sample_annualised_return"`
	Efficiency            *float64 `json:"efficiency"`
}

// Stability is how one parameter's chosen values spread across the folds
// that chose a trial.
type Stability struct {
	Values     []json.RawMessage `json:"values"` // by fold
	ModalValue json.RawMessage   `json:"modal_value"`
	// ModalShare is the share of the folds that chose the most frequent
	// value (the earliest-chosen on a tie): 1 when every fold agrees.
	ModalShare float64 `json:"modal_share"`
	// Dispersion is the standard deviation (population) of the chosen
	// values over the search space's range for the parameter (max - min
	// of its grid values or random range): 0 when every fold agrees, up to
	// 0.5 when they split between the ends; null for values that are not
	// numbers or a range of one value.
	Dispersion *float64 `json:"dispersion"`
}

// Deflated is the deflated Sharpe ratio of the sweep's best trial.
type Deflated struct {
	Trial int `json:"trial"`
	// Trials is the number of trials the best was chosen from.
	Trials int `json:"trials"`
	// Sharpe is the best trial's per-period Sharpe ratio (not annualised),
	// SharpeAnnualised its report's sharpe_ratio.
	Sharpe           float64 `json:"sharpe"`
	SharpeAnnualised float64 `json:"sharpe_annualised"`
	// SharpeVariance is the variance (sample) of the trials' per-period
	// Sharpe ratios; ExpectedMaxSharpe the best of Trials would reach by
	// luck with true Sharpe ratios of zero.
	SharpeVariance    float64 `json:"sharpe_variance"`
	ExpectedMaxSharpe float64 `json:"expected_max_sharpe"`
	Observations      int     `json:"observations"` // returns of the best trial
	Skewness          float64 `json:"skewness"`
	Kurtosis          float64 `json:"kurtosis"` // not excess: 3 for normal returns
	// Probability is the deflated Sharpe ratio: the probability that the
	// best trial's true Sharpe ratio is above zero; null when undefined
	// (returns that do not vary).
	Probability *float64 `json:"probability"`
	Note        string   `json:"note,omitempty"`
}

// EquityPoint is a point of the stitched out-of-sample equity curve.
type EquityPoint struct {
	Time   time.Time       `json:"time"`
	Equity decimal.Decimal `json:"equity"`
	Fold   int             `json:"fold"`
}

// MaxStitchedPoints caps the stitched curve a report carries: a longer
// one keeps every k-th point and each fold's last.
const MaxStitchedPoints = 2000

// WalkForwardReport is what a walk-forward sweep adds to its trials.
type WalkForwardReport struct {
	Folds []Fold `json:"folds"`
	// StitchedEquity chains the folds' out-of-sample equity curves: each
	// fold starts with the equity the previous one ended with (its curve
	// scaled by the product of the earlier folds' final / initial equity).
	StitchedEquity []EquityPoint `json:"stitched_equity"`
	// StitchedReturn is the stitched curve's total return.
	StitchedReturn *float64 `json:"stitched_return"`
	// WalkForwardEfficiency is the mean out-of-sample annualised return
	// over the mean in-sample one, over the folds run out of sample (null
	// when the in-sample mean is not positive, or no fold ran).
	WalkForwardEfficiency *float64             `json:"walk_forward_efficiency"`
	ParameterStability    map[string]Stability `json:"parameter_stability"`
	DeflatedSharpe        *Deflated            `json:"deflated_sharpe"`
	Notes                 []string             `json:"notes"`
	// Runs are the backtests stored of RunsPlanned (the trials over the
	// whole period, every fold's in-sample trials, the folds'
	// out-of-sample runs and the best trial's second run; less the runs a
	// fold or the period with no eligible trial leaves out).
	Runs        int `json:"runs"`
	RunsPlanned int `json:"runs_planned"`
}

// Report assembles a walk-forward sweep's report from its stored runs
// (Layout) and its folds' windows; runs still missing leave their parts
// pending or null.
func Report(a Ask, names []string, windows []Window, runs []domain.SweepTrial) WalkForwardReport {
	l := Layout{N: 0, K: len(windows)}
	_, l.N = Size(a)
	by := make(map[int]domain.SweepTrial, len(runs))
	for _, r := range runs {
		by[r.Index] = r
	}
	out := WalkForwardReport{Folds: make([]Fold, len(windows)), ParameterStability: map[string]Stability{}, Notes: []string{}, StitchedEquity: []EquityPoint{}}
	var chosenVals []map[string]json.RawMessage
	var isAnn, oosAnn []float64
	scale := decimal.NewFromInt(1)
	var stitched []EquityPoint
	var capital decimal.Decimal
	for k, w := range windows {
		fd := Fold{Fold: k, InSamplePeriod: w.InSample, OutOfSamplePeriod: w.OutOfSample, Status: "pending"}
		ts := make([]domain.SweepTrial, 0, l.N)
		for i := range l.N {
			if t, ok := by[l.InSample(k, i)]; ok {
				ts = append(ts, t)
			}
		}
		fd.InSampleDone = len(ts)
		if len(ts) > 0 {
			fd.Status = "in_sample"
		}
		oos, ran := by[l.OutOfSample(k)]
		if len(ts) == l.N {
			fd.Status = "out_of_sample"
			_, best := Rank(ts, a)
			if best < 0 {
				fd.Status = "no_eligible_trial"
				out.Notes = append(out.Notes, fmt.Sprintf("Fold %d: no trial met the constraints in sample, so nothing ran out of sample; the stitched curve and the efficiency leave it out", k+1))
			} else {
				c := ts[best]
				ti := c.Index - l.InSample(k, 0)
				fd.Trial, fd.Values, fd.Params, fd.InSample = &ti, c.Values, c.Params, c.Metrics
				fd.InSampleAnnualised = simpleAnnualised(c.Metrics)
			}
		}
		if ran && fd.Trial != nil {
			fd.Status = "completed"
			var m map[string]json.RawMessage
			_ = json.Unmarshal(oos.Metrics, &m) // stored by RunWalkForward: always an object
			var curve []backtest.Point
			_ = json.Unmarshal(m["equity_curve"], &curve)
			delete(m, "equity_curve")
			fd.OutOfSample, _ = json.Marshal(m)
			fd.OutOfSampleAnnualised = simpleAnnualised(fd.OutOfSample)
			var init, final decimal.Decimal
			_ = json.Unmarshal(m["initial_equity"], &init)
			_ = json.Unmarshal(m["final_equity"], &final)
			if capital.IsZero() {
				capital = init
			}
			if init.IsPositive() {
				for _, pt := range curve {
					stitched = append(stitched, EquityPoint{Time: pt.Time, Equity: pt.Equity.Decimal().Mul(scale).Round(2), Fold: k})
				}
				scale = scale.Mul(final).Div(init)
			}
			if fd.InSampleAnnualised != nil && fd.OutOfSampleAnnualised != nil {
				isAnn, oosAnn = append(isAnn, *fd.InSampleAnnualised), append(oosAnn, *fd.OutOfSampleAnnualised)
				if *fd.InSampleAnnualised > 0 {
					e := *fd.OutOfSampleAnnualised / *fd.InSampleAnnualised
					fd.Efficiency = &e
				}
			}
			var vals map[string]json.RawMessage
			_ = json.Unmarshal(fd.Values, &vals)
			chosenVals = append(chosenVals, vals)
		}
		out.Folds[k] = fd
	}
	if len(stitched) > 0 {
		out.StitchedEquity = thin(stitched)
		r := stitched[len(stitched)-1].Equity.Div(capital).Sub(decimal.NewFromInt(1)).InexactFloat64()
		out.StitchedReturn = &r
	}
	if len(isAnn) > 0 {
		mi, mo := mean(isAnn), mean(oosAnn)
		if mi > 0 {
			e := mo / mi
			out.WalkForwardEfficiency = &e
		} else {
			out.Notes = append(out.Notes, "Walk-forward efficiency is undefined: the chosen trials' mean in-sample annualised return is not positive")
		}
	}
	if len(chosenVals) > 0 {
		lo, hi := spaceRange(a)
		for _, n := range names {
			out.ParameterStability[n] = stability(chosenVals, n, lo[n], hi[n])
		}
	}
	trials := make([]domain.SweepTrial, 0, l.N)
	for i := range l.N {
		if t, ok := by[i]; ok {
			trials = append(trials, t)
		}
	}
	out.Runs, out.RunsPlanned = len(runs), l.Total()
	for _, fd := range out.Folds {
		if fd.Status == "no_eligible_trial" {
			out.RunsPlanned--
		}
	}
	if len(trials) == l.N {
		if _, bi := Rank(trials, a); bi < 0 {
			out.RunsPlanned--
			out.Notes = append(out.Notes, "No trial over the whole period is eligible: there is no best trial to deflate")
		}
	}
	if b, ok := by[l.Best()]; ok && len(trials) == l.N {
		if _, bi := Rank(trials, a); bi >= 0 {
			out.DeflatedSharpe = deflated(b, trials, bi)
		}
	}
	return out
}

// simpleAnnualised is a window's total return x 365 days / its length,
// from its metrics (start_date, end_date, total_return): simple rather
// than compounded, so that a short window's return is not raised to a
// year's power (the reason the report leaves CAGR null under 30 days).
func simpleAnnualised(m json.RawMessage) *float64 {
	var x struct {
		Start  time.Time `json:"start_date"`
		End    time.Time `json:"end_date"`
		Return float64   `json:"total_return"`
	}
	if json.Unmarshal(m, &x) != nil || !x.End.After(x.Start) {
		return nil
	}
	v := x.Return * float64(365*24*time.Hour) / float64(x.End.Sub(x.Start))
	return &v
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// thin keeps at most MaxStitchedPoints points: every k-th and each
// fold's last (so every fold's end is exact).
func thin(pts []EquityPoint) []EquityPoint {
	if len(pts) <= MaxStitchedPoints {
		return pts
	}
	k := (len(pts) + MaxStitchedPoints - 1) / MaxStitchedPoints
	out := make([]EquityPoint, 0, MaxStitchedPoints+len(pts)/k)
	for i, p := range pts {
		if i%k == 0 || i == len(pts)-1 || pts[i+1].Fold != p.Fold {
			out = append(out, p)
		}
	}
	return out
}

// spaceRange is each parameter's lowest and highest value in the search
// space (numbers only).
func spaceRange(a Ask) (map[string]float64, map[string]float64) {
	lo, hi := map[string]float64{}, map[string]float64{}
	for n, vs := range a.Grid {
		first := true
		for _, v := range vs {
			var x float64
			if json.Unmarshal(v, &x) != nil {
				continue
			}
			if first || x < lo[n] {
				lo[n] = x
			}
			if first || x > hi[n] {
				hi[n] = x
			}
			first = false
		}
	}
	for n, r := range a.Random {
		lo[n], hi[n] = r.Min.InexactFloat64(), r.Max.InexactFloat64()
	}
	return lo, hi
}

// stability is one parameter's Stability over the folds' chosen values.
func stability(chosen []map[string]json.RawMessage, name string, lo, hi float64) Stability {
	s := Stability{Values: make([]json.RawMessage, 0, len(chosen))}
	count := map[string]int{}
	var order []string
	var nums []float64
	numeric := true
	for _, c := range chosen {
		v := c[name]
		s.Values = append(s.Values, v)
		key := string(v)
		if count[key] == 0 {
			order = append(order, key)
		}
		count[key]++
		var x float64
		if json.Unmarshal(v, &x) != nil {
			numeric = false
		}
		nums = append(nums, x)
	}
	best := ""
	for _, k := range order { // the earliest chosen wins a tie
		if best == "" || count[k] > count[best] {
			best = k
		}
	}
	s.ModalValue = json.RawMessage(best)
	s.ModalShare = float64(count[best]) / float64(len(chosen))
	if numeric && hi > lo {
		m := mean(nums)
		ss := 0.0
		for _, x := range nums {
			ss += (x - m) * (x - m)
		}
		d := math.Sqrt(ss/float64(len(nums))) / (hi - lo)
		s.Dispersion = &d
	}
	return s
}

// deflated is the deflated Sharpe ratio of the best trial (b: its second
// run, with its returns' moments) among the sweep's trials.
func deflated(b domain.SweepTrial, trials []domain.SweepTrial, best int) *Deflated {
	var x struct {
		Moments analytics.Moments `json:"return_moments"`
		PerYear float64           `json:"periods_per_year"`
		Sharpe  float64           `json:"sharpe_ratio"`
	}
	if json.Unmarshal(b.Metrics, &x) != nil || x.PerYear <= 0 {
		return nil
	}
	root := math.Sqrt(x.PerYear)
	srs := make([]float64, len(trials))
	for i, t := range trials {
		var m struct {
			Sharpe float64 `json:"sharpe_ratio"`
		}
		_ = json.Unmarshal(t.Metrics, &m)
		srs[i] = m.Sharpe / root
	}
	v := 0.0
	if sd := analytics.StdDev(srs); sd != nil {
		v = *sd * *sd
	}
	d := &Deflated{Trial: best, Trials: len(trials), Sharpe: x.Moments.Sharpe, SharpeAnnualised: x.Sharpe, SharpeVariance: v,
		ExpectedMaxSharpe: analytics.ExpectedMaxSharpe(len(trials), v), Observations: x.Moments.N, Skewness: x.Moments.Skewness, Kurtosis: x.Moments.Kurtosis}
	if p := analytics.DeflatedSharpe(x.Moments, len(trials), v); x.Moments.Defined && !math.IsNaN(p) {
		d.Probability = &p
	} else {
		d.Note = "Undefined: the best trial's returns do not vary (no trade), or are too skewed for the formula"
	}
	return d
}
