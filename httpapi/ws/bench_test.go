package ws

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"
	"time"
)

type stamped struct {
	Symbol string `json:"symbol"`
	Sent   int64  `json:"sent"` // unix nanoseconds at broadcast
}

func (s stamped) SymbolName() string { return s.Symbol }

// BenchmarkFanOut1000: one tick broadcast to 1,000 subscribed clients over
// loopback WebSockets. Reports frames delivered per second and the p99 time
// from broadcast to a client having read the frame. Queues are sized so no
// client is dropped: this measures delivery capacity.
func BenchmarkFanOut1000(b *testing.B) { fanOut(b, 0) }

// BenchmarkFanOut1000Paced: the same with a tick every 20 ms (50,000 frames/s,
// about half the burst capacity): the delivery latency clients see in steady state.
func BenchmarkFanOut1000Paced(b *testing.B) { fanOut(b, 20*time.Millisecond) }

func fanOut(b *testing.B, every time.Duration) {
	const clients = 1000
	h := NewHub(max(256, b.N+16), []string{"BTC-USD"})
	h.SetLimits(Limits{}) // one test user holds all 1,000 connections: no cap
	url := newServer(b, h) + "?ticket=good"
	lat := make([][]time.Duration, clients)
	var ready, done sync.WaitGroup
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for i := 0; i < clients; i++ {
		c := dial(b, url)
		send(b, c, `{"action":"subscribe","channels":["ticker"],"symbols":["BTC-USD"]}`)
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			ready.Done()
			for k := 0; k < b.N; k++ {
				_, raw, err := c.Read(ctx)
				if err != nil {
					b.Error(err)
					return
				}
				var m struct{ Data stamped }
				if err := json.Unmarshal(raw, &m); err != nil {
					b.Error(err)
					return
				}
				lat[i] = append(lat[i], time.Duration(time.Now().UnixNano()-m.Data.Sent))
			}
		}()
	}
	ready.Wait()
	b.ResetTimer()
	start := time.Now()
	for k := 0; k < b.N; k++ {
		if every > 0 && k > 0 {
			time.Sleep(time.Until(start.Add(time.Duration(k) * every)))
		}
		now := time.Now()
		h.Broadcast(ChannelTicker, "market_data", "BTC-USD", stamped{Symbol: "BTC-USD", Sent: now.UnixNano()}, now)
	}
	done.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	if len(all) == 0 {
		b.Fatal("nothing delivered")
	}
	slices.Sort(all)
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "frames/s")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-ms")
	if h.Stats().SlowDisconnect > 0 {
		b.Fatalf("%d clients were dropped", h.Stats().SlowDisconnect)
	}
}
