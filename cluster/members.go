package cluster

import (
	"context"
	"encoding/json"
	"sort"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"kestrel/domain"
)

// Beat is what an instance says of itself on each heartbeat.
type Beat struct {
	Instance string    `json:"instance"`
	Addr     string    `json:"addr"`
	Started  time.Time `json:"started"`
	Leader   bool      `json:"leader"`
	// Term is the leader's lease term: followers send commands to its subject.
	Term    int64 `json:"term,omitempty"`
	Leaving bool  `json:"leaving,omitempty"`
	// The leader's engine heartbeat and exchange health, so every
	// instance's status reports the engine that actually runs.
	EngineBeat time.Time              `json:"engine_beat,omitzero"`
	Exchange   *domain.ExchangeHealth `json:"exchange,omitempty"`
}

// Member is a live instance as /api/system/status lists it.
type Member struct {
	ID       string    `json:"id"`
	Addr     string    `json:"addr"`
	Leader   bool      `json:"leader"`
	Started  time.Time `json:"started"`
	LastSeen time.Time `json:"last_seen"`
}

// View is the cluster as this instance sees it.
type View struct {
	Instance  string   `json:"instance"`
	Leader    string   `json:"leader"` // empty while no live instance leads
	Instances []Member `json:"instances"`
}

// Members tracks the live instances from their heartbeats.
type Members struct {
	nc    *nats.Conn
	subj  string // "<cluster>.heartbeat": every instance's Beat
	self  string
	every time.Duration
	beat  func() Beat

	mu   sync.Mutex
	seen map[string]seenBeat
	sub  *nats.Subscription
}

type seenBeat struct {
	Beat
	at time.Time // when it arrived here (no reliance on the sender's clock)
}

// StartMembers listens to the named cluster's heartbeats; beat says what
// this instance announces every interval once Run is called.
func StartMembers(nc *nats.Conn, cluster, self string, every time.Duration, beat func() Beat) (*Members, error) {
	m := &Members{nc: nc, subj: cluster + ".heartbeat", self: self, every: every, beat: beat, seen: map[string]seenBeat{}}
	sub, err := nc.Subscribe(m.subj, m.receive)
	if err != nil {
		return nil, err
	}
	m.sub = sub
	return m, nc.Flush()
}

// Run heartbeats until ctx ends, then says goodbye so the others drop
// this instance at once rather than after the timeout. Listening goes on
// until Close.
func (m *Members) Run(ctx context.Context) {
	t := time.NewTicker(m.every)
	defer t.Stop()
	for {
		m.Announce()
		select {
		case <-ctx.Done():
			b := m.beat()
			b.Leaving, b.Leader = true, false
			m.publish(b)
			_ = m.nc.Flush()
			return // still listening: Run starts again after an engine restart
		case <-t.C:
		}
	}
}

// Announce sends this instance's heartbeat now (after a leadership change).
func (m *Members) Announce() { m.publish(m.beat()) }

func (m *Members) publish(b Beat) {
	b.Instance = m.self
	if raw, err := json.Marshal(b); err == nil {
		_ = m.nc.Publish(m.subj, raw) // a lost beat is covered by the next
	}
}

func (m *Members) receive(msg *nats.Msg) {
	var b Beat
	if json.Unmarshal(msg.Data, &b) != nil || b.Instance == "" {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if b.Leaving {
		delete(m.seen, b.Instance)
		return
	}
	m.seen[b.Instance] = seenBeat{Beat: b, at: time.Now()}
}

// live returns the beats heard within three intervals, by id.
func (m *Members) live() []seenBeat {
	m.mu.Lock()
	defer m.mu.Unlock()
	cutoff := time.Now().Add(-3 * m.every)
	var out []seenBeat
	for id, b := range m.seen {
		if b.at.Before(cutoff) {
			delete(m.seen, id)
			continue
		}
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Instance < out[j].Instance })
	return out
}

// Leader is the beat of the live instance that leads in the highest term
// (the latest beat among equals; ok false while none leads, e.g. during a
// failover). A late beat of a replaced leader names a lower term, so it
// never displaces its successor.
func (m *Members) Leader() (Beat, bool) {
	var best seenBeat
	for _, b := range m.live() {
		if b.Leader && (best.Instance == "" || b.Term > best.Term || (b.Term == best.Term && b.at.After(best.at))) {
			best = b
		}
	}
	return best.Beat, best.Instance != ""
}

// View is the cluster for /api/system/status.
func (m *Members) View() View {
	v := View{Instance: m.self, Instances: []Member{}}
	if l, ok := m.Leader(); ok {
		v.Leader = l.Instance
	}
	for _, b := range m.live() {
		v.Instances = append(v.Instances, Member{ID: b.Instance, Addr: b.Addr, Leader: b.Instance == v.Leader, Started: b.Started, LastSeen: b.at})
	}
	return v
}

// Close stops listening to heartbeats.
func (m *Members) Close() { m.sub.Unsubscribe() }
