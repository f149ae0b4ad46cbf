package app_test

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/shopspring/decimal"

	"kestrel/app"
	"kestrel/domain"
	"kestrel/store/sqlite"
)

// backfillJob is GET /api/market-data/backfills/{id}.
type backfillJob struct {
	ID       string  `json:"id"`
	Status   string  `json:"status"`
	Progress float64 `json:"progress"`
	Error    string  `json:"error"`
	Planned  int     `json:"planned"`
	Requests int     `json:"requests"`
	Written  int     `json:"written"`
	Source   string  `json:"source"`
}

// A backfill of 90 days of hourly candles from the (fake) Coinbase's
// public candles: refused to a trader and with field errors for a bad ask,
// queued as a job whose progress moves (over GET and the jobs channel),
// fills the coverage with the source "coinbase", and a backtest on that
// range reads those candles.
func TestBackfillFillsCoverageAndFeedsABacktest(t *testing.T) {
	fake, srv, _, _ := fakeCoinbase(t)
	end := time.Now().UTC().Truncate(time.Hour)
	start := end.AddDate(0, 0, -90)
	var cs []domain.Candle
	for at, i := start, 0; at.Before(end); at, i = at.Add(15*time.Minute), i+1 {
		p := decimal.NewFromInt(int64(60000 + (i*37)%1500))
		cs = append(cs, domain.Candle{Time: at, Open: p, High: p.Add(decimal.NewFromInt(40)), Low: p.Sub(decimal.NewFromInt(40)), Close: p.Add(decimal.NewFromInt(7)), Volume: decimal.RequireFromString("2.5")})
	}
	fake.SetCandles("BTC-USD", cs)
	s := startWith(t, t.TempDir(), func(c *app.Config) { c.CoinbaseAPIURL = srv.URL })
	op, trader := s.accounts()

	ask := `{"symbol":"BTC-USD","granularity":"ONE_HOUR","start":"` + start.Format(time.RFC3339) + `","end":"` + end.Format(time.RFC3339) + `"}`
	if r := s.do("POST", "/api/market-data/backfills", trader, ask); r.Status != 403 {
		t.Fatalf("a trader's backfill: %+v", r)
	}
	for body, field := range map[string]string{
		`{"symbol":"XRP-EUR","granularity":"ONE_HOUR","start":"2026-01-01","end":"2026-01-02"}`:       "symbol",
		`{"symbol":"BTC-USD","granularity":"WEEKLY","start":"2026-01-01","end":"2026-01-02"}`:         "granularity",
		`{"symbol":"BTC-USD","granularity":"ONE_HOUR","start":"2026-01-02","end":"2026-01-01"}`:       "start",
		`{"symbol":"BTC-USD","granularity":"ONE_HOUR","start":"2026-01-01","end":"2999-01-01"}`:       "end",
		`{"symbol":"BTC-USD","granularity":"FIFTEEN_MINUTE","start":"2020-01-01","end":"2026-01-01"}`: "end",
		`{"symbol":"BTC-USD","granularity":"ONE_HOUR","start":"yesterday","end":"2026-01-01"}`:        "start",
	} {
		if r := s.do("POST", "/api/market-data/backfills", op, body); r.Status != 400 || r.Error.Fields[field] == "" {
			t.Errorf("%s: %+v, want 400 naming %s", body, r, field)
		}
	}

	c, _, err := websocket.Dial(context.Background(), strings.Replace(s.url, "http", "ws", 1)+"/api/ws", &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + op}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	subscribe(t, c, "jobs")

	r := s.do("POST", "/api/market-data/backfills", op, ask)
	if r.Status != 202 {
		t.Fatalf("backfill: %+v", r)
	}
	var q struct{ ID, Status string }
	s.into(r, &q)
	var seen []float64
	var j backfillJob
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		s.into(s.do("GET", "/api/market-data/backfills/"+q.ID, op, ""), &j)
		seen = append(seen, j.Progress)
		if domain.JobDone(j.Status) || time.Now().After(deadline) {
			break
		}
	}
	if j.Status != "completed" || j.Planned != 2160 || j.Requests != 7 || j.Written != 2160 || j.Source != "coinbase" || j.Progress != 1 {
		t.Fatalf("backfill %+v", j)
	}
	partial := false
	for _, p := range seen {
		partial = partial || (p > 0 && p < 1)
	}
	if !partial {
		t.Fatalf("progress seen %v: never between 0 and 1", seen)
	}
	fr := jobFrames(t, c, q.ID)
	if fr.last != "completed" || !fr.progressed {
		t.Fatalf("jobs channel: %+v", fr)
	}
	for _, req := range fake.RequestLog() {
		if req.Keyed {
			t.Fatalf("%s carried a key", req.Route)
		}
	}

	var cov struct {
		Coverage []struct {
			Symbol, Granularity, Source string
			From, To                    time.Time
			Candles                     int
			Gaps                        []any
		}
		Backtests []struct {
			Symbol   string
			From, To time.Time
			Sources  []string
		}
	}
	s.into(s.do("GET", "/api/market-data/coverage", trader, ""), &cov)
	found := false
	for _, row := range cov.Coverage {
		if row.Symbol == "BTC-USD" && row.Granularity == "ONE_HOUR" && row.Source == "coinbase" {
			found = row.Candles == 2160 && row.From.Equal(start) && row.To.Equal(end) && len(row.Gaps) == 0
		}
	}
	if !found {
		t.Fatalf("coverage after the backfill: %+v", cov.Coverage)
	}
	for _, b := range cov.Backtests {
		if b.Symbol == "BTC-USD" && (!b.To.Equal(end) || len(b.Sources) != 2) {
			t.Fatalf("backtests can use %+v: want it to reach %v from both sources", b, end)
		}
	}

	rep := s.backtest(op, `{"strategy_name":"technical_strategy","symbol":"BTC-USD","start_date":"`+start.AddDate(0, 0, 10).Format(time.DateOnly)+
		`","end_date":"`+end.Truncate(24*time.Hour).Format(time.DateOnly)+`","initial_capital":"10000"}`)
	var out struct {
		Status      string
		Assumptions struct {
			Data struct {
				Source  string
				Candles int
			}
		}
	}
	s.into(rep, &out)
	if out.Status != "completed" || out.Assumptions.Data.Source != "coinbase" || out.Assumptions.Data.Candles < 24*70 {
		t.Fatalf("backtest on the backfilled range: %+v", out)
	}

	// Finished: a cancel is a conflict.
	if r := s.do("POST", "/api/market-data/backfills/"+q.ID+"/cancel", op, ""); r.Status != 409 {
		t.Fatalf("cancelling a finished backfill: %+v", r)
	}
}

