package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"kestrel/domain"
)

// sweepReply is GET /api/sweeps/{id}.
type sweepReply struct {
	Status     string   `json:"status"`
	Progress   float64  `json:"progress"`
	Error      string   `json:"error"`
	Parameters []string `json:"parameters"`
	TrialCount int      `json:"trial_count"`
	Trials     []struct {
		Index      int             `json:"index"`
		Values     map[string]any  `json:"values"`
		Params     json.RawMessage `json:"params"`
		Metrics    map[string]any  `json:"metrics"`
		Score      *float64        `json:"score"`
		Trades     int             `json:"trades"`
		FinishedAt time.Time       `json:"finished_at"`
		Eligible   bool            `json:"eligible"`
	} `json:"trials"`
	Best *struct {
		Index int      `json:"index"`
		Score *float64 `json:"score"`
	} `json:"best"`
}

func (s *server) waitSweep(tok, id string) sweepReply {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Minute)
	for {
		var sw sweepReply
		r := s.do("GET", "/api/sweeps/"+id, tok, "")
		if r.Status != 200 {
			s.t.Fatalf("get sweep %s: %+v", id, r)
		}
		s.into(r, &sw)
		if domain.JobDone(sw.Status) {
			return sw
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("sweep %s still %s", id, sw.Status)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

const sweepBase = `"strategy_name":"technical_strategy","symbol":"BTC-USD","start_date":"2026-01-01","end_date":"2026-02-15","initial_capital":"10000"`

// Every trial is exactly the backtest of its overrides run alone (trials of
// two warm-up lengths, so from one read of the candles), a trader
// may run a sweep, and the best trial is the eligible one with the highest
// objective.
func TestSweepTrialsAreSingleBacktests(t *testing.T) {
	onEachEngine(t, sweepTrialsAreSingleBacktests)
}

func sweepTrialsAreSingleBacktests(t *testing.T, e engine) {
	s := startWith(t, t.TempDir(), e.edit)
	_, tok := s.accounts()
	r := s.do("POST", "/api/sweeps", tok, `{`+sweepBase+`,"params":{"min_confidence":0.5},
		"grid":{"indicators.rsi_period":[7,14,21],"indicators.sma_long":[20,60]},"objective":"total_return","min_trades":1,
		"strategy_config":{"name":"a client's own"}}`) // replaced by the server's
	if r.Status != 202 {
		t.Fatalf("submit: %+v", r)
	}
	var q struct{ ID string }
	s.into(r, &q)
	sw := s.waitSweep(tok, q.ID)
	if sw.Status != "completed" || sw.Progress != 1 || sw.TrialCount != 6 || len(sw.Trials) != 6 ||
		!reflect.DeepEqual(sw.Parameters, []string{"indicators.rsi_period", "indicators.sma_long"}) {
		t.Fatalf("sweep: %s %v %d/%d %v (%s)", sw.Status, sw.Progress, len(sw.Trials), sw.TrialCount, sw.Parameters, sw.Error)
	}
	bestScore, best := 0.0, -1
	for i, tr := range sw.Trials {
		if tr.Index != i || tr.Score == nil || tr.Metrics["total_return"] != *tr.Score {
			t.Fatalf("trial %d: %+v", i, tr)
		}
		if tr.Eligible != (tr.Trades >= 1) {
			t.Fatalf("trial %d eligible %v with %d trades", i, tr.Eligible, tr.Trades)
		}
		if tr.Eligible && (best < 0 || *tr.Score > bestScore) {
			best, bestScore = i, *tr.Score
		}
	}
	if best < 0 || sw.Best == nil || sw.Best.Index != best {
		t.Fatalf("best = %+v, want trial %d", sw.Best, best)
	}
	var p map[string]any
	if json.Unmarshal(sw.Trials[5].Params, &p); p["min_confidence"] != 0.5 || !reflect.DeepEqual(p["indicators"], map[string]any{"rsi_period": float64(21), "sma_long": float64(60)}) {
		t.Fatalf("trial 5 params = %s", sw.Trials[5].Params)
	}
	distinct := map[any]bool{}
	for _, i := range []int{0, 3, 5} {
		tr := sw.Trials[i]
		distinct[tr.Metrics["total_return"]] = true
		one := s.backtest(tok, `{`+sweepBase+`,"params":`+string(tr.Params)+`}`)
		if one.Status != 202 {
			t.Fatalf("single run of trial %d: %+v", i, one)
		}
		var rep map[string]any
		s.into(one, &rep)
		if rep["strategy_version"] != float64(1) {
			t.Fatalf("single run of trial %d: strategy_version %v, want 1 (the sweep's base)", i, rep["strategy_version"])
		}
		for _, k := range []string{"equity_curve", "equity_curve_points", "trades", "fills", "id", "created_at", "request", "config", "assumptions", "ai", "strategy_version"} {
			delete(rep, k)
		}
		if !reflect.DeepEqual(rep, tr.Metrics) {
			t.Fatalf("trial %d differs from its single backtest:\n trial  %v\n single %v", i, tr.Metrics, rep)
		}
	}
	if len(distinct) < 2 {
		t.Fatalf("the trials compared did not differ (%v): the overrides were not applied", distinct)
	}
	var list []struct{ ID, Status, Objective string }
	if s.into(s.do("GET", "/api/sweeps", tok, ""), &list); len(list) != 1 || list[0].ID != q.ID || list[0].Status != "completed" || list[0].Objective != "total_return" {
		t.Fatalf("list = %+v", list)
	}
	if r := s.do("POST", "/api/sweeps/"+q.ID+"/cancel", tok, ""); r.Status != 409 {
		t.Fatalf("cancel of a finished sweep: %+v", r)
	}
	// A page of the trials: the same trials, the total of them all, and the
	// best chosen among them all (not within the page).
	var page struct {
		sweepReply
		TrialsTotal  int `json:"trials_total"`
		TrialsOffset int `json:"trials_offset"`
	}
	s.into(s.do("GET", "/api/sweeps/"+q.ID+"?offset=4&limit=5", tok, ""), &page)
	if page.TrialsTotal != 6 || page.TrialsOffset != 4 || len(page.Trials) != 2 || page.Trials[0].Index != 4 || page.Trials[1].Index != 5 ||
		page.Best == nil || page.Best.Index != best {
		t.Fatalf("page 4+5 = total %d offset %d %d trials, best %+v", page.TrialsTotal, page.TrialsOffset, len(page.Trials), page.Best)
	}
	if r := s.do("GET", "/api/sweeps/"+q.ID+"?limit=0", tok, ""); r.Status != 400 {
		t.Fatalf("limit=0: %+v", r)
	}
}

func TestSweepRefusals(t *testing.T) {
	s := start(t, t.TempDir())
	_, tok := s.accounts()
	big := []string{}
	for _, n := range []string{"rsi_period", "sma_short", "sma_long", "macd_fast", "macd_slow", "bollinger_period"} {
		big = append(big, fmt.Sprintf(`"indicators.%s":[5,6,7,8,9]`, n))
	}
	cases := []struct{ body, field, want string }{
		{`"grid":{"indicators.rsi_period":[7]},"objective":"cagr"`, "objective", "Objective must be one of"},
		{`"objective":"sharpe"`, "grid", "Give a search space"},
		{`"grid":{"name":["x"]},"objective":"sharpe"`, "grid.name", "cannot change the strategy's name"},
		{`"grid":{"timeframe":["ONE_HOUR"]},"objective":"sharpe"`, "grid.timeframe", "one timeframe"},
		{`"grid":{"indicators.rsi_period":[]},"objective":"sharpe"`, "grid.indicators.rsi_period", "at least one value"},
		{`"grid":{` + strings.Join(big, ",") + `},"objective":"sharpe"`, "grid", "more than 5000 combinations"},
		{`"grid":{"indicators.rsi_perod":[7]},"objective":"sharpe"`, "grid", "unknown field"},
		{`"grid":{"indicators.rsi_period":[7,"x"]},"objective":"sharpe"`, "grid", `Trial {"indicators.rsi_period":"x"}`},
		{`"random":{"indicators.rsi_period":{"min":5,"max":30,"step":0}},"trials":10,"objective":"sharpe"`, "random.indicators.rsi_period", "step must be greater than 0"},
		{`"random":{"indicators.rsi_period":{"min":5,"max":30,"step":1}},"objective":"sharpe"`, "trials", "needs trials"},
		{`"grid":{"indicators.rsi_period":[7]},"objective":"sharpe","ai_mode":"live"`, "ai_mode", "never asks a live model"},
		{`"grid":{"indicators.rsi_period":[7]},"objective":"sharpe","min_trades":-1`, "min_trades", "must not be negative"},
	}
	for _, c := range cases {
		r := s.do("POST", "/api/sweeps", tok, `{`+sweepBase+`,`+c.body+`}`)
		if r.Status != 400 || !strings.Contains(r.Error.Fields[c.field], c.want) {
			t.Errorf("%s: %d %+v, want 400 with %s: %q", c.body, r.Status, r.Error, c.field, c.want)
		}
	}
	var list []any
	if s.into(s.do("GET", "/api/sweeps", tok, ""), &list); len(list) != 0 {
		t.Fatalf("a refused sweep was stored: %+v", list)
	}
}

// A restart resumes a sweep it interrupted: the trials stored before are
// kept as they were (not run again), the rest run.
func TestSweepResumesAfterARestart(t *testing.T) {
	onEachEngine(t, sweepResumesAfterARestart)
}

func sweepResumesAfterARestart(t *testing.T, e engine) {
	dir := t.TempDir()
	st := e.open(t, dir)
	ctx := context.Background()
	ask := `{` + sweepBase + `,"slippage_bps":"0","volume_cap":"0","random":{"indicators.rsi_period":{"min":5,"max":30,"step":1}},"trials":4,"seed":7,"objective":"sharpe"}`
	if err := st.CreateJob(ctx, domain.Job{ID: "interrupted", Kind: "sweep", Owner: "u1", Params: json.RawMessage(ask), CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if ok, err := st.ClaimJob(ctx, "interrupted", time.Now()); !ok || err != nil {
		t.Fatal(ok, err)
	}
	// A sweep submitted when the instance's settings were others.
	changed := strings.Replace(ask, `"objective"`, `"strategy_config":{"name":"technical_strategy","min_confidence":0.99},"objective"`, 1)
	if err := st.CreateJob(ctx, domain.Job{ID: "changed", Kind: "sweep", Owner: "u1", Params: json.RawMessage(changed), CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	long := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC) // marks the trial stored before the restart
	zero := 0.0
	// Trial 0 of seed 7, as the interrupted run stored it.
	first := domain.SweepTrial{SweepID: "interrupted", Index: 0, Values: json.RawMessage(`{"indicators.rsi_period":0}`), Params: json.RawMessage(`{}`),
		Metrics: json.RawMessage(`{"total_return":0,"sharpe_ratio":0,"total_trades":0}`), Score: &zero, CreatedAt: long}
	if err := st.SaveSweepTrial(ctx, first); err != nil {
		t.Fatal(err)
	}
	st.Close()

	s := startWith(t, dir, e.edit)
	_, tok := s.accounts()
	sw := s.waitSweep(tok, "interrupted")
	if sw.Status != "completed" || len(sw.Trials) != 4 || sw.TrialCount != 4 {
		t.Fatalf("resumed sweep: %s %d/%d (%s)", sw.Status, len(sw.Trials), sw.TrialCount, sw.Error)
	}
	if !sw.Trials[0].FinishedAt.Equal(long) {
		t.Fatalf("trial 0 was run again: %+v", sw.Trials[0])
	}
	for _, tr := range sw.Trials[1:] {
		if tr.FinishedAt.Equal(long) || tr.Metrics["candles"] == nil {
			t.Fatalf("trial %d not run: %+v", tr.Index, tr)
		}
	}
	if sw := s.waitSweep(tok, "changed"); sw.Status != "failed" || !strings.Contains(sw.Error, "changed after the sweep was submitted") || len(sw.Trials) != 0 {
		t.Fatalf("a sweep whose strategy changed: %s %q, %d trials", sw.Status, sw.Error, len(sw.Trials))
	}
}
