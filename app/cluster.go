package app

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"kestrel/auth"
	"kestrel/cluster"
	"kestrel/domain"
	"kestrel/events"
	"kestrel/events/natsbus"
	"kestrel/store/postgres"
)

// node is this process's part in a cluster (nil when it runs alone).
type node struct {
	id      string
	nc      *nats.Conn
	bridge  *natsbus.Bridge
	elector *cluster.Elector
	members *cluster.Members
	fwd     *cluster.Forwarder
	reach   *cluster.Reach
	started time.Time
	handler http.Handler // the API, which the leader runs forwarded requests through
	// ready is the lease term in which this instance's engine takes
	// commands (after the rebuild, until that term's leadership ends); 0
	// when none. A term, not a flag, so the end of one term cannot clear
	// the next's.
	ready atomic.Int64
}

// joinCluster connects to NATS, bridges the bus and sets up the election,
// the heartbeats and the forwarding of trading commands.
func (a *App) joinCluster(started time.Time) error {
	id := a.cfg.InstanceID
	if id == "" {
		id = cluster.DefaultInstanceID()
	}
	nc, err := nats.Connect(a.cfg.NATSURL, nats.Name("kestrel "+id), nats.MaxReconnects(-1), nats.ReconnectWait(500*time.Millisecond),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			slog.Error("lost the NATS connection; reconnecting", "err", err, "component", "cluster")
		}),
		nats.ReconnectHandler(func(*nats.Conn) { slog.Info("NATS connection restored", "component", "cluster") }))
	if err != nil {
		return fmt.Errorf("connect to NATS at %s: %w", redactURL(a.cfg.NATSURL), err)
	}
	n := &node{id: id, nc: nc, started: started, elector: cluster.NewElector(a.cfg.DatabaseURL, id, cluster.LeaseTTL)}
	if n.bridge, err = natsbus.Start(nc, a.Bus, a.cfg.ClusterName, id); err != nil {
		nc.Close()
		return fmt.Errorf("bridge events to NATS: %w", err)
	}
	if n.members, err = cluster.StartMembers(nc, a.cfg.ClusterName, id, time.Second, a.beat); err != nil {
		nc.Close()
		return fmt.Errorf("cluster heartbeats: %w", err)
	}
	// Leading reads the lease's clock: a process waking from a pause longer
	// than the lease stops taking commands before its election loop runs.
	n.fwd = cluster.NewForwarder(nc, a.cfg.ClusterName, id, func() bool { return n.ready.Load() == n.elector.Term() && n.elector.Leading() }, a.cfg.ForwardTimeout)
	n.fwd.Changed = a.reloadShared
	n.fwd.Leader = func() (string, int64) { l, _ := n.members.Leader(); return l.Instance, l.Term }
	n.elector.OnChange = func(bool) { n.members.Announce() }
	// A leader no command can reach (cut off from NATS, the database still
	// answering) must not keep the lease: it steps down, and an instance
	// that reaches NATS takes over.
	n.reach = cluster.NewReach(nc, cluster.NATSGrace)
	n.elector.Able = n.reach.Err
	n.fwd.Reachable = n.reach.Err
	if err := a.shareSessionChanges(nc, id); err != nil {
		nc.Close()
		return err
	}
	a.cluster = n
	return nil
}

// sessionChange is a logout, a disabling, or a change of a user's role or
// password made on one instance, sent to the others so that their session
// caches (and WebSocket connections) do not outlive it.
type sessionChange struct {
	From  string      `json:"from"`
	Ended *auth.Ended `json:"ended,omitempty"`
}

// shareSessionChanges publishes this instance's session changes and
// applies the others'.
func (a *App) shareSessionChanges(nc *nats.Conn, self string) error {
	subject := a.cfg.ClusterName + ".sessions"
	if _, err := nc.Subscribe(subject, func(m *nats.Msg) {
		var c sessionChange
		if err := json.Unmarshal(m.Data, &c); err != nil {
			slog.Warn("unreadable session change", "err", err, "component", "cluster")
			return
		}
		if c.From != self {
			a.Auth.Forget(c.Ended)
		}
	}); err != nil {
		return fmt.Errorf("subscribe to session changes: %w", err)
	}
	a.Auth.OnInvalidated(func(e *auth.Ended) {
		b, _ := json.Marshal(sessionChange{From: self, Ended: e})
		if err := nc.Publish(subject, b); err != nil {
			slog.Error("cannot tell the cluster of a session change", "err", err, "component", "cluster")
		}
	})
	return nil
}

// leaveCluster closes the NATS side once the loops have stopped.
func (a *App) leaveCluster() {
	if a.cluster != nil {
		a.cluster.members.Close()
		a.cluster.bridge.Close()
		a.cluster.nc.Close()
	}
}

