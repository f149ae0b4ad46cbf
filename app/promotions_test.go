package app_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/app"
	"kestrel/domain"
)

// gateSeen is a promotion gate as a refusal lists it.
type gateSeen struct {
	Name     string   `json:"name"`
	Setting  string   `json:"setting"`
	Required float64  `json:"required"`
	Seen     *float64 `json:"seen"`
	Passed   bool     `json:"passed"`
}

type stageSeen struct {
	ID           string `json:"id"`
	Version      int    `json:"version"`
	Stage        string `json:"stage"`
	Status       string `json:"status"`
	Account      string `json:"account"`
	Market       string `json:"market"`
	EndedBy      string `json:"ended_by"`
	PaperAccount *struct {
		Balances []struct {
			Currency  string `json:"currency"`
			Available string `json:"available"`
		} `json:"balances"`
		Fills        int `json:"fills"`
		OrdersFilled int `json:"orders_filled"`
		OpenOrders   int `json:"open_orders"`
	} `json:"paper_account"`
}

// A version promoted to paper trades on the replay in a paper account of
// its own: its fills and evaluations are its own and the main account is
// untouched. Gates are checked on the server (409 with each gate and the
// figure seen), the live stage needs an operator and its gates, and
// demoting stops the stage.
func TestPromotedVersionTradesInItsOwnPaperAccount(t *testing.T) {
	// 600 market seconds per wall second: a 15-minute candle closes every 1.5 s.
	s := startWith(t, t.TempDir(), func(c *app.Config) { c.ReplaySpeed = 600 })
	op, trader := s.accounts()
	const base = "/api/strategy/promotions/technical_strategy"

	// With the default gates and no walk-forward sweep: refused, each gate named.
	r := s.do("POST", base, op, `{"version":1}`)
	if r.Status != 409 || len(r.Error.Gates) != 2 || r.Error.Fields["trading.promotion.paper.minOOSTrades"] == "" || r.Error.Gates[0].Seen != nil {
		t.Fatalf("promote without a sweep: %+v, want 409 with both paper gates failed and nothing seen", r)
	}
	// Bad input is a field error or a 404, never a 500.
	for body, want := range map[string]int{`{"version":0}`: 400, `{"version":"x"}`: 400, `{"version":99}`: 404, `{"versio":1}`: 400} {
		if r := s.do("POST", base, op, body); r.Status != want {
			t.Errorf("%s: %d %+v, want %d", body, r.Status, r.Error, want)
		}
	}
	if r := s.do("POST", "/api/strategy/promotions/nope", op, `{"version":1}`); r.Status != 404 {
		t.Errorf("unknown strategy: %+v", r)
	}

	// Gates off for paper; a version that trades soon on the replay.
	if r := s.do("PUT", "/api/settings", op, `{"trading":{"promotion":{"paper":{"requireWalkForward":false}}}}`); r.Status != 200 {
		t.Fatalf("settings: %+v", r)
	}
	if r := s.do("POST", "/api/strategy/versions/technical_strategy", op, `{"params":{"symbols":["BTC-USD","ETH-USD","SOL-USD"],"timeframe":"FIFTEEN_MINUTE",
		"indicators":{"sma_short":10,"sma_long":20,"rsi_oversold":40,"rsi_overbought":60}},"note":"trades soon"}`); r.Status != 201 {
		t.Fatalf("save version: %+v", r)
	}
	// Strategy actions are operators' (issue 33, item 9): a trader's promote is refused.
	if r := s.do("POST", base, trader, `{"version":2}`); r.Status != 403 {
		t.Fatalf("trader promotes to paper: %+v, want 403", r)
	}
	r = s.do("POST", base, op, `{"version":2}`)
	var paper stageSeen
	s.into(r, &paper)
	if r.Status != 201 || paper.Stage != "paper" || paper.Status != "running" || !strings.HasPrefix(paper.Account, "promotion-") || paper.Market != "replay" {
		t.Fatalf("promote to paper: %+v %+v", r, paper)
	}
	if r := s.do("POST", base, op, `{"version":2}`); r.Status != 409 {
		t.Errorf("a second paper stage of the same version: %+v, want 409", r)
	}

	// It trades in its own account.
	var stage stageSeen
	for end := time.Now().Add(90 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		var l struct{ Stages []stageSeen }
		s.into(s.do("GET", base, trader, ""), &l)
		if len(l.Stages) != 1 {
			t.Fatalf("stages %+v", l)
		}
		if stage = l.Stages[0]; stage.PaperAccount != nil && stage.PaperAccount.Fills > 0 {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("the paper stage never filled: %+v", stage.PaperAccount)
		}
	}
	ctx := context.Background()
	ledger := s.app.Store.LedgerFor(paper.Account)
	fills, err := ledger.LedgerFills(ctx, domain.FillFilter{})
	if err != nil || len(fills) == 0 {
		t.Fatalf("paper account fills %v, %v", fills, err)
	}
	o, err := ledger.LedgerOrder(ctx, fills[0].OrderID)
	if err != nil || o.Strategy != "technical_strategy" || o.StrategyVersion != 2 {
		t.Fatalf("the paper stage's order %+v, %v; want technical_strategy version 2", o, err)
	}
	t.Logf("paper account: %s %s %s @ %s", fills[0].Side, fills[0].Quantity, fills[0].Symbol, fills[0].Price)
	// The main account is untouched: no order, its cash as funded.
	if main, err := s.app.Store.LedgerOrders(ctx, domain.OrderFilter{}); err != nil || len(main) != 0 {
		t.Fatalf("main account orders %+v, %v", main, err)
	}
	bals, err := s.app.Store.LedgerBalances(ctx)
	if err != nil || len(bals) != 1 || bals[0].Currency != "USD" || bals[0].Available.String() != "100000" {
		t.Fatalf("main account balances %+v, %v", bals, err)
	}
	// Its evaluations are in its account, not the main instance's signals.
	evs, err := s.app.Store.Evaluations(ctx, domain.EvaluationFilter{Account: paper.Account, Strategy: "technical_strategy"})
	if err != nil || len(evs) == 0 || evs[0].StrategyVersion != 2 {
		t.Fatalf("paper evaluations %d, %v", len(evs), err)
	}
	if r := s.do("GET", "/api/strategy/signals/technical_strategy", op, ""); strings.Contains(string(r.Data), paper.Account) || strings.Contains(string(r.Data), `"strategy_version":2`) {
		t.Fatalf("the main instance's signals show the paper stage's: %s", r.Data)
	}

	// The drift report: a backtest of version 2 over the candles the stage
	// evaluated, joined decision by decision; the stage's first fill is on
	// the row of the candle whose evaluation placed it.
	var drift struct {
		Market   string     `json:"market"`
		From     *time.Time `json:"from"`
		DataFrom *time.Time `json:"data_from"`
		Symbols  []struct {
			Symbol, Error    string
			Compared, Agreed int
			OnlyPaper        int `json:"only_paper"`
			Rows             []struct {
				Paper *struct {
					OrderID string `json:"order_id"`
				} `json:"paper"`
				PaperFill *struct{ Price string } `json:"paper_fill"`
			}
			Paper struct{ Fills int }
		}
		Notes []string
	}
	r = s.do("GET", base+"/"+paper.ID+"/drift", trader, "")
	s.into(r, &drift)
	if r.Status != 200 || drift.Market != "replay" || drift.From == nil || drift.DataFrom == nil || drift.From.Sub(*drift.DataFrom)%(24*time.Hour) != 0 ||
		len(drift.Symbols) != 3 || len(drift.Notes) == 0 {
		t.Fatalf("drift: %d %+v", r.Status, drift)
	}
	joined, compared, agreed := false, 0, 0
	for _, sd := range drift.Symbols {
		if sd.Error != "" {
			t.Errorf("%s: %s", sd.Symbol, sd.Error)
		}
		compared, agreed = compared+sd.Compared, agreed+sd.Agreed
		for _, row := range sd.Rows {
			if row.Paper != nil && row.Paper.OrderID == o.ID && row.PaperFill != nil && row.PaperFill.Price != "" {
				joined = true
			}
		}
	}
	if !joined || compared == 0 {
		t.Fatalf("drift rows: the stage's first fill (order %s) is on no row, or nothing compared (%d)", o.ID, compared)
	}
	t.Logf("drift: %d of %d candles decided alike; notes %q", agreed, compared, drift.Notes)
	if r := s.do("GET", base+"/nope/drift", trader, ""); r.Status != 404 {
		t.Errorf("drift of no stage: %+v", r)
	}

	// Live: an operator's approval, and its gates (14 days on paper by default).
	approve := base + "/" + paper.ID + "/approve"
	if r := s.do("POST", approve, trader, ""); r.Status != 403 {
		t.Errorf("trader approves: %+v", r)
	}
	r = s.do("POST", approve, op, "")
	if r.Status != 409 || r.Error.Fields["trading.promotion.live.minPaperDays"] == "" || len(r.Error.Gates) != 2 || r.Error.Gates[0].Seen == nil || *r.Error.Gates[0].Seen != 0 {
		t.Fatalf("approve after minutes on paper: %+v, want 409 with 0 days seen", r)
	}

	// With the live gates met, the operator's approval runs the version on
	// the main instance; the paper stage is closed as promoted.
	if r := s.do("PUT", "/api/settings", op, `{"trading":{"promotion":{"live":{"minPaperDays":0,"minPaperTrades":1}}}}`); r.Status != 200 {
		t.Fatalf("settings: %+v", r)
	}
	r = s.do("POST", approve, op, "")
	var live stageSeen
	s.into(r, &live)
	if r.Status != 201 || live.Stage != "live" || live.Status != "running" || live.Version != 2 {
		t.Fatalf("approve: %+v %+v", r, live)
	}
	if c, err := s.app.Strategies.Get("technical_strategy"); err != nil || c.Version != 2 || !c.Enabled {
		t.Fatalf("main instance after approval: version %d enabled %v, %v", c.Version, c.Enabled, err)
	}
	if rest, err := ledger.LedgerLiveOrders(ctx); err != nil || len(rest) != 0 {
		t.Errorf("the promoted paper stage's resting orders: %+v, %v", rest, err)
	}
	if r := s.do("POST", approve, op, ""); r.Status != 409 {
		t.Errorf("approve a closed stage: %+v", r)
	}
	// The ended paper stage's positions stay until someone closes them: an
	// explicit action, in its own account.
	held := func() (n int) {
		ps, err := ledger.LedgerPositions(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			if p.Quantity.IsPositive() {
				n++
			}
		}
		return n
	}
	n := held() // its own SELL signals may have closed some already
	var closed struct {
		Orders []struct{ Side, Status string }
		Count  int
	}
	if r := s.do("POST", base+"/"+paper.ID+"/close-positions", trader, ""); r.Status != 403 || held() != n {
		t.Fatalf("trader closes the stage's positions: %+v, want 403 and nothing sold", r)
	}
	r = s.do("POST", base+"/"+paper.ID+"/close-positions", op, "")
	s.into(r, &closed)
	if r.Status != 200 || closed.Count != n || held() != 0 {
		t.Fatalf("close positions: %+v %+v; held %d before, %d after", r, closed, n, held())
	}
	for _, o := range closed.Orders {
		if o.Side != "SELL" || o.Status != "filled" {
			t.Errorf("closing order %+v, want a filled SELL", o)
		}
	}
	t.Logf("closed %d position(s) of the ended paper stage", n)
	if main, _ := s.app.Store.LedgerOrders(ctx, domain.OrderFilter{}); len(main) != 0 {
		t.Fatalf("closing the stage's positions placed orders in the main account: %+v", main)
	}

	// One click demotes (operators only); a live stage's demotion disables the instance.
	demoteLive := base + "/" + live.ID + "/demote"
	if r := s.do("POST", demoteLive, trader, ""); r.Status != 403 {
		t.Errorf("trader demotes live: %+v", r)
	}
	if r := s.do("POST", demoteLive, op, `{"reason":"drifts"}`); r.Status != 200 {
		t.Fatalf("demote live: %+v", r)
	}
	if c, _ := s.app.Strategies.Get("technical_strategy"); c.Enabled {
		t.Errorf("the main instance still runs after its live stage was demoted")
	}
	if r := s.do("POST", demoteLive, op, ""); r.Status != 409 {
		t.Errorf("demote twice: %+v", r)
	}
	var l struct{ Stages []stageSeen }
	s.into(s.do("GET", base, trader, ""), &l)
	if len(l.Stages) != 2 || l.Stages[0].Status != "demoted" || l.Stages[1].Status != "promoted" {
		t.Errorf("stages %+v", l.Stages)
	}

	// A paper stage: a trader cannot demote it, an operator can.
	r = s.do("POST", base, op, `{"version":1}`)
	var p1 stageSeen
	s.into(r, &p1)
	if r := s.do("POST", base+"/"+p1.ID+"/close-positions", op, ""); r.Status != 409 {
		t.Errorf("close the positions of a running stage: %+v, want 409 (demote it first)", r)
	}
	if r := s.do("POST", base+"/"+p1.ID+"/demote", trader, `{"reason":"enough"}`); r.Status != 403 {
		t.Fatalf("trader demotes a paper stage: %+v, want 403", r)
	}
	r = s.do("POST", base+"/"+p1.ID+"/demote", op, `{"reason":"enough"}`)
	var demoted stageSeen
	s.into(r, &demoted)
	if r.Status != 200 || demoted.Status != "demoted" || demoted.EndedBy != "op@example.com" {
		t.Fatalf("demote paper: %+v %+v", r, demoted)
	}
	audit := s.do("GET", "/api/audit?limit=50", op, "")
	for _, want := range []string{"promoted version 2 of strategy technical_strategy to paper", "approved version 2 of strategy technical_strategy for live",
		"demoted the live stage of version 2", "demoted the paper stage of version 1", "closed the positions of the paper stage of version 2"} {
		if !strings.Contains(string(audit.Data), want) {
			t.Errorf("audit lacks %q", want)
		}
	}
}

