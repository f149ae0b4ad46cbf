package httpapi

import (
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
func withTuning(tuning func() Tuning, next http.Handler) http.Handler {
	var mu sync.Mutex
	inFlight := 0
	cond := sync.NewCond(&mu)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t := tuning()
		api := strings.HasPrefix(r.URL.Path, "/api/") && r.URL.Path != "/api/ws"
		if t.Compression && r.Header.Get("Upgrade") == "" && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") && r.URL.Path != "/api/ws" {
			gz := &gzipWriter{ResponseWriter: w}
			defer gz.Close()
			w = gz
		}
		if !api {
			next.ServeHTTP(w, r)
			return
		}
		ctx := r.Context()
		if t.RequestTimeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, t.RequestTimeout)
			defer cancel()
		}
		if t.MaxConcurrent > 0 {
			stopWaking := context.AfterFunc(ctx, func() { mu.Lock(); cond.Broadcast(); mu.Unlock() })
			mu.Lock()
			for inFlight >= t.MaxConcurrent && ctx.Err() == nil {
				cond.Wait()
			}
			if ctx.Err() != nil {
				mu.Unlock()
				stopWaking()
				fail(w, r, domain.Errorf(domain.EUnavailable, "The server is busy: too many concurrent requests; try again shortly"))
				return
			}
			inFlight++
			mu.Unlock()
			stopWaking()
			defer func() { mu.Lock(); inFlight--; cond.Signal(); mu.Unlock() }()
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// gzipWriter compresses the body once the handler has set its headers.
type gzipWriter struct {
	http.ResponseWriter
	gz      *gzip.Writer
	started bool
}

func (g *gzipWriter) WriteHeader(code int) {
	if !g.started {
		g.started = true
		h := g.Header()
		if h.Get("Content-Encoding") == "" && code != http.StatusNoContent && code != http.StatusNotModified {
			h.Del("Content-Length")
			h.Set("Content-Encoding", "gzip")
			h.Add("Vary", "Accept-Encoding")
			g.gz = gzipPool.Get().(*gzip.Writer)
			g.gz.Reset(g.ResponseWriter)
		}
	}
	g.ResponseWriter.WriteHeader(code)
}

func (g *gzipWriter) Write(b []byte) (int, error) {
	if !g.started {
		g.WriteHeader(http.StatusOK)
	}
	if g.gz != nil {
		return g.gz.Write(b)
	}
	return g.ResponseWriter.Write(b)
}

func (g *gzipWriter) Close() error {
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

// Unwrap lets http.ResponseController reach the underlying writer.
func (g *gzipWriter) Unwrap() http.ResponseWriter { return g.ResponseWriter }

var _ io.Writer = (*gzipWriter)(nil)
