package coinbase

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/coder/websocket"
)

// StreamConfig configures a WebSocket feed.
type StreamConfig struct {
	URL string
	Key Key
	// Stale is how long the feed may stay silent (heartbeats arrive every
	// second) before the connection is taken for dead and replaced.
	Stale time.Duration
	// Backoff is the first reconnect's base wait; it doubles to a minute.
	Backoff time.Duration
	// OnState hears when the feed is up (subscribed and caught up: true)
	// and when it drops (false).
	OnState func(connected bool)
}

func (c *StreamConfig) defaults() {
	if c.Stale <= 0 {
		c.Stale = 30 * time.Second
	}
	if c.Backoff <= 0 {
		c.Backoff = time.Second
	}
	if c.OnState == nil {
		c.OnState = func(bool) {}
	}
}

// subscribe sends one subscribe message per channel (Coinbase takes one
// channel per message), each with a fresh JWT.
func subscribe(ctx context.Context, conn *websocket.Conn, key Key, channel string, products []string) error {
	msg := WSSubscribe{Type: "subscribe", Channel: channel, ProductIDs: products}
	if !key.IsZero() {
		jwt, err := key.Sign(time.Now(), "")
		if err != nil {
			return err
		}
		msg.JWT = jwt
	}
	b, _ := json.Marshal(msg)
	return conn.Write(ctx, websocket.MessageText, b)
}

// reconnect runs session until ctx ends, redialling with backoff and jitter
// after each drop; a session that lasted resets the backoff.
func reconnect(ctx context.Context, cfg StreamConfig, name string, session func(ctx context.Context, conn *websocket.Conn) error) {
	wait := cfg.Backoff
	for ctx.Err() == nil {
		started := time.Now()
		dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		conn, _, err := websocket.Dial(dctx, cfg.URL, nil)
		cancel()
		if err == nil {
			conn.SetReadLimit(4 << 20)
			err = session(ctx, conn)
			_ = conn.CloseNow()
			cfg.OnState(false)
		}
		if ctx.Err() != nil {
			return
		}
		if time.Since(started) > time.Minute {
			wait = cfg.Backoff
		}
		slog.Warn("coinbase feed disconnected; reconnecting", "feed", name, "err", err, "retry_in", wait.String(), "component", "exchange")
		t := time.NewTimer(wait/2 + rand.N(wait/2+1))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		wait = min(wait*2, time.Minute)
	}
}

// read returns the next message, or an error when none comes within stale.
func read(ctx context.Context, conn *websocket.Conn, stale time.Duration) (WSMessage, error) {
	rctx, cancel := context.WithTimeout(ctx, stale)
	defer cancel()
	_, raw, err := conn.Read(rctx)
	if err != nil {
		if errors.Is(rctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
			return WSMessage{}, errors.New("no message within the staleness threshold")
		}
		return WSMessage{}, err
	}
	var m WSMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return WSMessage{}, err
	}
	return m, nil
}

// sequence follows a connection's sequence_num, which Coinbase numbers one
// up per message: one more than a number ahead means messages were lost (a
// gap); one not above the highest seen arrived out of order and, as
// Coinbase documents, can be ignored.
type sequence struct {
	last    int64
	started bool
}

type seqState int

const (
	seqNext seqState = iota // the expected next message (or the first)
	seqGap                  // messages were skipped: lost
	seqLate                 // at or below the highest seen: out of order or repeated
)

// next judges n and, unless it is late, makes it the highest seen.
func (s *sequence) next(n int64) seqState {
	switch {
	case !s.started:
		s.started, s.last = true, n
		return seqNext
	case n <= s.last:
		return seqLate
	case n == s.last+1:
		s.last = n
		return seqNext
	}
	s.last = n
	return seqGap
}

// RunUserStream follows the user channel until ctx ends: each order event
// is read back by REST (so its fills come with it), and on every connect
// and every gap in sequence numbers the adapter resyncs (open orders and
// fills since the last seen), so nothing missed while away is lost; a
// message arriving after a later one is ignored, not taken for a gap.
func (x *Exchange) RunUserStream(ctx context.Context, cfg StreamConfig) {
	cfg.defaults()
	reconnect(ctx, cfg, "user", func(ctx context.Context, conn *websocket.Conn) error {
		for _, ch := range []string{"heartbeats", "user"} {
			if err := subscribe(ctx, conn, cfg.Key, ch, x.opt.Symbols); err != nil {
				return err
			}
		}
		if err := x.Sync(ctx); err != nil {
			slog.Warn("coinbase resync after connect failed", "err", err, "component", "exchange")
		}
		cfg.OnState(true)
		var seq sequence
		for {
			m, err := read(ctx, conn, cfg.Stale)
			if err != nil {
				return err
			}
			prev := seq.last
			switch seq.next(m.SequenceNum) {
			case seqLate:
				continue // arrived out of order: its change was read back with a later message or the resync
			case seqGap:
				slog.Warn("coinbase user channel gap; resyncing", "expected", prev+1, "got", m.SequenceNum, "component", "exchange")
				if err := x.Sync(ctx); err != nil {
					return err
				}
			}
			if m.Channel != "user" {
				continue
			}
			for _, raw := range m.Events {
				var ev WSUserEvent
				if json.Unmarshal(raw, &ev) != nil {
					continue
				}
				for _, o := range ev.Orders {
					if _, err := x.refresh(ctx, o.OrderID); err != nil {
						slog.Warn("coinbase order refresh failed; the next resync retries", "order_id", o.OrderID, "err", err, "component", "exchange")
					}
				}
			}
		}
	})
}
