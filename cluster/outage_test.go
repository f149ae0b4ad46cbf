package cluster_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"
)

// TestOutagesRecover takes NATS away from two real instances (its server
// killed, restarted after 5 s), then PostgreSQL (every connection reset
// and new ones refused for 5 s, through a proxy), while a client places
// an order through the follower every 100 ms, each with a client order id
// of its own. After each outage orders must be acknowledged again within
// 10 s (the time is logged: docs/SCALING.md, Failure behaviour); no order
// answered 503 may exist, and every acknowledged order exists once.
func TestOutagesRecover(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two servers")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	dbURL := freshDatabase(t)
	natsURL, restartNATS := privateNATS(t)
	if natsURL == "" {
		natsOrSkip(t)
		t.Skip("no nats-server here to stop and start")
	}
	db := newPausableProxy(t, dbURL)
	bin := buildKestrel(t, ctx)

	suffix := randHex(4)
	name := "kestrelout" + suffix
	var all []*instance
	for i := 1; i <= 2; i++ {
		all = append(all, start(t, bin, db.url, natsURL, name, fmt.Sprintf("o%d-%s", i, suffix)))
	}
	for _, in := range all {
		waitReady(t, ctx, in)
	}
	token := register(t, ctx, all[0].url)
	var leader string
	waitFor(t, ctx, 15*time.Second, "both instances to agree on a leader", func() bool {
		seen := map[string]bool{}
		for _, in := range all {
			v, ok := clusterOf(ctx, in.url, token)
			if !ok || len(v.Instances) != 2 || v.Leader == "" {
				return false
			}
			seen[v.Leader] = true
			leader = v.Leader
		}
		return len(seen) == 1
	})
	follower := all[0]
	if follower.id == leader {
		follower = all[1]
	}
	waitFor(t, ctx, 10*time.Second, "the risk limits to be raised", func() bool {
		return call(ctx, "PUT", follower.url+"/api/settings", token, `{"trading":{"riskManagement":{"maxDailyTrades":1000,"maxPositionSize":0.9}}}`, nil) == http.StatusOK
	})

	type attempt struct {
		cid      string
		status   int
		msg      string
		sent, at time.Time
	}
	var mu sync.Mutex
	var attempts []attempt
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			cid := fmt.Sprintf("out-%s-%d", suffix, i)
			sent := time.Now()
			rctx, cancel := context.WithTimeout(ctx, 15*time.Second)
			var msg string
			_, status := placeOn(rctx, follower.url, token, cid, &msg)
			cancel()
			mu.Lock()
			attempts = append(attempts, attempt{cid, status, msg, sent, time.Now()})
			mu.Unlock()
			time.Sleep(100 * time.Millisecond)
		}
	}()
	// recovered is how long after back the first order sent since then
	// was acknowledged.
	recovered := func(what string, back time.Time) time.Duration {
		var took time.Duration
		waitFor(t, ctx, 15*time.Second, "an order acknowledged after "+what, func() bool {
			mu.Lock()
			defer mu.Unlock()
			for _, a := range attempts {
				if !a.sent.Before(back) && a.status == http.StatusCreated {
					took = a.at.Sub(back)
					return true
				}
			}
			return false
		})
		return took
	}
	time.Sleep(2 * time.Second)

	restartNATS(5 * time.Second) // returns once the server listens again
	natsBack := time.Now()
	afterNATS := recovered("NATS came back", natsBack)
	time.Sleep(2 * time.Second)

	db.setDown(true)
	time.Sleep(5 * time.Second)
	db.setDown(false)
	dbBack := time.Now()
	afterDB := recovered("PostgreSQL came back", dbBack)
	time.Sleep(time.Second)
	close(stop)
	<-done

	t.Logf("orders through %s acknowledged again %s after NATS came back, %s after PostgreSQL came back",
		follower.id, afterNATS.Round(time.Millisecond), afterDB.Round(time.Millisecond))
	for what, took := range map[string]time.Duration{"NATS": afterNATS, "PostgreSQL": afterDB} {
		if took > 10*time.Second {
			t.Errorf("orders acknowledged again %s after %s came back, want at most 10 s", took, what)
		}
	}

	stored := storedClientIDs(t, ctx, dbURL, "out-")
	counts := map[int]int{}
	for _, a := range attempts {
		counts[a.status]++
		switch a.status {
		case http.StatusCreated:
			if stored[a.cid] != 1 {
				t.Errorf("acknowledged order %s is stored %d times", a.cid, stored[a.cid])
			}
		case http.StatusServiceUnavailable:
			if stored[a.cid] != 0 {
				t.Errorf("order %s was answered 503 (%s) but exists", a.cid, a.msg)
			}
		case http.StatusGatewayTimeout, 0: // may or may not have run
		default:
			t.Errorf("order %s: status %d %s", a.cid, a.status, a.msg)
		}
	}
	t.Logf("attempts by status: %v", counts)
	if counts[http.StatusServiceUnavailable] == 0 {
		t.Error("no order was answered 503: the outages were not exercised")
	}
}
