package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/textproto"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"kestrel/domain"
)

// forwardedHeader marks a request a follower sent to the leader: it is
// never forwarded again (no loop while leadership moves).
const forwardedHeader = "X-Kestrel-Forwarded-By"

// LeaderOnly reports the requests whose effect lives in the engine's
// memory and so must run on the leader: the trading commands (place,
// modify, cancel, stop, resume) and the writes the engine keeps a copy of
// (settings, strategies, alert resolution that resumes a strategy, the
// engine restart).
func LeaderOnly(r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead || r.Method == http.MethodOptions {
		return false
	}
	p := r.URL.Path
	return strings.HasPrefix(p, "/api/trading/") || p == "/api/strategy" || strings.HasPrefix(p, "/api/strategy/") ||
		p == "/api/settings" || strings.HasPrefix(p, "/api/settings/") ||
		(strings.HasPrefix(p, "/api/system/alerts/") && strings.HasSuffix(p, "/resolve")) || p == "/api/system/restart"
}

// A forwarded request travels as one NATS message: the HTTP headers are
// the message's headers, the body is its data as it is, and the request
// line under reserved header names; the answer comes back the same way
// with its status. (JSON with the body in base64 cost the follower and
// the leader a decode and an encode each per order.) A client's own
// headers with the reserved prefix are dropped, so none can pose as ours.
const (
	reservedPrefix = "Kestrel-Fwd-"
	hdrMethod      = reservedPrefix + "Method"
	hdrURI         = reservedPrefix + "Uri"
	hdrRemoteAddr  = reservedPrefix + "Remote-Addr"
	hdrStatus      = reservedPrefix + "Status"
)

// copyUnreserved copies the header fields outside the reserved prefix
// from src to dst, under their canonical names, and returns dst.
func copyUnreserved(dst, src map[string][]string) http.Header {
	for k, vs := range src {
		if k = textproto.CanonicalMIMEHeaderKey(k); !strings.HasPrefix(k, reservedPrefix) {
			dst[k] = vs
		}
	}
	return dst
}

// Deadlines. A forwarded command carries the instant (Unix nanoseconds)
// after which the leader must not start it; the leader tells the follower
// it starts a command, and makes sure the notice has reached NATS, before
// it checks the deadline one last time and runs it. So a follower that has
// heard no notice by the deadline plus settleTime (the notice's trip, the
// two clocks' difference), after a flush of its own connection has brought
// in every message sent before, knows the command did not run and never
// will; one that heard the notice waits longer for the answer, and without
// it says the outcome is unknown (504), never "not run".
const (
	hdrDeadline = reservedPrefix + "Deadline"
	hdrStarted  = reservedPrefix + "Started"
	settleTime  = 500 * time.Millisecond
)

// DefaultWorkers bounds the forwarded commands the leader runs at once.
const DefaultWorkers = 64

// workerIdle is how long a worker serving forwarded commands waits for
// the next one before it ends.
const workerIdle = 10 * time.Second

// Forwarder sends leader-only requests to the leader and serves them there.
type Forwarder struct {
	nc   *nats.Conn
	self string
	// Subjects of forwarded commands (one per leader term) and of the
	// change notices that tell the other instances to reload what they
	// keep in memory.
	commands, changed string
	leading           func() bool
	timeout           time.Duration
	// Workers bounds the forwarded commands this instance runs at once
	// while it leads (DefaultWorkers when zero); set before Serve.
	Workers int
	// Changed is called on every instance but the one that made a change,
	// after a leader-only write succeeded, to reload its in-memory copies.
	Changed func(ctx context.Context)
	// Reachable, when set, says whether NATS has answered this instance
	// lately (Reach.Err): when it has not, a command is answered 503 at
	// once, never sent (a publish would wait in the client's buffer).
	Reachable func() error
	// Leader names the instance leading now and its term (from the
	// heartbeats). Commands go to that term's subject; a command waiting
	// on a leader that has since been replaced is answered at once.
	Leader func() (instance string, term int64)

	watchOnce sync.Once
	eraMu     sync.Mutex
	era       *era // the leader named last
}

// NewForwarder forwards within the named cluster with the given reply timeout.
func NewForwarder(nc *nats.Conn, cluster, self string, leading func() bool, timeout time.Duration) *Forwarder {
	return &Forwarder{nc: nc, self: self, commands: cluster + ".command", changed: cluster + ".changed", leading: leading, timeout: timeout}
}

// subject is where the leader of term listens for commands: a leader that
// was replaced (frozen, cut off) keeps its subscription, but followers
// that know the new term no longer send to it.
func (f *Forwarder) subject(term int64) string {
	return f.commands + "." + strconv.FormatInt(term, 10)
}

