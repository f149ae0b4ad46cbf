package cluster_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkClusterOrders measures resting limit orders per second through
// HTTP with 8 concurrent clients spread over 1, 2 and 3 instances (each
// sub-benchmark on a fresh database). Followers forward every order to the
// leader over NATS. Run with a fixed count, e.g.:
//
//	KESTREL_CLUSTER_BENCH=1 go test -run '^$' -bench ClusterOrders -benchtime 600x ./cluster/
//
// (the day's trade limit, at most 1000 in settings, bounds the count). It
// starts servers for each run, so `make bench` leaves it out unless asked.
func BenchmarkClusterOrders(b *testing.B) {
	if os.Getenv("KESTREL_CLUSTER_BENCH") != "1" {
		b.Skip("set KESTREL_CLUSTER_BENCH=1 to start the instances this benchmark measures")
	}
	// instances=0 is one process on PostgreSQL without NATS: the baseline.
	for n := 0; n <= 3; n++ {
		b.Run(fmt.Sprintf("instances=%d", n), func(b *testing.B) { benchOrders(b, n) })
	}
}

func benchOrders(b *testing.B, n int) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dbURL := freshDatabase(b)
	natsURL := natsOrSkip(b)
	bin := buildKestrel(b, ctx)
	suffix := randHex(4)
	var all []*instance
	if n == 0 {
		all = append(all, start(b, bin, dbURL, "", "", "alone-"+suffix))
	}
	for i := 1; i <= n; i++ {
		all = append(all, start(b, bin, dbURL, natsURL, "kestrelbench"+suffix, fmt.Sprintf("b%d-%s", i, suffix)))
	}
	for _, in := range all {
		waitReady(b, ctx, in)
	}
	token := register(b, ctx, all[0].url)
	waitFor(b, ctx, 15*time.Second, "the instances to elect a leader", func() bool {
		for _, in := range all {
			if v, ok := clusterOf(ctx, in.url, token); n > 0 && (!ok || v.Leader == "" || len(v.Instances) != n) {
				return false
			}
		}
		return true
	})
	// Room for the run: the day's trade limit at its maximum, and the
	// position cap high enough for the resting buys' exposure.
	if s := call(ctx, "PUT", all[0].url+"/api/settings", token,
		`{"trading":{"riskManagement":{"maxDailyTrades":1000,"maxPositionSize":0.5}}}`, nil); s != http.StatusOK {
		b.Fatalf("raise the limits: status %d", s)
	}
	if b.N > 990 {
		b.Fatalf("-benchtime %dx exceeds the day's trade limit; use at most 990x", b.N)
	}
	var next, failed atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	began := time.Now()
	for c := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					return
				}
				in := all[(int(i)+c)%len(all)]
				if _, s := place(ctx, in.url, token, fmt.Sprintf("bench-%s-%d", suffix, i), false); s != http.StatusCreated {
					failed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(began)
	b.StopTimer()
	if f := failed.Load(); f > 0 {
		b.Fatalf("%d of %d orders failed", f, b.N)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "orders/s")
}