// runCluster is runEngine for a cluster instance: every instance runs the
// market (for its own reads), the WebSocket hub, the heartbeats and the
// election; only the leader runs the trading engine (lead).
func (a *App) runCluster(ctx context.Context) {
	n := a.cluster
	loops := []func(context.Context){a.Live.Start,
		func(ctx context.Context) { a.Hub.Run(ctx, a.Bus) },
		a.publishBooks,
		n.members.Run,
		n.reach.Run,
		func(ctx context.Context) { _ = n.fwd.Listen(ctx) },
		a.followLedger,
		func(ctx context.Context) { n.elector.Run(ctx, a.lead) },
	}
	var wg sync.WaitGroup
	for _, loop := range loops {
		wg.Add(1)
		go func() { defer wg.Done(); loop(ctx) }()
	}
	wg.Wait()
}

// lead runs the trading engine while this instance holds the lock: the
// ledger, the emergency stop, the settings and the strategies are read
// from the database again (as a restart does), then the matching loop,
// the gateway's update loop, the strategies, the recording and watching
// jobs and the forwarded commands run until leadership ends.
func (a *App) lead(ctx context.Context) {
	slog.Warn("this instance now runs the trading engine", "instance", a.cluster.id, "component", "cluster")
	if err := a.fence(ctx); err != nil {
		slog.Error("the new leader could not take the ledger's fence; stepping down", "err", err, "component", "cluster")
		time.Sleep(time.Second) // let another instance try
		return
	}
	if err := a.rebuild(ctx); err != nil {
		slog.Error("the new leader could not rebuild the engine state; stepping down", "err", err, "component", "cluster")
		time.Sleep(time.Second) // let another instance try
		return
	}
	term := a.cluster.elector.Term() // forwarded commands reach this term's subject
	a.stages.Reset()
	defer a.stages.Reset()
	if err := a.Promotions.Resume(ctx); err != nil {
		slog.Error("promotion", "err", err, "component", "promotion")
		a.Alerts.Raise(ctx, "promotion:resume", domain.SeverityHigh, "strategy", "Paper stages not resumed", err.Error())
	}
	matchTicks, pubTicks := a.Live.Subscribe(ctx), a.Live.Subscribe(ctx)
	loops := []func(context.Context){a.Trading.Run, a.Strategies.Run, a.Jobs.Run, a.stages.Run,
		func(ctx context.Context) { a.Trading.RecordEvery(ctx, time.Minute) },
		func(ctx context.Context) { a.marketWatch().Run(ctx, a.Live.LastTickAge, a.Alerts) },
		func(ctx context.Context) { a.Metrics.CountOrders(a.Exchange.Updates(ctx)) },
		func(ctx context.Context) { a.Live.PublishTickers(pubTicks, a.Bus) },
		func(ctx context.Context) { a.current().Run(ctx, matchTicks) },
	}
	loops = append(loops, a.notifyLoops()...)
	// Commands are taken once the gateway's and the metrics' update loops
	// listen to the exchange: a fill before that would reach no client.
	ledger := a.ledger()
	listening := ledger.Receivers() + 2
	if _, remote := ledger.(remoteLedger); remote {
		listening = 0 // its updates come from the exchange's own stream
	}
	loops = append(loops, func(ctx context.Context) {
		for ledger.Receivers() < listening {
			if !sleepCtx(ctx, 5*time.Millisecond) {
				return
			}
		}
		a.cluster.ready.Store(term)
		go func() { <-ctx.Done(); a.cluster.ready.CompareAndSwap(term, 0) }()
		if err := a.cluster.fwd.Serve(ctx, a.cluster.handler, term); err != nil {
			slog.Error("cannot serve forwarded commands", "err", err, "component", "cluster")
		}
	})
	var wg sync.WaitGroup
	for _, loop := range loops {
		wg.Add(1)
		go func() { defer wg.Done(); loop(ctx) }()
	}
	wg.Wait()
	a.ledger().Invalidate() // from now on this instance reads the new leader's journal
	slog.Warn("this instance stopped running the trading engine", "instance", a.cluster.id, "component", "cluster")
}

// fencer is a store whose ledger commits a cluster leader fences
// (store/postgres): once another instance has taken over, they fail.
type fencer interface {
	AdvanceFence(ctx context.Context) (int64, error)
}

var _ fencer = (*postgres.Store)(nil) // a renamed method must not unfence the cluster silently

// fence moves the cluster's fencing epoch on and fences this instance's
// ledger commits at it, before the ledger is read and matching starts: a
// commit of the previous leader still under way lands before the epoch
// moves or is refused (docs/SCALING.md, Failure behaviour).
func (a *App) fence(ctx context.Context) error {
	f, ok := a.Store.(fencer)
	if !ok {
		return nil
	}
	epoch, err := f.AdvanceFence(ctx)
	if err == nil {
		slog.Info("ledger fenced at a new epoch", "epoch", epoch, "instance", a.cluster.id, "component", "cluster")
	}
	return err
}

