package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
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

// command is a forwarded HTTP request; reply is its answer.
type command struct {
	From       string      `json:"from"`
	Method     string      `json:"method"`
	URI        string      `json:"uri"`
	Header     http.Header `json:"header"`
	Body       []byte      `json:"body"`
	RemoteAddr string      `json:"remote_addr"`
}

type reply struct {
	Status int         `json:"status"`
	Header http.Header `json:"header"`
	Body   []byte      `json:"body"`
}

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
	h := r.Header.Clone()
	h.Set(forwardedHeader, f.self)
	raw, err := json.Marshal(command{From: f.self, Method: r.Method, URI: r.URL.RequestURI(), Header: h, Body: body, RemoteAddr: r.RemoteAddr})
	if err != nil {
		unavailable(w, "The request could not be forwarded")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), f.timeout)
	defer cancel()
	replaced := f.watchLeader(ctx, cancel)
	msg, err := f.nc.RequestWithContext(ctx, f.commands, raw)
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
	var rep reply
	if err := json.Unmarshal(msg.Data, &rep); err != nil {
		unavailable(w, "The trading engine's answer could not be read")
		return
	}
	for k, vs := range rep.Header {
		if k == "Content-Length" {
			continue
		}
		w.Header()[k] = vs
	}
	w.WriteHeader(rep.Status)
	_, _ = w.Write(rep.Body)
}

// watchLeader cancels the wait when the heartbeats name a new leader (a
// leader that died with the command in flight never answers it); the flag
// says whether it did.
func (f *Forwarder) watchLeader(ctx context.Context, cancel context.CancelFunc) *atomic.Bool {
	var replaced atomic.Bool
	if f.Leader == nil {
		return &replaced
	}
	sentTo := f.Leader()
	if sentTo == "" {
		return &replaced // nobody leads: the request fails at once with no responders
	}
	go func() {
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if now := f.Leader(); now != "" && now != sentTo {
					replaced.Store(true)
					cancel()
					return
				}
			}
		}
	}()
	return &replaced
}

// Serve answers forwarded requests with h until ctx ends; the leader runs
// it for as long as it leads.
func (f *Forwarder) Serve(ctx context.Context, h http.Handler) error {
	sub, err := f.nc.Subscribe(f.commands, func(m *nats.Msg) {
		go f.serveOne(ctx, h, m) // commands run concurrently, as HTTP requests do
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

func (f *Forwarder) serveOne(ctx context.Context, h http.Handler, m *nats.Msg) {
	began := time.Now()
	var c command
	rec := &recorder{header: http.Header{}, status: http.StatusOK}
	if err := json.Unmarshal(m.Data, &c); err != nil {
		writeEnvelope(rec, http.StatusBadRequest, domain.EInvalid, "The forwarded request could not be read")
	} else if req, err := http.NewRequestWithContext(context.WithoutCancel(ctx), c.Method, c.URI, bytes.NewReader(c.Body)); err != nil {
		writeEnvelope(rec, http.StatusBadRequest, domain.EInvalid, "The forwarded request could not be read")
	} else {
		req.Header, req.RemoteAddr = c.Header, c.RemoteAddr
		h.ServeHTTP(rec, req)
	}
	raw, err := json.Marshal(reply{Status: rec.status, Header: rec.header, Body: rec.body.Bytes()})
	if err == nil {
		err = m.Respond(raw)
	}
	if err != nil {
		slog.Warn("reply to a forwarded request failed", "err", err, "component", "cluster")
	}
	if took := time.Since(began); took > f.timeout/2 {
		slog.Warn("a forwarded request was slow", "method", c.Method, "uri", c.URI, "from", c.From, "took", took, "component", "cluster")
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
