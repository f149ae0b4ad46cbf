package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/textproto"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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

// workerIdle is how long a worker serving forwarded commands waits for
// the next one before it ends.
const workerIdle = 10 * time.Second

// Forwarder sends leader-only requests to the leader and serves them there.
type Forwarder struct {
	nc   *nats.Conn
	self string
	// Subjects of forwarded commands and of the change notices that tell
	// the other instances to reload what they keep in memory.
	commands, changed string
	leading           func() bool
	timeout           time.Duration
	// Changed is called on every instance but the one that made a change,
	// after a leader-only write succeeded, to reload its in-memory copies.
	Changed func(ctx context.Context)
	// Leader, when set, names the instance leading now (from the
	// heartbeats): a command waiting on a leader that has since been
	// replaced is answered 503 at once instead of at the timeout, since the
	// one it was sent to will never answer.
	Leader func() string

	watchOnce sync.Once
	eraMu     sync.Mutex
	era       *era // the leader named last
}

// NewForwarder forwards within the named cluster with the given reply timeout.
func NewForwarder(nc *nats.Conn, cluster, self string, leading func() bool, timeout time.Duration) *Forwarder {
	return &Forwarder{nc: nc, self: self, commands: cluster + ".command", changed: cluster + ".changed", leading: leading, timeout: timeout}
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
	h := nats.Header(copyUnreserved(make(map[string][]string, len(r.Header)+4), r.Header))
	h[forwardedHeader] = []string{f.self}
	h[hdrMethod], h[hdrURI], h[hdrRemoteAddr] = []string{r.Method}, []string{r.URL.RequestURI()}, []string{r.RemoteAddr}
	ctx, cancel := context.WithTimeout(r.Context(), f.timeout)
	defer cancel()
	replaced, stopWatching := f.watchLeader(cancel)
	defer stopWatching()
	msg, err := f.nc.RequestMsgWithContext(ctx, &nats.Msg{Subject: f.commands, Header: h, Data: body})
	if err != nil && replaced.Load() {
		unavailable(w, "The instance running the trading engine changed while this command was on its way; retry with the same client order id")
		return
	}
	if err != nil {
		if !errors.Is(err, nats.ErrNoResponders) && !errors.Is(err, context.DeadlineExceeded) {
			slog.Warn("forward to the leader failed", "err", err, "component", "cluster")
		}
		// With a timeout the command may still have run: the client order
		// id makes the retry return the first order rather than a second.
		unavailable(w, "No instance running the trading engine answered (a new leader is being elected); retry in a few seconds with the same client order id")
		return
	}
	status, err := strconv.Atoi(msg.Header.Get(hdrStatus))
	if err != nil || status < 100 || status > 999 {
		unavailable(w, "The trading engine's answer could not be read")
		return
	}
	copyUnreserved(w.Header(), msg.Header)
	w.Header().Del("Content-Length") // the body is written whole below; the server sets it
	w.WriteHeader(status)
	_, _ = w.Write(msg.Data)
}

// watchLeader cancels the wait when the heartbeats name a new leader (a
// leader that died with the command in flight never answers it); the flag
// says whether it did. One watcher per forwarder looks at the heartbeats;
// each command only registers with the leader's era.
func (f *Forwarder) watchLeader(cancel context.CancelFunc) (replaced *atomic.Bool, stop func() bool) {
	replaced = new(atomic.Bool)
	var e *era
	if f.Leader != nil {
		e = f.observe(f.Leader())
	}
	if e == nil { // not watched, or nobody leads: the request fails at once with no responders
		return replaced, func() bool { return false }
	}
	f.watchOnce.Do(func() { go f.watchLeaders() })
	return replaced, context.AfterFunc(e.ctx, func() { replaced.Store(true); cancel() })
}

// era is a leader as the heartbeats name it, with a context that ends
// when they name another.
type era struct {
	leader string
	ctx    context.Context
	end    context.CancelFunc
}

// observe records the leader named now and returns its era (nil when
// none is named: an era ends only when another leader is named).
func (f *Forwarder) observe(leader string) *era {
	f.eraMu.Lock()
	defer f.eraMu.Unlock()
	if leader == "" || (f.era != nil && f.era.leader == leader) {
		return f.era
	}
	if f.era != nil {
		f.era.end()
	}
	ctx, end := context.WithCancel(context.Background())
	f.era = &era{leader: leader, ctx: ctx, end: end}
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
		f.observe(f.Leader())
	}
}

// Serve answers forwarded requests with h until ctx ends; the leader runs
// it for as long as it leads. Commands run concurrently, as HTTP requests
// do, on workers that stay for the next command: a goroutine per command
// grew its stack through the handler chain every time (a tenth of the
// leader's CPU at a few thousand orders a second).
func (f *Forwarder) Serve(ctx context.Context, h http.Handler) error {
	work := make(chan *nats.Msg)
	sub, err := f.nc.Subscribe(f.commands, func(m *nats.Msg) {
		select {
		case work <- m: // an idle worker takes it
		default:
			go f.worker(ctx, h, m, work)
		}
	})
	if err != nil {
		return err
	}
	if err := f.nc.Flush(); err != nil {
		sub.Unsubscribe()
		return err
	}
	<-ctx.Done()
	return sub.Unsubscribe()
}

// worker serves m, then whatever work brings, until it has been idle for
// workerIdle or leadership ends.
func (f *Forwarder) worker(ctx context.Context, h http.Handler, m *nats.Msg, work <-chan *nats.Msg) {
	f.serveOne(ctx, h, m)
	idle := time.NewTimer(workerIdle)
	defer idle.Stop()
	for {
		select {
		case m := <-work:
			f.serveOne(ctx, h, m)
			idle.Reset(workerIdle)
		case <-idle.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

func (f *Forwarder) serveOne(ctx context.Context, h http.Handler, m *nats.Msg) {
	began := time.Now()
	method, uri, from := m.Header.Get(hdrMethod), m.Header.Get(hdrURI), m.Header.Get(forwardedHeader)
	rec := &recorder{header: http.Header{}, status: http.StatusOK}
	if req, err := http.NewRequestWithContext(context.WithoutCancel(ctx), method, uri, bytes.NewReader(m.Data)); err != nil || method == "" {
		writeEnvelope(rec, http.StatusBadRequest, domain.EInvalid, "The forwarded request could not be read")
	} else {
		req.Header = copyUnreserved(make(http.Header, len(m.Header)), m.Header)
		req.RemoteAddr = m.Header.Get(hdrRemoteAddr)
		h.ServeHTTP(rec, req)
	}
	reply := nats.Header(rec.header)
	reply[hdrStatus] = []string{strconv.Itoa(rec.status)}
	if err := m.RespondMsg(&nats.Msg{Header: reply, Data: rec.body.Bytes()}); err != nil {
		slog.Warn("reply to a forwarded request failed", "err", err, "component", "cluster")
	}
	if took := time.Since(began); took > f.timeout/2 {
		slog.Warn("a forwarded request was slow", "method", method, "uri", uri, "from", from, "took", took, "component", "cluster")
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
