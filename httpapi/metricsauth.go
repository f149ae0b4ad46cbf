package httpapi

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"

	"kestrel/domain"
)

// requireMetricsToken guards /metrics with a fixed bearer token from the
// configuration (empty: open, or closed when closed is set: the server
// listens beyond loopback). It is not a session: scrapers hold a static
// secret, and the API's own tokens do not open /metrics.
func requireMetricsToken(token string, closed bool, next http.Handler) http.Handler {
	if token == "" && closed {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fail(w, r, domain.Errorf(domain.EForbidden, "/metrics is closed on a server listening beyond loopback; start it with --metrics-token and scrape with that bearer token"))
		})
	}
	if token == "" {
		return next
	}
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Comparing digests keeps the time independent of the length and
		// content of what was sent.
		got := sha256.Sum256([]byte(bearerToken(r)))
		if subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			fail(w, r, domain.Errorf(domain.EUnauthorized, "A valid metrics token is required (Authorization: Bearer <token>)"))
			return
		}
		next.ServeHTTP(w, r)
	})
}
