package httpapi

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"

	"kestrel/domain"
)

// requireMetricsToken guards /metrics with a fixed bearer token from the
// configuration (empty: open). It is not a session: scrapers hold a static
// secret, and the API's own tokens do not open /metrics.
func requireMetricsToken(token string, next http.Handler) http.Handler {
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