// Middleware runs leader-only requests here when this instance leads and
// forwards them to the leader otherwise; other requests pass through.
func (f *Forwarder) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !LeaderOnly(r) {
			next.ServeHTTP(w, r)
			return
		}
		if f.leading() {
			sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
			next.ServeHTTP(sw, r)
			if sw.status < 300 {
				f.announceChange(r.URL.Path)
			}
			return
		}
		if r.Header.Get(forwardedHeader) != "" {
			unavailable(w, domain.MsgNotLeader)
			return
		}
		f.forward(w, r)
	})
}

// What a follower answers when it knows the command did not run, and when
// it cannot know.
const (
	msgNoLeader = "No instance running the trading engine is known to this one now (a leader is being elected, or messaging is down); the command was not run. Retry in a few seconds with the same client order id"
	msgNoNATS   = "This instance cannot reach the trading engine (messaging is down); the command was not run. Retry in a few seconds with the same client order id"
	msgExpired  = "The trading engine did not start this command before its deadline, and never will; it was not run. Retry with the same client order id"
	msgChanged  = "The instance running the trading engine changed while this command was on its way; it was not run. Retry with the same client order id"
	msgUnknown  = "The trading engine started this command but its answer did not arrive in time: it may or may not have taken effect. Retry with the same client order id, which returns the order if it was placed and places it once if not"
)

func (f *Forwarder) forward(w http.ResponseWriter, r *http.Request) {
	limit := f.nc.MaxPayload() - 64<<10 // room for the headers
	body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if err != nil {
		unavailable(w, "The request body could not be read")
		return
	}
	if int64(len(body)) > limit {
		writeEnvelope(w, http.StatusRequestEntityTooLarge, domain.ETooLarge, "The request body is too large to forward to the trading engine")
		return
	}
	e := f.currentEra()
	if e == nil {
		unavailable(w, msgNoLeader)
		return
	}
	if !f.nc.IsConnected() || (f.Reachable != nil && f.Reachable() != nil) { // a publish now would wait in the client's buffer and reach the leader late
		unavailable(w, msgNoNATS)
		return
	}
	// A channel subscription of the command's own: NATS's reader puts each
	// reply in the channel itself, so once a flush returns, every reply the
	// server sent before it is there (a callback could still be pending).
	replies := make(chan *nats.Msg, 4)
	reply := nats.NewInbox()
	sub, err := f.nc.ChanSubscribe(reply, replies)
	if err != nil {
		slog.Warn("cannot receive answers from the leader", "err", err, "component", "cluster")
		unavailable(w, msgNoNATS)
		return
	}
	defer sub.Unsubscribe()
	deadline := time.Now().Add(f.timeout)
	h := nats.Header(copyUnreserved(make(map[string][]string, len(r.Header)+5), r.Header))
	h[forwardedHeader] = []string{f.self}
	h[hdrMethod], h[hdrURI], h[hdrRemoteAddr] = []string{r.Method}, []string{r.URL.RequestURI()}, []string{r.RemoteAddr}
	h[hdrDeadline] = []string{strconv.FormatInt(deadline.UnixNano(), 10)}
	reconnects := f.nc.Stats().Reconnects
	if err := f.nc.PublishMsg(&nats.Msg{Subject: f.subject(e.term), Reply: reply, Header: h, Data: body}); err != nil {
		slog.Warn("forward to the leader failed", "err", err, "component", "cluster")
		unavailable(w, msgNoNATS)
		return
	}
	var started, graced bool
	// handle takes one reply and reports whether the client has its answer.
	handle := func(m *nats.Msg) bool {
		switch {
		case noResponders(m): // nobody listens on the term's subject: nothing received it
			unavailable(w, msgNoLeader)
			return true
		case m.Header.Get(hdrStarted) != "":
			started = true
			return false
		}
		relay(w, m)
		return true
	}
	// settle takes every reply the server sent so far (sure false: the
	// connection could not confirm it, so a notice may be missing).
	settle := func() (answered, sure bool) {
		if err := f.nc.FlushTimeout(settleTime); err != nil || f.nc.Stats().Reconnects != reconnects {
			return false, false
		}
		for {
			select {
			case m := <-replies:
				if handle(m) {
					return true, true
				}
			default:
				return false, true
			}
		}
	}
	unknown := func() { writeEnvelope(w, http.StatusGatewayTimeout, domain.EUnknownOutcome, msgUnknown) }
	wait := time.NewTimer(time.Until(deadline) + settleTime)
	defer wait.Stop()
	replaced := e.ctx.Done()
	for {
		select {
		case m := <-replies:
			if handle(m) {
				return
			}
			replaced = nil // started: its answer is awaited, whoever leads now
		case <-replaced:
			// A leader replaced has lost its lease, so it can no longer
			// start the command; one that already had has said so.
			answered, sure := settle()
			switch {
			case answered:
			case started:
				replaced = nil
				continue
			case sure:
				unavailable(w, msgChanged)
			default:
				unknown()
			}
			return
		case <-wait.C:
			if !started {
				answered, sure := settle()
				switch {
				case answered:
					return
				case !started && sure:
					unavailable(w, msgExpired)
					return
				case !started: // the connection dropped meanwhile: a notice may have been lost
					unknown()
					return
				}
			}
			if !graced { // a started command completes and answers: give it grace
				graced = true
				wait.Reset(f.timeout / 2)
				continue
			}
			unknown()
			return
		case <-r.Context().Done():
			return // the client left; nothing to answer
		}
	}
}

