package app_test

import (
	"context"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"kestrel/domain"
)

// wfReply is what a walk-forward sweep adds to GET /api/sweeps/{id}.
type wfReply struct {
	Status     string  `json:"status"`
	Progress   float64 `json:"progress"`
	Error      string  `json:"error"`
	TrialCount int     `json:"trial_count"`
	Trials     []struct {
		Index   int             `json:"index"`
		Params  json.RawMessage `json:"params"`
		Metrics map[string]any  `json:"metrics"`
	} `json:"trials"`
	Best *struct {
		Index int `json:"index"`
	} `json:"best"`
	Folds []struct {
		Fold        int                         `json:"fold"`
		InSample    struct{ Start, End string } `json:"in_sample_period"`
		OutOfSample struct{ Start, End string } `json:"out_of_sample_period"`
		Status      string                      `json:"status"`
		Trial       *int                        `json:"trial"`
		Params      json.RawMessage             `json:"params"`
	} `json:"folds"`
	StitchedEquity []struct {
		Equity string `json:"equity"`
		Fold   int    `json:"fold"`
	} `json:"stitched_equity"`
	StitchedReturn        *float64 `json:"stitched_return"`
	WalkForwardEfficiency *float64 `json:"walk_forward_efficiency"`
	ParameterStability    map[string]struct {
		Values     []any    `json:"values"`
		ModalShare float64  `json:"modal_share"`
		Dispersion *float64 `json:"dispersion"`
	} `json:"parameter_stability"`
	DeflatedSharpe *struct {
		Trial       int      `json:"trial"`
		Trials      int      `json:"trials"`
		Probability *float64 `json:"probability"`
		Sharpe      float64  `json:"sharpe"`
		Annualised  float64  `json:"sharpe_annualised"`
		Obs         int      `json:"observations"`
	} `json:"deflated_sharpe"`
	Runs        int      `json:"runs"`
	RunsPlanned int      `json:"runs_planned"`
	Notes       []string `json:"notes"`
}

