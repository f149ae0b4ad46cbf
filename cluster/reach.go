package cluster

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
)

// NATSGrace is how long an instance may go without a round trip to NATS
// before it counts itself cut off: a leader then steps down and hands its
// lease over, and a follower does not try for the lease. Longer than a
// NATS restart's reconnection (about a second), within the 10 s a cut-off
// leader must be replaced in.
const NATSGrace = 3 * time.Second

// Reach tracks whether this instance can reach NATS, by a round trip (a
// flush: PING and PONG) every probe interval. The client's own connection
// state is not enough: across a partition that keeps the TCP connection
// open, the client counts itself connected until its pings time out
// (minutes by default).
type Reach struct {
	nc        *nats.Conn
	every     time.Duration
	grace     time.Duration
	lastReach atomic.Int64 // mono() of the last round trip that came back
}

// NewReach watches nc; grace is how long without a round trip counts as
// cut off (NATSGrace when zero).
func NewReach(nc *nats.Conn, grace time.Duration) *Reach {
	if grace <= 0 {
		grace = NATSGrace
	}
	r := &Reach{nc: nc, every: grace / 6, grace: grace}
	r.lastReach.Store(int64(mono()))
	return r
}

// Run probes until ctx ends.
func (r *Reach) Run(ctx context.Context) {
	for {
		sent := mono()
		if r.nc.FlushTimeout(r.grace/3) == nil {
			r.lastReach.Store(int64(sent))
		}
		if !sleep(ctx, r.every) {
			return
		}
	}
}

// Err is nil while the last round trip to NATS was sent within the grace;
// otherwise it says how long NATS has not answered.
func (r *Reach) Err() error {
	if since := mono() - time.Duration(r.lastReach.Load()); since > r.grace {
		return fmt.Errorf("NATS has not answered for %s", since.Round(100*time.Millisecond))
	}
	return nil
}