// relay writes the leader's answer as the client's response.
func relay(w http.ResponseWriter, msg *nats.Msg) {
	status, err := strconv.Atoi(msg.Header.Get(hdrStatus))
	if err != nil || status < 100 || status > 999 {
		writeEnvelope(w, http.StatusGatewayTimeout, domain.EUnknownOutcome, "The trading engine's answer could not be read: the command may or may not have taken effect. Retry with the same client order id")
		return
	}
	copyUnreserved(w.Header(), msg.Header)
	w.Header().Del("Content-Length") // the body is written whole below; the server sets it
	w.WriteHeader(status)
	_, _ = w.Write(msg.Data)
}

// noResponders is the server's answer to a request nobody subscribes to.
func noResponders(m *nats.Msg) bool {
	return len(m.Data) == 0 && m.Header.Get("Status") == "503"
}

// currentEra is the era of the leader the heartbeats name now (nil when
// none is named). One watcher per forwarder follows the heartbeats and
// ends an era when they name another term.
func (f *Forwarder) currentEra() *era {
	if f.Leader == nil {
		return nil
	}
	_, term := f.Leader()
	if term == 0 {
		return nil
	}
	f.watchOnce.Do(func() { go f.watchLeaders() })
	return f.observe(term)
}

// era is a leader's term as the heartbeats name it, with a context that
// ends when they name another.
type era struct {
	term int64
	ctx  context.Context
	end  context.CancelFunc
}

// observe records the term named now and returns the latest era (nil
// while none was named). An era ends only when a higher term is named: the
// lease of that term was granted after the earlier one had expired, so the
// earlier leader can no longer start a command.
func (f *Forwarder) observe(term int64) *era {
	f.eraMu.Lock()
	defer f.eraMu.Unlock()
	if term == 0 || (f.era != nil && f.era.term >= term) {
		return f.era
	}
	if f.era != nil {
		f.era.end()
	}
	ctx, end := context.WithCancel(context.Background())
	f.era = &era{term: term, ctx: ctx, end: end}
	return f.era
}

// watchLeaders follows the heartbeats' leader until the connection closes.
func (f *Forwarder) watchLeaders() {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for range t.C {
		if f.nc.IsClosed() {
			return
		}
		_, term := f.Leader()
		f.observe(term)
	}
}

// Listen calls Changed when another instance announces a change.
func (f *Forwarder) Listen(ctx context.Context) error {
	sub, err := f.nc.Subscribe(f.changed, func(m *nats.Msg) {
		if string(m.Data) != f.self && f.Changed != nil {
			f.Changed(ctx)
		}
	})
	if err != nil {
		return err
	}
	<-ctx.Done()
	return sub.Unsubscribe()
}

func (f *Forwarder) announceChange(path string) {
	if !strings.HasPrefix(path, "/api/trading/orders") && path != "/api/trading/execute" { // orders reach the others as trade updates
		_ = f.nc.Publish(f.changed, []byte(f.self))
	}
}

// unavailable writes the API's 503 envelope.
func unavailable(w http.ResponseWriter, msg string) {
	w.Header().Set("Retry-After", "2")
	writeEnvelope(w, http.StatusServiceUnavailable, domain.EUnavailable, msg)
}

func writeEnvelope(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"success": false, "error": map[string]string{"code": code, "message": msg}})
}

// statusWriter remembers the status a handler wrote.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (s *statusWriter) WriteHeader(code int) { s.status = code; s.ResponseWriter.WriteHeader(code) }

// Unwrap lets http.ResponseController reach the connection.
func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// recorder collects a response to send back over NATS.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
	wrote  bool
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	return r.body.Write(b)
}
func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
	}
}