// A walk-forward sweep: each fold's chosen trial is the best in sample,
// its out-of-sample metrics are exactly those of a backtest of that
// window alone with those params (the indicators warm up on the real
// candles before the window), and the report has the stitched curve, the
// efficiency, the stability and the deflated Sharpe ratio.
func TestWalkForwardFoldsAreStandaloneBacktests(t *testing.T) {
	s := start(t, t.TempDir())
	_, tok := s.accounts()
	r := s.do("POST", "/api/sweeps", tok, `{`+sweepBase+`,"params":{"min_confidence":0.5},
		"grid":{"indicators.rsi_period":[7,21],"indicators.sma_long":[20,60]},"objective":"total_return",
		"walk_forward":{"mode":"rolling","folds":3,"in_sample_fraction":0.6}}`)
	if r.Status != 202 {
		t.Fatalf("submit: %+v", r)
	}
	var q struct{ ID string }
	s.into(r, &q)
	s.waitSweep(tok, q.ID)
	var wf wfReply
	s.into(s.do("GET", "/api/sweeps/"+q.ID, tok, ""), &wf)
	if wf.Status != "completed" || wf.Progress != 1 || len(wf.Trials) != 4 || wf.TrialCount != 4 || len(wf.Folds) != 3 ||
		wf.Runs != wf.RunsPlanned || wf.RunsPlanned != 4+3*4+3+1 {
		t.Fatalf("sweep: %s %v trials %d folds %d runs %d/%d (%s)", wf.Status, wf.Progress, len(wf.Trials), len(wf.Folds), wf.Runs, wf.RunsPlanned, wf.Error)
	}
	// 45 days, 3 folds, 0.6 in sample: out-of-sample windows of
	// floor(45 x 0.4 / (3 x 0.4 + 0.6)) = 10 days, in-sample 45 - 30 = 15.
	wantWin := [][4]string{{"2026-01-01", "2026-01-16", "2026-01-16", "2026-01-26"}, {"2026-01-11", "2026-01-26", "2026-01-26", "2026-02-05"},
		{"2026-01-21", "2026-02-05", "2026-02-05", "2026-02-15"}}
	var raw struct {
		Folds []struct {
			InSample    map[string]any `json:"in_sample"`
			OutOfSample map[string]any `json:"out_of_sample"`
		} `json:"folds"`
	}
	s.into(s.do("GET", "/api/sweeps/"+q.ID, tok, ""), &raw)
	compared := 0
	for k, f := range wf.Folds {
		got := [4]string{f.InSample.Start, f.InSample.End, f.OutOfSample.Start, f.OutOfSample.End}
		if got != wantWin[k] || f.Status != "completed" || f.Trial == nil {
			t.Fatalf("fold %d: %+v, want windows %v", k, f, wantWin[k])
		}
		// The chosen trial is the best in sample: each trial run alone on
		// the in-sample window scores no more.
		bestIS := raw.Folds[k].InSample["total_return"].(float64)
		for _, tr := range wf.Trials {
			one := s.backtest(tok, `{`+strings.Replace(sweepBase, `"start_date":"2026-01-01","end_date":"2026-02-15"`,
				`"start_date":"`+f.InSample.Start+`","end_date":"`+f.InSample.End+`"`, 1)+`,"params":`+string(tr.Params)+`}`)
			var rep map[string]any
			s.into(one, &rep)
			if rep["total_return"].(float64) > bestIS || tr.Index == *f.Trial && rep["total_return"].(float64) != bestIS {
				t.Fatalf("fold %d chose trial %d (%v in sample), trial %d alone gives %v", k, *f.Trial, bestIS, tr.Index, rep["total_return"])
			}
		}
		one := s.backtest(tok, `{`+strings.Replace(sweepBase, `"start_date":"2026-01-01","end_date":"2026-02-15"`,
			`"start_date":"`+f.OutOfSample.Start+`","end_date":"`+f.OutOfSample.End+`"`, 1)+`,"params":`+string(f.Params)+`}`)
		var rep map[string]any
		s.into(one, &rep)
		if d := rep["assumptions"].(map[string]any)["data"].(map[string]any); d["from"].(string) >= f.OutOfSample.Start {
			t.Fatalf("fold %d's window alone read no warm-up before %s: %v", k, f.OutOfSample.Start, d)
		}
		if rep["strategy_version"] != float64(1) {
			t.Fatalf("fold %d's window alone: strategy_version %v, want 1 (the sweep's base)", k, rep["strategy_version"])
		}
		for _, key := range []string{"equity_curve", "equity_curve_points", "trades", "fills", "id", "created_at", "request", "config", "assumptions", "ai", "strategy_version"} {
			delete(rep, key)
		}
		if !reflect.DeepEqual(rep, raw.Folds[k].OutOfSample) {
			t.Fatalf("fold %d out of sample differs from its window alone:\n fold   %v\n single %v", k, raw.Folds[k].OutOfSample, rep)
		}
		compared++
	}
	if compared != 3 || len(wf.StitchedEquity) == 0 || wf.StitchedReturn == nil {
		t.Fatalf("stitched curve: %d points, return %v", len(wf.StitchedEquity), wf.StitchedReturn)
	}
	// The stitched return is the product of the folds' out-of-sample returns.
	prod := 1.0
	for _, f := range raw.Folds {
		prod *= 1 + f.OutOfSample["total_return"].(float64)
	}
	if math.Abs(*wf.StitchedReturn-(prod-1)) > 1e-6 {
		t.Fatalf("stitched return %v, want %v", *wf.StitchedReturn, prod-1)
	}
	for _, n := range []string{"indicators.rsi_period", "indicators.sma_long"} {
		st, ok := wf.ParameterStability[n]
		if !ok || len(st.Values) != 3 || st.ModalShare < 1.0/3 || st.Dispersion == nil || *st.Dispersion < 0 || *st.Dispersion > 0.5 {
			t.Fatalf("stability of %s: %+v", n, st)
		}
	}
	ds := wf.DeflatedSharpe
	if ds == nil || wf.Best == nil || ds.Trial != wf.Best.Index || ds.Trials != 4 || ds.Obs == 0 {
		t.Fatalf("deflated sharpe: %+v (best %+v) %v", ds, wf.Best, wf.Notes)
	}
	if ds.Probability != nil && (*ds.Probability < 0 || *ds.Probability > 1) {
		t.Fatalf("deflated sharpe probability %v", *ds.Probability)
	}
	// The best trial's per-period Sharpe ratio is its report's over
	// sqrt(candles per year).
	if ann := wf.Trials[ds.Trial].Metrics["sharpe_ratio"].(float64); math.Abs(ds.Annualised-ann) > 1e-12 || math.Abs(ds.Sharpe*math.Sqrt(8760)-ann) > 1e-9 {
		t.Fatalf("deflated sharpe's ratio %v (%v annualised), trial's %v", ds.Sharpe, ds.Annualised, ann)
	}
}

