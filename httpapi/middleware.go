package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"kestrel/domain"
	"kestrel/metrics"
)

type ctxKey int

const (
	keyRequestID ctxKey = iota
	keyUser
	keyAudit
	keyClientAddr
)

func requestID(ctx context.Context) string {
	id, _ := ctx.Value(keyRequestID).(string)
	return id
}

// userFrom returns the authenticated user; only call behind requireAuthAs.
func userFrom(ctx context.Context) domain.User {
	u, _ := ctx.Value(keyUser).(domain.User)
	return u
}

// auditNote lets handlers name the actor (login) or add detail to the audit entry.
type auditNote struct {
	userID, actor, detail string
	rider                 *domain.AuditRider // set by rideAudit
	riderStatus           int                // the answer rider's entry was written for
	skip                  bool               // a repeated rate-limit refusal: not written (skipAudit)
}

func noteAudit(ctx context.Context, userID, actor, detail string) {
	if n, ok := ctx.Value(keyAudit).(*auditNote); ok {
		if userID != "" {
			n.userID, n.actor = userID, actor
		}
		if detail != "" {
			n.detail = detail
		}
	}
}

// statusRecorder remembers the status a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (s *statusRecorder) WriteHeader(code int) {
	if !s.wrote {
		s.status, s.wrote = code, true
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if !s.wrote {
		s.status, s.wrote = http.StatusOK, true
	}
	return s.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the real writer (WebSocket hijack, flush).
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// withRequestID tags each request with an ID, echoed in X-Request-ID.
func withRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-ID")
		if id == "" || len(id) > 64 {
			b := make([]byte, 8)
			rand.Read(b)
			id = hex.EncodeToString(b)
		}
		w.Header().Set("X-Request-ID", id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), keyRequestID, id)))
	})
}

// withRecovery turns a panic into a logged 500 envelope instead of a dropped connection.
func withRecovery(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w}
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				slog.ErrorContext(r.Context(), "panic in handler", "panic", fmt.Sprint(v), "path", r.URL.Path,
					"request_id", requestID(r.Context()), "stack", string(debug.Stack()))
				if !rec.wrote {
					fail(rec, r, fmt.Errorf("panic: %v", v))
				}
			}
		}()
		next.ServeHTTP(rec, r)
	})
}

// cspPolicy suits the embedded SPA: everything from our own origin, inline
// styles for the chart library, nothing framed. connect-src 'self' covers
// the same-origin WebSocket (ws: on http, wss: on https: CSP Level 3, which
// every current browser implements), and no other host. worker-src and
// manifest-src name what default-src already allows, the service worker
// (/sw.js, Web Push) and the web app manifest, so neither can come from
// elsewhere if default-src ever changes.
const cspPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
	"font-src 'self' data:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'self'; " +
	"form-action 'self'; frame-ancestors 'none'"

func withSecurityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", cspPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		if r.TLS != nil {
			// Served over TLS by this process: browsers keep to HTTPS for a
			// year. (Behind a TLS proxy, the proxy sends it.)
			h.Set("Strict-Transport-Security", "max-age=31536000")
		}
		if strings.HasPrefix(r.URL.Path, "/api/") || r.URL.Path == "/metrics" {
			// Answers carry tokens, settings and balances: no cache, shared
			// or private, keeps a copy.
			h.Set("Cache-Control", "no-store")
		}
		next.ServeHTTP(w, r)
	})
}

// withBodyLimit caps request bodies; decode turns the overflow into a 413 envelope.
func withBodyLimit(limit int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, limit)
		}
		next.ServeHTTP(w, r)
	})
}

// withAccessLog logs each API request at debug level (errors are logged where they happen).
func withAccessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		slog.DebugContext(r.Context(), "http", "method", r.Method, "path", r.URL.Path, "status", rec.status,
			"dur_ms", time.Since(start).Milliseconds(), "request_id", requestID(r.Context()))
	})
}

// clientAddr is the client's IP: the peer's, or the one a trusted proxy
// forwarded (withClientAddr).
func clientAddr(r *http.Request) string {
	if a, ok := r.Context().Value(keyClientAddr).(string); ok {
		return a
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func bearerToken(r *http.Request) string {
	h := r.Header.Get("Authorization")
	if len(h) > 7 && strings.EqualFold(h[:7], "Bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

func isStateChanging(method string) bool {
	return method != http.MethodGet && method != http.MethodHead && method != http.MethodOptions
}

// withMetrics records each request under the route pattern the mux matched
// (set on r by the mux), keeping label cardinality bounded.
func withMetrics(m *metrics.Metrics, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		route := r.Pattern
		if route == "" || route == "/" {
			route = "other"
		}
		m.Observe(route, r.Method, rec.status, time.Since(start))
	})
}