// A running paper stage is rebuilt on start: after a restart its engine
// evaluates again in its own account.
func TestPaperStageResumesAfterRestart(t *testing.T) {
	dir := t.TempDir()
	fast := func(c *app.Config) { c.ReplaySpeed = 600 }
	s := startWith(t, dir, fast)
	op, _ := s.accounts()
	if r := s.do("PUT", "/api/settings", op, `{"trading":{"promotion":{"paper":{"requireWalkForward":false},"paperStartingUSD":"2500"}}}`); r.Status != 200 {
		t.Fatalf("settings: %+v", r)
	}
	r := s.do("POST", "/api/strategy/promotions/technical_strategy", op, `{"version":1}`)
	var p stageSeen
	s.into(r, &p)
	if r.Status != 201 {
		t.Fatalf("promote: %+v", r)
	}
	ctx := context.Background()
	evals := func(a *app.App) int {
		evs, err := a.Store.Evaluations(ctx, domain.EvaluationFilter{Account: p.Account, Limit: 10_000})
		if err != nil {
			t.Fatal(err)
		}
		return len(evs)
	}
	waitUntil(t, "the paper stage's first evaluation", func() bool { return evals(s.app) > 0 })
	before := evals(s.app)
	s.app.Close()

	s2 := startWith(t, dir, fast)
	waitUntil(t, "an evaluation after the restart", func() bool { return evals(s2.app) > before })
	var l struct{ Stages []stageSeen }
	s2.into(s2.do("GET", "/api/strategy/promotions/technical_strategy", op2(s2), ""), &l)
	if len(l.Stages) != 1 || l.Stages[0].Status != "running" || l.Stages[0].PaperAccount == nil {
		t.Fatalf("stages after restart %+v", l.Stages)
	}
}

