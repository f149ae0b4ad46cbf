package httpapi

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"kestrel/domain"
)

// Tuning is the HTTP part of the platform settings (system.performance),
// read on every request so a saved change applies at once.
type Tuning struct {
	Caching        bool
	CacheTimeout   time.Duration
	Compression    bool
	MaxConcurrent  int           // API requests handled at once; more wait their turn
	RequestTimeout time.Duration // per API request, waiting included
}

// withTuning applies the request timeout, the concurrency limit and
// compression to API calls. The realtime socket and metrics are exempt.
//
// A request's body is read before it takes a slot, so a client that sends
// headers and never finishes its body holds no slot (the server's read
// timeout ends it). The emergency stop, resume and order cancels take a slot
// in a small lane of their own (priorityRequest), so they never wait behind
// other work.
func withTuning(tuning func() Tuning, next http.Handler) http.Handler {
	general, urgent := &slots{}, &slots{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t := tuning()
		api := strings.HasPrefix(r.URL.Path, "/api/") && r.URL.Path != "/api/ws"
		if t.Compression && r.Header.Get("Upgrade") == "" && acceptsGzip(r) && r.URL.Path != "/api/ws" {
			gz := &gzipWriter{ResponseWriter: w}
			defer gz.Close()
			w = gz
		}
		if !api {
			next.ServeHTTP(w, r)
			return
		}
		bufferBody(r)
		ctx := r.Context()
		if t.RequestTimeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, t.RequestTimeout)
			defer cancel()
		}
		if t.MaxConcurrent > 0 {
			lane, size := general, t.MaxConcurrent
			if priorityRequest(r) {
				lane, size = urgent, urgentSlots
			}
			if !lane.take(ctx, size) {
				fail(w, r, domain.Errorf(domain.EUnavailable, "The server is busy: too many concurrent requests; try again shortly"))
				return
			}
			defer lane.give()
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// urgentSlots is the size of the lane the emergency stop, resume and
// cancels use: each is one quick exchange call, and a few at once is all a
// person at the Stop button or an Orders screen produces.
const urgentSlots = 4

// priorityRequest reports the calls that reduce risk and must never queue
// behind other work: POST /api/trading/stop, POST /api/trading/resume and
// DELETE /api/trading/orders/{id}.
func priorityRequest(r *http.Request) bool {
	switch r.Method {
	case http.MethodPost:
		return r.URL.Path == "/api/trading/stop" || r.URL.Path == "/api/trading/resume"
	case http.MethodDelete:
		id, found := strings.CutPrefix(r.URL.Path, "/api/trading/orders/")
		return found && id != "" && !strings.Contains(id, "/")
	}
	return false
}

// slots is a counting semaphore whose waiters give up when their context
// ends; its size is read per request, as the settings may change it.
type slots struct {
	mu       sync.Mutex
	cond     *sync.Cond
	inFlight int
}

func (s *slots) take(ctx context.Context, size int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cond == nil {
		s.cond = sync.NewCond(&s.mu)
	}
	stopWaking := context.AfterFunc(ctx, func() { s.mu.Lock(); s.cond.Broadcast(); s.mu.Unlock() })
	defer stopWaking()
	for s.inFlight >= size && ctx.Err() == nil {
		s.cond.Wait()
	}
	if ctx.Err() != nil {
		return false
	}
	s.inFlight++
	return true
}

func (s *slots) give() {
	s.mu.Lock()
	s.inFlight--
	s.cond.Signal()
	s.mu.Unlock()
}

// bufferBody reads the whole request body (bounded by withBodyLimit and the
// server's read timeout) before the request competes for a slot. The
// handler reads the same bytes, then the error that ended the read (a body
// over the limit still becomes a 413 in decode).
func bufferBody(r *http.Request) {
	if r.Body == nil || r.Body == http.NoBody {
		return
	}
	b, err := io.ReadAll(r.Body)
	r.Body.Close()
	r.Body = &bufferedBody{Reader: bytes.NewReader(b), err: err}
}

// bufferedBody replays a read body and the error its read ended with.
type bufferedBody struct {
	*bytes.Reader
	err error
}

func (b *bufferedBody) Read(p []byte) (int, error) {
	n, err := b.Reader.Read(p)
	if err == io.EOF && b.err != nil {
		return n, b.err
	}
	return n, err
}

func (b *bufferedBody) Close() error { return nil }

// gzipMinSize is the smallest body worth compressing: below about one
// packet gzip saves nothing on the wire and cost a tenth of an order's time
// (the compressor's reset and flush).
const gzipMinSize = 1400

// gzipWriter compresses the body once it reaches gzipMinSize; a smaller
// body goes out as it is when the handler is done (Close).
type gzipWriter struct {
	http.ResponseWriter
	gz      *gzip.Writer
	code    int    // status the handler set, sent once compression is decided
	buf     []byte // the body so far, while undecided
	decided bool
}

func (g *gzipWriter) WriteHeader(code int) {
	if g.code == 0 {
		g.code = code
	}
	if code == http.StatusNoContent || code == http.StatusNotModified || code < 200 {
		g.decide(false)
	}
}

// decide sends the headers, compressing or not, and what was buffered.
func (g *gzipWriter) decide(compress bool) error {
	if g.decided {
		return nil
	}
	g.decided = true
	if g.code == 0 {
		g.code = http.StatusOK
	}
	h := g.Header()
	if compress && h.Get("Content-Encoding") == "" && !isEventStream(h) {
		h.Del("Content-Length")
		h.Set("Content-Encoding", "gzip")
		h.Add("Vary", "Accept-Encoding")
		g.gz = gzipPool.Get().(*gzip.Writer)
		g.gz.Reset(g.ResponseWriter)
	}
	g.ResponseWriter.WriteHeader(g.code)
	if len(g.buf) == 0 {
		return nil
	}
	var err error
	if g.gz != nil {
		_, err = g.gz.Write(g.buf)
	} else {
		_, err = g.ResponseWriter.Write(g.buf)
	}
	g.buf = nil
	return err
}

func (g *gzipWriter) Write(b []byte) (int, error) {
	if !g.decided {
		if len(g.buf)+len(b) < gzipMinSize {
			g.buf = append(g.buf, b...)
			return len(b), nil
		}
		if err := g.decide(true); err != nil {
			return 0, err
		}
	}
	if g.gz != nil {
		return g.gz.Write(b)
	}
	return g.ResponseWriter.Write(b)
}

// Close sends a body too small to compress, or ends the compressed one.
func (g *gzipWriter) Close() error {
	if !g.decided {
		if g.code == 0 && len(g.buf) == 0 {
			return nil // nothing was written: leave the response to the server
		}
		return g.decide(false)
	}
	if g.gz == nil {
		return nil
	}
	err := g.gz.Close()
	gzipPool.Put(g.gz)
	g.gz = nil
	return err
}

// gzipPool reuses compressors: each holds about a megabyte of tables.
var gzipPool = sync.Pool{New: func() any { w, _ := gzip.NewWriterLevel(io.Discard, gzip.DefaultCompression); return w }}

// FlushError sends what the handler wrote so far: a flush is the handler
// saying the client needs it now (an event of a stream), so an undecided
// body goes out as it is (a compressed one, flushed through the
// compressor), with its headers. Without it a flush reached the connection
// past this writer: the headers left without Content-Encoding, the
// buffered event stayed behind, and a later compressed part arrived as
// unreadable bytes (the MCP SDK's multi-part replies).
func (g *gzipWriter) FlushError() error {
	if !g.decided {
		if err := g.decide(false); err != nil {
			return err
		}
	}
	if g.gz != nil {
		if err := g.gz.Flush(); err != nil {
			return err
		}
	}
	return http.NewResponseController(g.ResponseWriter).Flush()
}

// Flush is FlushError for callers that type-assert http.Flusher.
func (g *gzipWriter) Flush() { _ = g.FlushError() }

// isEventStream reports a server-sent event stream: never compressed, as
// each event must reach the client when it is written.
func isEventStream(h http.Header) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(h.Get("Content-Type"))), "text/event-stream")
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (g *gzipWriter) Unwrap() http.ResponseWriter { return g.ResponseWriter }

var _ io.Writer = (*gzipWriter)(nil)