// rebuild reads the engine's state from the database.
func (a *App) rebuild(ctx context.Context) error {
	if err := a.ledger().Restore(ctx); err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	if err := a.Trading.Reload(ctx); err != nil {
		return fmt.Errorf("emergency stop: %w", err)
	}
	if err := a.Settings.Reload(ctx); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	if err := a.Strategies.Reload(ctx); err != nil {
		return fmt.Errorf("strategies: %w", err)
	}
	if err := a.history.Reload(ctx); err != nil {
		return fmt.Errorf("portfolio history: %w", err)
	}
	return nil
}

// followLedger keeps a follower's reads of the account current: every
// trade update from the leader (and, should one be lost, every few
// seconds) makes the next read load the ledger from the database, and a
// fill (or the same few seconds) the drawdown peak. An order that rests or
// is cancelled moves no value, so it costs no read of the database here.
func (a *App) followLedger(ctx context.Context) {
	updates := a.Bus.Subscribe(ctx, events.TopicTradeUpdate, 1024)
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for {
		filled := true
		select {
		case e, ok := <-updates:
			if !ok {
				return
			}
			filled = drainFills(e, updates) // a burst of updates costs one reload
		case <-t.C:
		case <-ctx.Done():
			return
		}
		if !a.cluster.elector.Leading() {
			a.ledger().Invalidate()
			if !filled {
				continue
			}
			if err := a.history.Reload(ctx); err != nil && ctx.Err() == nil {
				slog.Warn("reload the portfolio history", "err", err, "component", "cluster")
			}
		}
	}
}

// drainFills takes whatever trade updates are queued behind first without
// waiting and reports whether any of them, first included, was a fill.
func drainFills(first events.Event, ch <-chan events.Event) bool {
	filled := isFill(first)
	for {
		select {
		case e, ok := <-ch:
			if !ok {
				return filled
			}
			filled = filled || isFill(e)
		default:
			return filled
		}
	}
}

func isFill(e events.Event) bool {
	u, ok := e.Data.(domain.TradeUpdate)
	return !ok || u.Fill != nil // an update of another shape: reload to be safe
}

// reloadShared reads again what another instance changed (settings,
// strategies, the emergency stop) and follows a change of exchange.
func (a *App) reloadShared(ctx context.Context) {
	old := a.Settings.Platform()
	for name, reload := range map[string]func(context.Context) error{"settings": a.Settings.Reload, "strategies": a.Strategies.Reload, "emergency stop": a.Trading.Reload} {
		if err := reload(ctx); err != nil {
			slog.Error("reload after a change on another instance", "what", name, "err", err, "component", "cluster")
		}
	}
	a.switchExchange(ctx, old, a.Settings.Platform(), domain.User{Email: "the cluster leader"})
}

// journaled is an exchange that keeps its ledger in memory over a journal
// in the database (the sandbox): a new leader reloads it and a follower
// re-reads it after the leader's changes. An exchange whose state lives
// at the exchange (Coinbase) has nothing to reload.
type journaled interface {
	Restore(ctx context.Context) error
	Invalidate()
	Receivers() int
}

// ledger is the current exchange's journaled ledger, or a no-op.
func (a *App) ledger() journaled {
	if j, ok := a.Exchange.Current().(journaled); ok {
		return j
	}
	return remoteLedger{}
}

// remoteLedger stands for an exchange whose state is at the exchange.
type remoteLedger struct{}

func (remoteLedger) Restore(context.Context) error { return nil }
func (remoteLedger) Invalidate()                   {}
func (remoteLedger) Receivers() int                { return 0 }

// beat is this instance's heartbeat; the leader adds its engine's health.
func (a *App) beat() cluster.Beat {
	b := cluster.Beat{Addr: a.Addr(), Started: a.cluster.started, Leader: a.cluster.elector.Leading()}
	if b.Leader {
		b.Term = a.cluster.elector.Term()
		h := a.Exchange.Health()
		b.EngineBeat, b.Exchange = a.Exchange.LastBeat(), &h
	}
	return b
}

// engineBeat is the matching loop's heartbeat: the leader's, wherever it runs.
func (a *App) engineBeat() time.Time {
	if a.cluster == nil || a.cluster.elector.Leading() {
		return a.Exchange.LastBeat()
	}
	l, _ := a.cluster.members.Leader()
	return l.EngineBeat // zero while no instance leads: the status says stale
}

// exchangeHealth is the exchange's health as the instance running it sees it.
func (a *App) exchangeHealth() domain.ExchangeHealth {
	if a.cluster != nil && !a.cluster.elector.Leading() {
		if l, ok := a.cluster.members.Leader(); ok && l.Exchange != nil {
			return *l.Exchange
		}
	}
	return a.Exchange.Health()
}

// clusterView is /api/system/status's cluster entry.
func (a *App) clusterView() cluster.View { return a.cluster.members.View() }

// clusterStatus gives the API the cluster view, or nil when alone.
func (a *App) clusterStatus() func() cluster.View {
	if a.cluster == nil {
		return nil
	}
	return a.clusterView
}

// sleepCtx waits d or until ctx ends; it reports whether ctx is still live.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
