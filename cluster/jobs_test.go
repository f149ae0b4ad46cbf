package cluster_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestBacktestJobsRunOnTheLeader: a backtest queued on a follower runs on
// the leader (only the leader runs jobs), and its updates reach the
// follower's WebSocket jobs channel.
func TestBacktestJobsRunOnTheLeader(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two servers")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	dbURL := freshDatabase(t)
	natsURL := natsOrSkip(t)
	bin := buildKestrel(t, ctx)
	t.Setenv("KESTREL_TEST_LOG_LEVEL", "INFO") // the runner logs each job's end at INFO

	suffix := randHex(4)
	all := []*instance{start(t, bin, dbURL, natsURL, "kestreljobs"+suffix, "j1-"+suffix), start(t, bin, dbURL, natsURL, "kestreljobs"+suffix, "j2-"+suffix)}
	for _, in := range all {
		waitReady(t, ctx, in)
	}
	token := register(t, ctx, all[0].url)
	var leader string
	waitFor(t, ctx, 15*time.Second, "both instances to agree on a leader", func() bool {
		a, okA := clusterOf(ctx, all[0].url, token)
		b, okB := clusterOf(ctx, all[1].url, token)
		leader = a.Leader
		return okA && okB && a.Leader != "" && a.Leader == b.Leader
	})
	lead, follower := all[0], all[1]
	if lead.id != leader {
		lead, follower = follower, lead
	}

	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(follower.url, "http")+"/api/ws", &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + token}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"action":"subscribe","channels":["jobs"]}`)); err != nil {
		t.Fatal(err)
	}

	var q struct{ ID, Status string }
	ask := `{"strategy_name":"technical_strategy","symbol":"BTC-USD","start_date":"2026-01-01","end_date":"2026-02-01","initial_capital":10000}`
	if s := call(ctx, "POST", follower.url+"/api/backtests", token, ask, &q); s != http.StatusAccepted || q.ID == "" {
		t.Fatalf("queue on the follower: status %d, %+v", s, q)
	}
	// The follower's WebSocket hears the job complete (from the leader, over NATS).
	for {
		_, raw, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("jobs channel of the follower: %v", err)
		}
		var m struct {
			Type string `json:"type"`
			Data struct{ ID, Status, Error string }
		}
		if json.Unmarshal(raw, &m) != nil || m.Type != "job_update" || m.Data.ID != q.ID {
			continue
		}
		if m.Data.Status == "failed" || m.Data.Status == "cancelled" {
			t.Fatalf("the job ended %s: %s", m.Data.Status, m.Data.Error)
		}
		if m.Data.Status == "completed" {
			break
		}
	}
	var got struct {
		Status string          `json:"status"`
		Report json.RawMessage `json:"report"`
	}
	if s := call(ctx, "GET", follower.url+"/api/backtests/"+q.ID, token, "", &got); s != http.StatusOK || got.Status != "completed" || len(got.Report) == 0 {
		t.Fatalf("the job read on the follower: %d %+v", s, got)
	}

	// Stopped (so their logs are complete): the leader ran it, the follower did not.
	for _, in := range all {
		_ = in.cmd.Process.Signal(syscall.SIGTERM)
		_ = in.cmd.Wait()
	}
	ended := fmt.Sprintf("job ended\" job=%s", q.ID)
	if !strings.Contains(lead.log.String(), ended) || strings.Contains(follower.log.String(), ended) {
		t.Fatalf("the job did not run on the leader only (leader ran it: %v, follower ran it: %v)",
			strings.Contains(lead.log.String(), ended), strings.Contains(follower.log.String(), ended))
	}
}