func TestWalkForwardRefusals(t *testing.T) {
	s := start(t, t.TempDir())
	_, tok := s.accounts()
	grid := `"grid":{"indicators.rsi_period":[7,14]},"objective":"sharpe",`
	cases := []struct{ body, field, want string }{
		{`"walk_forward":{"mode":"sideways","folds":3,"in_sample_fraction":0.7}`, "walk_forward.mode", "anchored or rolling"},
		{`"walk_forward":{"mode":"rolling","folds":1,"in_sample_fraction":0.7}`, "walk_forward.folds", "between 2 and 20"},
		{`"walk_forward":{"mode":"anchored","folds":3,"in_sample_fraction":1}`, "walk_forward.in_sample_fraction", "between 0 and 1"},
		{`"walk_forward":{"mode":"anchored","folds":3,"in_sample_fraction":0}`, "walk_forward.in_sample_fraction", "between 0 and 1"},
		{`"walk_forward":{"mode":"rolling","folds":6,"in_sample_fraction":0.5}`, "walk_forward.folds", "out-of-sample windows of 6 days; each needs at least 7"},
		// Daily candles: 15-day windows hold 15 candles, fewer than 30.
		{`"params":{"timeframe":"ONE_DAY"},"walk_forward":{"mode":"rolling","folds":2,"in_sample_fraction":0.5}`, "walk_forward.folds", "windows of 15 days; each needs at least 30"},
	}
	for _, c := range cases {
		r := s.do("POST", "/api/sweeps", tok, `{`+sweepBase+`,`+grid+c.body+`}`)
		if r.Status != 400 || !strings.Contains(r.Error.Fields[c.field], c.want) {
			t.Errorf("%s: %d %+v, want 400 with %s: %q", c.body, r.Status, r.Error, c.field, c.want)
		}
	}
}

// A restart resumes a walk-forward sweep: a fold's in-sample run stored
// before is kept (not run again) and its score chooses the fold's trial.
func TestWalkForwardResumesAfterARestart(t *testing.T) {
	onEachEngine(t, walkForwardResumesAfterARestart)
}

func walkForwardResumesAfterARestart(t *testing.T, e engine) {
	dir := t.TempDir()
	st := e.open(t, dir)
	ctx := context.Background()
	ask := `{` + sweepBase + `,"slippage_bps":"0","volume_cap":"0","grid":{"indicators.rsi_period":[7,21]},"objective":"total_return",
		"walk_forward":{"mode":"anchored","folds":2,"in_sample_fraction":0.5}}`
	if err := st.CreateJob(ctx, domain.Job{ID: "wf", Kind: "sweep", Owner: "u1", Params: json.RawMessage(ask), CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if ok, err := st.ClaimJob(ctx, "wf", time.Now()); !ok || err != nil {
		t.Fatal(ok, err)
	}
	// Fold 0's in-sample run of trial 0 (index n + 0 x n + 0 = 2), as the
	// interrupted run stored it: an impossible return, so it wins the fold.
	five := 5.0
	if err := st.SaveSweepTrial(ctx, domain.SweepTrial{SweepID: "wf", Index: 2, Values: json.RawMessage(`{"indicators.rsi_period":7}`),
		Params: json.RawMessage(`{"indicators":{"rsi_period":7}}`), Metrics: json.RawMessage(`{"total_return":5,"total_trades":9}`), Score: &five, Trades: 9,
		CreatedAt: time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	st.Close()

	s := startWith(t, dir, e.edit)
	_, tok := s.accounts()
	s.waitSweep(tok, "wf")
	var wf wfReply
	s.into(s.do("GET", "/api/sweeps/wf", tok, ""), &wf)
	if wf.Status != "completed" || len(wf.Trials) != 2 || len(wf.Folds) != 2 || wf.Runs != wf.RunsPlanned || wf.RunsPlanned != 2+2*2+2+1 || wf.Progress != 1 {
		t.Fatalf("resumed: %s trials %d folds %d runs %d/%d progress %v (%s)", wf.Status, len(wf.Trials), len(wf.Folds), wf.Runs, wf.RunsPlanned, wf.Progress, wf.Error)
	}
	var raw struct {
		Folds []struct {
			Trial    *int           `json:"trial"`
			InSample map[string]any `json:"in_sample"`
		} `json:"folds"`
	}
	s.into(s.do("GET", "/api/sweeps/wf", tok, ""), &raw)
	if f := raw.Folds[0]; f.Trial == nil || *f.Trial != 0 || f.InSample["total_return"] != 5.0 {
		t.Fatalf("fold 0 after the restart: %+v", f)
	}
	if f := raw.Folds[1]; f.Trial == nil || f.InSample["candles"] == nil {
		t.Fatalf("fold 1 not run: %+v", f)
	}
}