func op2(s *server) string { return s.login("op@example.com", "operator-pass") }

// On the live market when configured: with the paper venue on Coinbase's
// (fake) live prices, a promoted version's paper stage trades at
// Coinbase's price in its own paper account; nothing reaches Coinbase and
// the main account has no order; its drift report says which market.
func TestPaperStageTradesOnTheLiveMarket(t *testing.T) {
	fake, srv, _, _ := fakeCoinbase(t)
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"
	base := time.Now().UTC().Truncate(time.Minute).Add(-time.Hour)
	var cs []domain.Candle
	for m := -60; m <= 10; m++ {
		p := decimal.NewFromInt(50000)
		cs = append(cs, domain.Candle{Time: base.Add(time.Duration(m) * time.Minute), Open: p, High: p, Low: p, Close: p, Volume: decimal.NewFromInt(1)})
	}
	fake.SetCandles("BTC-USD", cs)
	clock := &marketClock{}
	fake.SetMarketClock(clock.now)
	prices := func() {
		clock.set(base.Add(5 * time.Second))
		for sym, p := range map[string]string{"BTC-USD": "50000", "ETH-USD": "3000", "SOL-USD": "150", "ADA-USD": "0.45"} {
			fake.SetPrice(sym, p)
		}
	}
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"model":"fake-model","choices":[{"message":{"role":"assistant","content":"{\"decision\":\"BUY\",\"confidence\":0.9,\"reasoning\":\"always\"}"}}]}`))
	}))
	defer model.Close()
	s := startWith(t, t.TempDir(), func(c *app.Config) {
		c.CoinbaseAPIURL, c.CoinbaseWSURL, c.CoinbaseUserWSURL = srv.URL, wsURL, wsURL
	})
	op, _ := s.accounts()
	for _, body := range []string{
		`{"api":{"ai":{"provider":"openai","baseUrl":"` + model.URL + `","model":"fake-model","timeout":10000}}}`,
		`{"api":{"marketData":{"source":"coinbase"}}}`,
		`{"trading":{"promotion":{"paper":{"requireWalkForward":false}}}}`,
	} {
		if r := s.do("PUT", "/api/settings", op, body); r.Status != 200 {
			t.Fatalf("settings %s: %+v", body, r)
		}
	}
	waitUntil(t, "the public Coinbase market feed", func() bool { return fake.Subscribers("ticker") == 1 })
	done := make(chan struct{})
	feeding := sync.WaitGroup{}
	feeding.Add(1)
	go func() {
		defer feeding.Done()
		for {
			prices()
			select {
			case <-done:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	defer func() { close(done); feeding.Wait() }()
	r := s.do("POST", "/api/strategy/versions/ai_strategy", op, `{"params":{"symbols":["BTC-USD"],"timeframe":"ONE_MINUTE","context_length":10,"min_confidence":0.6,"max_position_size":0.05}}`)
	var saved struct{ Version struct{ Version int } }
	s.into(r, &saved)
	r = s.do("POST", "/api/strategy/promotions/ai_strategy", op, fmt.Sprintf(`{"version":%d}`, saved.Version.Version))
	var p stageSeen
	s.into(r, &p)
	if r.Status != 201 {
		t.Fatalf("promote: %+v", r)
	}
	ctx := context.Background()
	var fills []domain.Fill
	waitUntil(t, "the paper stage's fill on the live market", func() bool {
		var err error
		fills, err = s.app.Store.LedgerFor(p.Account).LedgerFills(ctx, domain.FillFilter{})
		return err == nil && len(fills) > 0
	})
	if f := fills[len(fills)-1]; f.Side != domain.Buy || f.Symbol != "BTC-USD" || !f.Price.Equal(decimal.NewFromInt(50000)) {
		t.Fatalf("paper stage fill %+v, want a BUY of BTC-USD at Coinbase's 50000", f)
	}
	if n := fake.OrderCount(); n != 0 {
		t.Fatalf("%d orders reached Coinbase", n)
	}
	if main, err := s.app.Store.LedgerOrders(ctx, domain.OrderFilter{}); err != nil || len(main) != 0 {
		t.Fatalf("main account orders %+v, %v", main, err)
	}
	var drift struct{ Market string }
	if r := s.do("GET", "/api/strategy/promotions/ai_strategy/"+p.ID+"/drift", op, ""); r.Status != 200 {
		t.Fatalf("drift: %+v", r)
	} else if s.into(r, &drift); drift.Market != "coinbase" {
		t.Fatalf("drift market %q, want coinbase", drift.Market)
	}
}

// The Stop button stops paper stages too: while the emergency stop is on,
// a stage's signals are not traded, each saying why.
func TestEmergencyStopHaltsPaperStages(t *testing.T) {
	s := startWith(t, t.TempDir(), func(c *app.Config) { c.ReplaySpeed = 600 })
	op, _ := s.accounts()
	if r := s.do("PUT", "/api/settings", op, `{"trading":{"promotion":{"paper":{"requireWalkForward":false}}}}`); r.Status != 200 {
		t.Fatalf("settings: %+v", r)
	}
	if r := s.do("POST", "/api/strategy/versions/technical_strategy", op, `{"params":{"symbols":["BTC-USD","ETH-USD","SOL-USD"],"timeframe":"FIFTEEN_MINUTE",
		"indicators":{"sma_short":10,"sma_long":20,"rsi_oversold":40,"rsi_overbought":60}}}`); r.Status != 201 {
		t.Fatalf("save version: %+v", r)
	}
	if r := s.do("POST", "/api/trading/stop", op, ""); r.Status != 200 {
		t.Fatalf("stop: %+v", r)
	}
	r := s.do("POST", "/api/strategy/promotions/technical_strategy", op, `{"version":2}`)
	var p stageSeen
	s.into(r, &p)
	if r.Status != 201 {
		t.Fatalf("promote: %+v", r)
	}
	ctx := context.Background()
	halted := func() bool {
		evs, err := s.app.Store.Evaluations(ctx, domain.EvaluationFilter{Account: p.Account, Limit: 10_000})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			if e.Reason == "Trading is halted (emergency stop)" {
				return true
			}
		}
		return false
	}
	waitUntil(t, "a paper stage signal refused by the emergency stop", halted)
	if fills, _ := s.app.Store.LedgerFor(p.Account).LedgerFills(ctx, domain.FillFilter{}); len(fills) != 0 {
		t.Fatalf("the paper stage traded while stopped: %+v", fills)
	}
}
