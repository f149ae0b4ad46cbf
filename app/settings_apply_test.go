package app_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"testing"
	"testing/fstest"
	"time"

	"kestrel/app"
	"kestrel/httpapi"
)

// The session timeout (system.security.sessionTimeout) is the lifetime a
// sign-in gets from the moment the setting is saved: 5 minutes, then 2
// hours, where the process default is one hour.
func TestSessionTimeoutFromSettings(t *testing.T) {
	s := start(t, t.TempDir())
	op, _ := s.accounts()
	for _, c := range []struct {
		ms   string
		want time.Duration
	}{{"300000", 5 * time.Minute}, {"7200000", 2 * time.Hour}} {
		if r := s.do("PUT", "/api/settings", op, `{"system":{"security":{"sessionTimeout":`+c.ms+`}}}`); r.Status != 200 {
			t.Fatalf("save session timeout %s: %+v", c.ms, r)
		}
		before := time.Now()
		token := s.login("op@example.com", "operator-pass")
		sum := sha256.Sum256([]byte(token))
		ss, err := s.app.Store.SessionByHash(context.Background(), hex.EncodeToString(sum[:]))
		if err != nil {
			t.Fatal(err)
		}
		if life := ss.ExpiresAt.Sub(before); life < c.want-time.Minute || life > c.want+time.Minute {
			t.Errorf("session timeout %s ms: a new session lives %v, want %v", c.ms, life.Round(time.Second), c.want)
		}
	}
}

// Static caching (system.performance.enableCaching and cacheTimeout) sets
// the Cache-Control of the web app's unhashed files as soon as it is saved.
func TestStaticCachingFromSettings(t *testing.T) {
	cfg := app.Defaults()
	cfg.Addr, cfg.DataDir = "127.0.0.1:0", t.TempDir()
	ui := fstest.MapFS{"index.html": {Data: []byte("<!doctype html>")}, "favicon.svg": {Data: []byte("<svg/>")}}
	a, err := app.New(context.Background(), cfg, httpapi.BuildInfo{Version: "test"}, ui)
	if err != nil {
		t.Fatal(err)
	}
	go a.Run(context.Background())
	t.Cleanup(func() { a.Close() })
	s := &server{t: t, app: a, url: a.URL()}
	op, _ := s.accounts()
	cacheControl := func() string {
		t.Helper()
		res, err := http.Get(s.url + "/favicon.svg")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("favicon: %d", res.StatusCode)
		}
		return res.Header.Get("Cache-Control")
	}
	for _, c := range []struct{ body, want string }{
		{`{"system":{"performance":{"enableCaching":true,"cacheTimeout":120000}}}`, "public, max-age=120"},
		{`{"system":{"performance":{"cacheTimeout":900000}}}`, "public, max-age=900"},
		{`{"system":{"performance":{"enableCaching":false}}}`, "no-cache"},
	} {
		if r := s.do("PUT", "/api/settings", op, c.body); r.Status != 200 {
			t.Fatalf("save %s: %+v", c.body, r)
		}
		if got := cacheControl(); got != c.want {
			t.Errorf("after %s: Cache-Control %q, want %q", c.body, got, c.want)
		}
	}
}
