package httpapi

import (
	"net/http/httptest"
	"testing"
	"testing/fstest"
	"time"
)

// Static caching follows the tuning read at each request: the unhashed
// files get the chosen max-age, or no-cache when caching is off; hashed
// assets are immutable while caching is on.
func TestTuningCachesStaticFiles(t *testing.T) {
	ui := fstest.MapFS{"index.html": {Data: []byte("<!doctype html>")}, "favicon.svg": {Data: []byte("<svg/>")},
		"assets/app-1a2b.js": {Data: []byte("console.log(1)")}}
	tuning := Tuning{Caching: true, CacheTimeout: 90 * time.Second}
	h := spaHandler(ui, func() Tuning { return tuning })
	get := func(name string) string {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/"+name, nil))
		if rec.Code != 200 {
			t.Fatalf("%s: %d", name, rec.Code)
		}
		return rec.Header().Get("Cache-Control")
	}
	for _, c := range []struct {
		caching            bool
		maxAge             time.Duration
		favicon, hashedApp string
	}{
		{true, 90 * time.Second, "public, max-age=90", "public, max-age=31536000, immutable"},
		{true, time.Hour, "public, max-age=3600", "public, max-age=31536000, immutable"},
		{false, time.Hour, "no-cache", "no-cache"},
	} {
		tuning.Caching, tuning.CacheTimeout = c.caching, c.maxAge
		if got := get("favicon.svg"); got != c.favicon {
			t.Errorf("caching %v, %v: favicon %q, want %q", c.caching, c.maxAge, got, c.favicon)
		}
		if got := get("assets/app-1a2b.js"); got != c.hashedApp {
			t.Errorf("caching %v: hashed asset %q, want %q", c.caching, got, c.hashedApp)
		}
	}
}
