package cluster_test

import (
	"context"
	"fmt"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// On a cluster a paper stage runs on the leader: a version promoted
// through a follower (the request is forwarded) trades in its own paper
// account, and when the leader is killed the new leader rebuilds the stage
// from the database and it evaluates again.
func TestPaperStageFollowsTheLeader(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two servers")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	dbURL := freshDatabase(t)
	natsURL := natsOrSkip(t)
	bin := buildKestrel(t, ctx)
	suffix := randHex(4)
	name := "kestrelpromo" + suffix
	// 600 market seconds per wall second: a 15-minute candle closes every 1.5 s.
	var all []*instance
	for i := 1; i <= 2; i++ {
		all = append(all, start(t, bin, dbURL, natsURL, name, fmt.Sprintf("p%d-%s", i, suffix), "KESTREL_REPLAY_SPEED=600"))
	}
	for _, in := range all {
		waitReady(t, ctx, in)
	}
	token := register(t, ctx, all[0].url)
	var leader string
	waitFor(t, ctx, 15*time.Second, "both instances to agree on a leader", func() bool {
		a, ok1 := clusterOf(ctx, all[0].url, token)
		b, ok2 := clusterOf(ctx, all[1].url, token)
		leader = a.Leader
		return ok1 && ok2 && len(a.Instances) == 2 && a.Leader != "" && a.Leader == b.Leader
	})
	lead, follower := all[0], all[1]
	if lead.id != leader {
		lead, follower = follower, lead
	}

	for _, req := range []struct{ method, path, body string }{
		{"PUT", "/api/settings", `{"trading":{"promotion":{"paper":{"requireWalkForward":false}}}}`},
		{"POST", "/api/strategy/versions/technical_strategy", `{"params":{"symbols":["BTC-USD","ETH-USD","SOL-USD"],"timeframe":"FIFTEEN_MINUTE",
			"indicators":{"sma_short":10,"sma_long":20,"rsi_oversold":40,"rsi_overbought":60}}}`},
	} {
		if s := call(ctx, req.method, follower.url+req.path, token, req.body, nil); s/100 != 2 {
			t.Fatalf("%s %s on the follower: status %d", req.method, req.path, s)
		}
	}
	var p struct {
		ID      string `json:"id"`
		Account string `json:"account"`
	}
	if s := call(ctx, "POST", follower.url+"/api/strategy/promotions/technical_strategy", token, `{"version":2}`, &p); s != http.StatusCreated || p.Account == "" {
		t.Fatalf("promote through the follower: status %d, %+v\n%s", s, p, lead.log)
	}

	db, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(context.Background())
	count := func(q string, args ...any) int {
		var n int
		if err := db.QueryRow(ctx, q, args...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	waitFor(t, ctx, 90*time.Second, "a fill in the paper stage's own account", func() bool {
		return count(`SELECT count(*) FROM sandbox_fills WHERE account = $1`, p.Account) > 0
	})
	if n := count(`SELECT count(*) FROM sandbox_orders WHERE account = ''`); n != 0 {
		t.Fatalf("%d orders in the main account", n)
	}
	before := count(`SELECT count(*) FROM strategy_evaluations WHERE account = $1`, p.Account)

	if err := lead.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = lead.cmd.Wait()
	waitFor(t, ctx, 30*time.Second, "the survivor to lead", func() bool {
		v, ok := clusterOf(ctx, follower.url, token)
		return ok && v.Leader == follower.id
	})
	waitFor(t, ctx, 60*time.Second, "the paper stage to evaluate on the new leader", func() bool {
		return count(`SELECT count(*) FROM strategy_evaluations WHERE account = $1`, p.Account) > before
	})
	var l struct {
		Stages []struct{ Status string } `json:"stages"`
	}
	if s := call(ctx, "GET", follower.url+"/api/strategy/promotions/technical_strategy", token, "", &l); s != http.StatusOK || len(l.Stages) != 1 || l.Stages[0].Status != "running" {
		t.Fatalf("stages after failover: %d %+v", s, l)
	}
}