// A backfill left running by a stopped server carries on from its stored
// cursor when the next one starts: only the pages after it are fetched.
func TestBackfillResumesAfterARestart(t *testing.T) {
	fake, srv, _, _ := fakeCoinbase(t)
	end := time.Now().UTC().Truncate(time.Hour)
	start := end.AddDate(0, 0, -90)
	var cs []domain.Candle
	for at := start; at.Before(end); at = at.Add(15 * time.Minute) {
		p := decimal.NewFromInt(60000)
		cs = append(cs, domain.Candle{Time: at, Open: p, High: p, Low: p, Close: p, Volume: decimal.NewFromInt(1)})
	}
	fake.SetCandles("BTC-USD", cs)

	dir := t.TempDir()
	st, err := sqlite.Open(context.Background(), filepath.Join(dir, "kestrel.db"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	params := `{"symbol":"BTC-USD","granularity":"ONE_HOUR","start":"` + start.Format(time.RFC3339) + `","end":"` + end.Format(time.RFC3339) + `"}`
	if err := st.CreateJob(ctx, domain.Job{ID: "interrupted", Kind: "backfill", Owner: "u1", Params: json.RawMessage(params), CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if ok, err := st.ClaimJob(ctx, "interrupted", time.Now()); !ok || err != nil {
		t.Fatal(ok, err)
	}
	// Two pages were stored before the stop.
	cursor := start.Add(700 * time.Hour)
	if err := st.PutValue(ctx, "marketdata.backfill.interrupted", `{"cursor":"`+cursor.Format(time.RFC3339)+`","requests":2,"fetched":700,"written":700}`); err != nil {
		t.Fatal(err)
	}
	st.Close()

	s := startWith(t, dir, func(c *app.Config) { c.CoinbaseAPIURL = srv.URL })
	op, _ := s.accounts()
	var j backfillJob
	waitUntil(t, "the resumed backfill to finish", func() bool {
		s.into(s.do("GET", "/api/market-data/backfills/interrupted", op, ""), &j)
		return domain.JobDone(j.Status)
	})
	if j.Status != "completed" || j.Requests != 7 || j.Written != 2160 || j.Progress != 1 {
		t.Fatalf("resumed backfill %+v", j)
	}
	n := 0
	for _, r := range fake.RequestLog() {
		if strings.HasSuffix(r.Route, "/candles") {
			n++
		}
	}
	if n != 5 {
		t.Fatalf("%d candle requests after the restart, want the 5 pages after the cursor", n)
	}
	var cov struct {
		Coverage []struct {
			Granularity, Source string
			From                time.Time
			Candles             int
		}
	}
	s.into(s.do("GET", "/api/market-data/coverage", op, ""), &cov)
	for _, c := range cov.Coverage {
		if c.Granularity == "ONE_HOUR" && (c.Source != "coinbase" || !c.From.Equal(cursor) || c.Candles != 2160-700) {
			t.Fatalf("hourly coverage %+v: want what came after the cursor", c)
		}
	}
}
