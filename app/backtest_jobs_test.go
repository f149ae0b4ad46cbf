package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"kestrel/ai/aifake"
	"kestrel/domain"
	"kestrel/store/sqlite"
)

// backtestJob is GET /api/backtests/{id}.
type backtestJob struct {
	ID         string          `json:"id"`
	Status     string          `json:"status"`
	Progress   float64         `json:"progress"`
	Error      string          `json:"error"`
	StartedAt  *time.Time      `json:"started_at"`
	FinishedAt *time.Time      `json:"finished_at"`
	Report     json.RawMessage `json:"report"`
}

// waitJob polls a backtest until until(job) holds (10 minutes at most).
func (s *server) waitJob(tok, id string, until func(backtestJob) bool) backtestJob {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Minute)
	for {
		var j backtestJob
		r := s.do("GET", "/api/backtests/"+id, tok, "")
		if r.Status != 200 {
			s.t.Fatalf("get backtest %s: %+v", id, r)
		}
		s.into(r, &j)
		if until(j) {
			return j
		}
		if domain.JobDone(j.Status) || time.Now().After(deadline) {
			s.t.Fatalf("backtest %s is %s (%s)", id, j.Status, j.Error)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func finished(j backtestJob) bool { return domain.JobDone(j.Status) }

// backtest queues a run and waits for it. Anything but 202 is returned as
// it came (a 400, a live run's estimate); a queued run must complete, and
// the reply then carries its report (status 202, the queueing's).
func (s *server) backtest(tok, body string) reply {
	s.t.Helper()
	r := s.do("POST", "/api/backtests", tok, body)
	if r.Status != 202 {
		return r
	}
	var q struct{ ID, Status string }
	s.into(r, &q)
	if q.ID == "" || q.Status != "queued" {
		s.t.Fatalf("queued: %s", r.Data)
	}
	j := s.waitJob(tok, q.ID, finished)
	if j.Status != "completed" || len(j.Report) == 0 {
		s.t.Fatalf("backtest %s: %s (%s)", q.ID, j.Status, j.Error)
	}
	r.Data = j.Report
	return r
}

// liveServer is a Kestrel whose AI provider is a slow local fake.
func liveServer(t *testing.T, fake *aifake.Server) (s *server, op, trader string) {
	s = start(t, t.TempDir())
	op, trader = s.accounts()
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	if r := s.do("PUT", "/api/settings", op, `{"api":{"ai":{"provider":"openai","baseUrl":"`+srv.URL+`","model":"fake-model","timeout":10000}},
		"system":{"performance":{"requestTimeout":5000}}}`); r.Status != 200 {
		t.Fatalf("settings: %+v", r)
	}
	return s, op, trader
}

// 301 hourly candles: 300 evaluations (nothing follows the last to act on).
func ask300(mode, extra string) string {
	return `{"strategy_name":"ai_strategy","symbol":"BTC-USD","start_date":"2026-01-01T00:00:00Z","end_date":"2026-01-13T13:00:00Z",` +
		`"initial_capital":10000,"ai_mode":"` + mode + `"` + extra + `}`
}

// A live-model run of 300 evaluations against a slow model outlives the
// request timeout as a job, stores its answers and replays identically in
// recorded mode without calling the model.
func TestLiveBacktestIsAJob(t *testing.T) {
	cost := 0.0001
	fake := &aifake.Server{Delay: 20 * time.Millisecond, Cost: &cost}
	s, op, trader := liveServer(t, fake)

	var est struct {
		ModelCalls int `json:"model_calls"`
		Cap        int `json:"model_call_cap"`
	}
	s.into(s.do("POST", "/api/backtests", op, ask300("live", "")), &est)
	if est.ModelCalls != 300 || est.Cap != 2000 {
		t.Fatalf("estimate %+v", est)
	}
	ws := s.socket(trader)
	subscribe(t, ws, "jobs")

	r := s.do("POST", "/api/backtests", op, ask300("live", `,"confirm_live":true`))
	if r.Status != 202 {
		t.Fatalf("live run: %+v", r)
	}
	var q struct{ ID, Status string }
	s.into(r, &q)
	j := s.waitJob(op, q.ID, finished)
	if j.Status != "completed" {
		t.Fatalf("live run ended %s: %s", j.Status, j.Error)
	}
	// 300 answers of at least 20 ms each: the run outlived the 5 s request timeout.
	if j.FinishedAt.Sub(*j.StartedAt) < 5*time.Second {
		t.Fatalf("the run took %s, which proves nothing about the request timeout", j.FinishedAt.Sub(*j.StartedAt))
	}
	var live aiReport
	if err := json.Unmarshal(j.Report, &live); err != nil {
		t.Fatal(err)
	}
	if live.ID != q.ID || live.AI.Prompts != 300 || live.AI.ModelCalls != 300 || fake.Calls() != 300 || live.AI.Saved != 300 || live.AI.Failed != 0 ||
		live.AI.Cost == nil || fmt.Sprintf("%.4f", *live.AI.Cost) != "0.0300" || live.AI.CostReported != 300 || !strings.Contains(live.AI.Summary, "300 model calls") {
		t.Fatalf("live report: %+v (fake saw %d calls)", live.AI, fake.Calls())
	}
	if len(live.Fills) == 0 {
		t.Fatal("the fake model's BUYs made no fill: the test proves nothing")
	}
	// Progress reached the WebSocket on the way.
	if got := jobFrames(t, ws, q.ID); !got.progressed || got.last != "completed" {
		t.Fatalf("jobs channel: %+v", got)
	}

	// Recorded: the same run from the stored answers, no model call.
	rec := s.backtest(trader, ask300("recorded", ""))
	var replay aiReport
	s.into(rec, &replay)
	if replay.AI.Recorded != 300 || replay.AI.Missing != 0 || replay.AI.ModelCalls != 0 || fake.Calls() != 300 {
		t.Fatalf("recorded: %+v (fake saw %d calls)", replay.AI, fake.Calls())
	}
	if fmt.Sprint(replay.Fills) != fmt.Sprint(live.Fills) || replay.FinalEquity != live.FinalEquity {
		t.Fatalf("the replay differs:\nlive %v %s\nreplay %v %s", live.Fills, live.FinalEquity, replay.Fills, replay.FinalEquity)
	}
}

type frames struct {
	progressed bool
	last       string
}

// jobFrames reads job_update frames of one job until it has finished.
func jobFrames(t *testing.T, c *websocket.Conn, id string) frames {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var f frames
	for !domain.JobDone(f.last) {
		_, b, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("jobs channel after %+v: %v", f, err)
		}
		var m struct {
			Type string
			Data domain.Job
		}
		if json.Unmarshal(b, &m) != nil || m.Type != "job_update" || m.Data.ID != id {
			continue
		}
		f.last = m.Data.Status
		if m.Data.Status == "running" && m.Data.Progress > 0 && m.Data.Progress < 1 {
			f.progressed = true
		}
	}
	return f
}

func subscribe(t *testing.T, c *websocket.Conn, channel string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"action":"subscribe","channels":["`+channel+`"]}`)); err != nil {
		t.Fatal(err)
	}
	for {
		_, b, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), `"ack"`) || strings.Contains(string(b), "subscri") {
			return
		}
	}
}

// Cancel stops a live run; the answers it paid for are kept and replay.
func TestCancelLiveBacktest(t *testing.T) {
	fake := &aifake.Server{BlockAfter: 40}
	s, op, trader := liveServer(t, fake)
	r := s.do("POST", "/api/backtests", op, ask300("live", `,"confirm_live":true`))
	var q struct{ ID string }
	s.into(r, &q)
	s.waitJob(op, q.ID, func(j backtestJob) bool { return fake.Calls() > 40 }) // the model stopped answering
	if r := s.do("POST", "/api/backtests/"+q.ID+"/cancel", trader, ""); r.Status != 403 {
		t.Fatalf("a trader cancelled the operator's run: %+v", r)
	}
	if r := s.do("POST", "/api/backtests/"+q.ID+"/cancel", op, ""); r.Status != 200 {
		t.Fatalf("cancel: %+v", r)
	}
	j := s.waitJob(op, q.ID, finished)
	if j.Status != "cancelled" || j.Error != "Cancelled by op@example.com" || j.Progress <= 0 || j.Progress >= 1 || len(j.Report) != 0 {
		t.Fatalf("cancelled run: %+v", j)
	}
	if fake.Calls() != 41 {
		t.Fatalf("the model was called %d times, want 41 (40 answers and the one cancelled)", fake.Calls())
	}
	if r := s.do("POST", "/api/backtests/"+q.ID+"/cancel", op, ""); r.Status != 409 {
		t.Fatalf("cancelling a cancelled run: %+v", r)
	}
	var list struct {
		Backtests []struct{ ID, Status, Error string }
	}
	s.into(s.do("GET", "/api/backtests", trader, ""), &list)
	if len(list.Backtests) != 1 || list.Backtests[0].ID != q.ID || list.Backtests[0].Status != "cancelled" {
		t.Fatalf("past runs: %+v", list)
	}
	// The 40 answers were stored as they came: a recorded run replays them.
	var replay aiReport
	s.into(s.backtest(trader, ask300("recorded", "")), &replay)
	if replay.AI.Recorded != 40 || replay.AI.Missing != 260 || fake.Calls() != 41 {
		t.Fatalf("recorded after the cancel: %+v", replay.AI)
	}
}

// Live runs are the operator's: a trader is refused, and a run over the
// cap on model calls is refused before any call.
func TestLiveBacktestGuards(t *testing.T) {
	fake := &aifake.Server{}
	s, op, trader := liveServer(t, fake)
	for _, body := range []string{ask300("live", ""), ask300("live", `,"confirm_live":true`)} {
		if r := s.do("POST", "/api/backtests", trader, body); r.Status != 403 || r.Error.Code != "forbidden" {
			t.Fatalf("trader live run: %+v", r)
		}
	}
	if r := s.do("GET", "/api/strategy/backtest/ai_strategy?ai_mode=live", trader, ""); r.Status != 403 {
		t.Fatalf("trader GET live: %+v", r)
	}
	if r := s.do("PUT", "/api/settings", op, `{"api":{"ai":{"backtestMaxModelCalls":299}}}`); r.Status != 200 {
		t.Fatalf("settings: %+v", r)
	}
	for _, body := range []string{ask300("live", ""), ask300("live", `,"confirm_live":true`)} {
		r := s.do("POST", "/api/backtests", op, body)
		if r.Status != 400 || !strings.Contains(r.Error.Fields["ai_mode"], "would ask the model 300 times") ||
			!strings.Contains(r.Error.Fields["ai_mode"], "cap of 299 model calls") {
			t.Fatalf("over the cap: %+v", r)
		}
	}
	if fake.Calls() != 0 {
		t.Fatalf("the model was called %d times", fake.Calls())
	}
	var list struct{ Count int }
	if s.into(s.do("GET", "/api/backtests", op, ""), &list); list.Count != 0 {
		t.Fatalf("a refused run was stored: %+v", list)
	}
}

// A restart fails the job it interrupted, with the reason, and runs the
// queued one.
func TestBacktestJobsSurviveARestart(t *testing.T) {
	dir := t.TempDir()
	st, err := sqlite.Open(context.Background(), filepath.Join(dir, "kestrel.db"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ask := `{"strategy_name":"technical_strategy","symbol":"BTC-USD","start_date":"2026-01-01","end_date":"2026-01-15","initial_capital":"10000","slippage_bps":"0","volume_cap":"0"}`
	for _, id := range []string{"interrupted", "waiting"} {
		if err := st.CreateJob(ctx, domain.Job{ID: id, Kind: "backtest", Owner: "u1", Params: json.RawMessage(ask), CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	if ok, err := st.ClaimJob(ctx, "interrupted", time.Now()); !ok || err != nil {
		t.Fatal(ok, err)
	}
	st.Close()

	s := start(t, dir)
	_, tok := s.accounts()
	if j := s.waitJob(tok, "interrupted", finished); j.Status != "failed" || !strings.Contains(j.Error, "Interrupted at 0%") {
		t.Fatalf("interrupted job: %+v", j)
	}
	j := s.waitJob(tok, "waiting", finished)
	var rep struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	if err := json.Unmarshal(j.Report, &rep); j.Status != "completed" || err != nil || rep.ID != "waiting" || rep.Status != "completed" {
		t.Fatalf("queued job after the restart: %+v", j)
	}
}
