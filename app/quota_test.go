package app_test

import (
	"io/fs"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"kestrel/ai/aifake"
	"kestrel/app"
)

// dirSize is the bytes of every file under dir (the SQLite database, its
// WAL and anything else the server keeps there).
func dirSize(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err == nil {
			n += info.Size()
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// 100 synchronous backtests through a read-scope token leave the data
// directory within a few MB: each user keeps only the newest few reports
// of the GET form (system.quotas.requestBacktests, 5 by default), and
// every run is in the audit log. Before, each run stored its report for
// good (about 64 MB for these 100).
func TestSyncBacktestsKeepABoundedHistory(t *testing.T) {
	dir := t.TempDir()
	s := start(t, dir)
	op, trader := s.accounts()
	read := s.newToken(trader, "", "reader", "read")
	first := s.do("GET", "/api/strategy/backtest/technical_strategy", read.Token, "")
	if first.Status != 200 {
		t.Fatalf("first run: %d %+v", first.Status, first.Error)
	}
	var rep struct{ ID string }
	s.into(first, &rep)
	before := dirSize(t, dir)
	for i := range 100 {
		if r := s.do("GET", "/api/strategy/backtest/technical_strategy", read.Token, ""); r.Status != 200 {
			t.Fatalf("run %d: %d %+v", i, r.Status, r.Error)
		}
	}
	after := dirSize(t, dir)
	grew := after - before
	t.Logf("data directory %.1f MB before the 100 runs, %.1f MB after (+%.2f MB); first report %d bytes",
		float64(before)/(1<<20), float64(after)/(1<<20), float64(grew)/(1<<20), len(first.Data))
	if grew > 8<<20 {
		t.Errorf("100 synchronous backtests grew the data directory by %.1f MB, want at most 8 MB", float64(grew)/(1<<20))
	}
	var list struct {
		Backtests []struct{ ID, Owner, Source string }
	}
	s.into(s.do("GET", "/api/backtests?limit=500", read.Token, ""), &list)
	if len(list.Backtests) != 5 {
		t.Fatalf("%d reports listed, want the newest 5", len(list.Backtests))
	}
	for _, b := range list.Backtests {
		if b.Source != "request" || b.Owner == "" {
			t.Fatalf("listed %+v", b)
		}
	}
	if r := s.do("GET", "/api/backtests/"+rep.ID, read.Token, ""); r.Status != 404 {
		t.Fatalf("the oldest run is still stored: %d", r.Status)
	}
	if r := s.do("GET", "/api/backtests/"+list.Backtests[0].ID, read.Token, ""); r.Status != 200 {
		t.Fatalf("the newest run is not stored: %d %+v", r.Status, r.Error)
	}
	var audit struct {
		Entries []struct{ Action, Actor, Detail string }
	}
	s.into(s.do("GET", "/api/audit?limit=500", op, ""), &audit)
	runs := 0
	for _, e := range audit.Entries {
		if e.Action == "GET /api/strategy/backtest/technical_strategy" && strings.Contains(e.Detail, "run in the request") && strings.Contains(e.Actor, "via token 'reader'") {
			runs++
		}
	}
	if runs != 101 {
		t.Fatalf("%d synchronous runs audited, want 101", runs)
	}
}

// Each user may have system.quotas.activeBacktests backtests and
// activeSweeps sweeps queued or running: one more is refused with 429
// naming the limit; another user is not counted against it.
func TestActiveJobQuotas(t *testing.T) {
	fake := &aifake.Server{BlockAfter: 1} // every live run but the first answer waits: its job stays running
	s, op, trader := liveServer(t, fake)
	if r := s.do("PUT", "/api/settings", op, `{"api":{"ai":{"timeout":120000}},"system":{"quotas":{"activeBacktests":4,"activeSweeps":1}}}`); r.Status != 200 {
		t.Fatalf("settings: %+v", r)
	}
	// Four live runs hold every worker (at most four), so what is queued
	// after them stays queued.
	var held []string
	for i := range 4 {
		r := s.do("POST", "/api/backtests", op, ask300("live", `,"confirm_live":true`))
		if r.Status != 202 {
			t.Fatalf("live run %d: %d %+v", i, r.Status, r.Error)
		}
		var q struct{ ID string }
		s.into(r, &q)
		held = append(held, q.ID)
	}
	defer func() { // the waiting model calls end with their runs
		for _, id := range held {
			s.do("POST", "/api/backtests/"+id+"/cancel", op, "")
		}
	}()
	r := s.do("POST", "/api/backtests", op, `{"strategy_name":"technical_strategy","symbol":"BTC-USD","start_date":"2026-01-01","end_date":"2026-02-01","initial_capital":10000}`)
	if r.Status != 429 || r.Error.Code != "rate_limited" || r.Error.Message != "You have 4 backtests queued or running; the limit is 4" {
		t.Fatalf("fifth backtest: %d %+v", r.Status, r.Error)
	}
	if r := s.do("POST", "/api/backtests", trader, `{"strategy_name":"technical_strategy","symbol":"BTC-USD","start_date":"2026-01-01","end_date":"2026-02-01","initial_capital":10000}`); r.Status != 202 {
		t.Fatalf("another user's backtest: %d %+v", r.Status, r.Error)
	}
	sweep := `{` + sweepBase + `,"grid":{"indicators.rsi_period":[7,14]},"objective":"total_return"}`
	if r := s.do("POST", "/api/sweeps", trader, sweep); r.Status != 202 {
		t.Fatalf("first sweep: %d %+v", r.Status, r.Error)
	}
	r = s.do("POST", "/api/sweeps", trader, sweep)
	if r.Status != 429 || r.Error.Message != "You have 1 sweep queued or running; the limit is 1" {
		t.Fatalf("second sweep: %d %+v", r.Status, r.Error)
	}
	if r := s.do("POST", "/api/sweeps", op, sweep); r.Status != 202 {
		t.Fatalf("another user's sweep: %d %+v", r.Status, r.Error)
	}
}

// Each user may keep system.quotas.storedBacktests reports of backtest
// jobs (the ones queued or running counted): one more is refused with 429;
// deleting one of their reports (DELETE /api/backtests/{id}, its owner or
// an operator, never a read token) makes room.
func TestStoredBacktestQuota(t *testing.T) {
	s := start(t, t.TempDir())
	op, trader := s.accounts()
	if r := s.do("PUT", "/api/settings", op, `{"system":{"quotas":{"storedBacktests":2}}}`); r.Status != 200 {
		t.Fatalf("settings: %+v", r)
	}
	ask := `{"strategy_name":"technical_strategy","symbol":"BTC-USD","start_date":"2026-01-01","end_date":"2026-02-01","initial_capital":10000}`
	for i := range 2 {
		if r := s.backtest(trader, ask); r.Status != 202 {
			t.Fatalf("run %d: %d %+v", i, r.Status, r.Error)
		}
	}
	r := s.do("POST", "/api/backtests", trader, ask)
	if r.Status != 429 || r.Error.Message != "You have 2 stored backtest reports (0 more queued or running); the limit is 2 per user: delete older reports to make room (reports are deleted 90 days after they ran)" {
		t.Fatalf("third run: %d %+v", r.Status, r.Error)
	}
	mine := s.backtest(op, ask)
	if mine.Status != 202 {
		t.Fatalf("another user's run: %d %+v", mine.Status, mine.Error)
	}
	// Deleting a report frees room; only its owner or an operator may.
	var opRep struct{ ID string }
	s.into(mine, &opRep)
	if r := s.do("DELETE", "/api/backtests/"+opRep.ID, trader, ""); r.Status != 403 {
		t.Fatalf("a trader deleted the operator's report: %d %+v", r.Status, r.Error)
	}
	var list struct{ Backtests []struct{ ID, Owner string } }
	s.into(s.do("GET", "/api/backtests", trader, ""), &list)
	var traderRep string
	for _, b := range list.Backtests {
		if b.ID != opRep.ID {
			traderRep = b.ID
		}
	}
	read := s.newToken(trader, "", "reader", "read")
	if r := s.do("DELETE", "/api/backtests/"+traderRep, read.Token, ""); r.Status != 403 {
		t.Fatalf("a read token deleted a report: %d %+v", r.Status, r.Error)
	}
	if r := s.do("DELETE", "/api/backtests/"+traderRep, trader, ""); r.Status != 200 {
		t.Fatalf("delete own report: %d %+v", r.Status, r.Error)
	}
	if r := s.do("GET", "/api/backtests/"+traderRep, trader, ""); r.Status != 404 {
		t.Fatalf("deleted report still there: %d", r.Status)
	}
	if r := s.backtest(trader, ask); r.Status != 202 {
		t.Fatalf("after a delete: %d %+v", r.Status, r.Error)
	}
}

// Below the free-space threshold new backtests, sweeps and backfills are
// refused (507) and an alert is raised; orders and the emergency stop go
// on; freed space lets work through again.
func TestLowDiskRefusesNewWorkNotOrders(t *testing.T) {
	var free atomic.Uint64
	free.Store(10 << 20) // 10 MB, below the default 1024 MB
	s := startWith(t, t.TempDir(), func(c *app.Config) {
		c.FreeDisk = func(string) (uint64, error) { return free.Load(), nil }
	})
	op, trader := s.accounts()
	ask := `{"strategy_name":"technical_strategy","symbol":"BTC-USD","start_date":"2026-01-01","end_date":"2026-02-01","initial_capital":10000}`
	for _, c := range []struct{ method, path, tok, body string }{
		{"GET", "/api/strategy/backtest/technical_strategy", trader, ""},
		{"POST", "/api/backtests", trader, ask},
		{"POST", "/api/sweeps", trader, `{` + sweepBase + `,"grid":{"indicators.rsi_period":[7,14]},"objective":"total_return"}`},
		{"POST", "/api/market-data/backfills", op, `{"symbol":"BTC-USD","granularity":"ONE_HOUR","start":"2026-01-01","end":"2026-01-02"}`},
	} {
		r := s.do(c.method, c.path, c.tok, c.body)
		if r.Status != 507 || r.Error.Code != "insufficient_storage" || !strings.Contains(r.Error.Message, "10 MB free, less than the 1024 MB") {
			t.Errorf("%s %s on a full disk: %d %+v", c.method, c.path, r.Status, r.Error)
		}
	}
	if r := s.do("POST", "/api/trading/execute", trader, `{"symbol":"BTC-USD","action":"BUY","quantity":0.001}`); !r.Success {
		t.Fatalf("an order on a full disk: %d %+v", r.Status, r.Error)
	}
	if r := s.do("POST", "/api/trading/stop", op, ""); !r.Success {
		t.Fatalf("the emergency stop on a full disk: %d %+v", r.Status, r.Error)
	}
	if a, ok := findAlert(s.openAlerts(op), "Disk space low"); !ok || a.Resolved {
		t.Fatalf("low-disk alert %+v (%v)", a, ok)
	}
	free.Store(100 << 30)
	if r := s.do("GET", "/api/strategy/backtest/technical_strategy", trader, ""); r.Status != 200 {
		t.Fatalf("after space was freed: %d %+v", r.Status, r.Error)
	}
}
