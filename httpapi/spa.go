package httpapi

import (
	"errors"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"
)

// spaHandler serves the built app and falls back to index.html for client
// routes, so /trading/orders loads the app, which then routes itself.
func spaHandler(ui fs.FS, tuning func() Tuning) http.Handler {
	if ui == nil {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "This build of Kestrel has no web UI (built with the noui tag); the API is at /api.", http.StatusNotFound)
		})
	}
	files := http.FileServerFS(ui)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if name == "" || name == "index.html" {
			serveIndex(w, r, ui)
			return
		}
		if _, err := fs.Stat(ui, name); errors.Is(err, fs.ErrNotExist) {
			if strings.HasPrefix(name, "assets/") {
				http.NotFound(w, r) // a missing asset is a real 404, not a route
				return
			}
			serveIndex(w, r, ui)
			return
		}
		caching, maxAge := true, 5*time.Minute
		if tuning != nil {
			t := tuning()
			caching, maxAge = t.Caching, t.CacheTimeout
		}
		switch {
		case name == "sw.js" || name == "manifest.webmanifest":
			// The service worker and the manifest keep their names across
			// releases: revalidated each time, so an update reaches every
			// browser at its next load (browsers cap a worker's cache at 24 h anyway).
			w.Header().Set("Cache-Control", "no-cache")
			if name == "manifest.webmanifest" {
				w.Header().Set("Content-Type", "application/manifest+json") // not in Go's built-in types
			}
		case !caching:
			w.Header().Set("Cache-Control", "no-cache")
		case strings.HasPrefix(name, "assets/"):
			// Vite names assets by content hash: they never change.
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		default:
			w.Header().Set("Cache-Control", "public, max-age="+strconv.Itoa(int(maxAge.Seconds())))
		}
		files.ServeHTTP(w, r)
	})
}

func serveIndex(w http.ResponseWriter, r *http.Request, ui fs.FS) {
	body, err := fs.ReadFile(ui, "index.html")
	if err != nil {
		http.Error(w, "web UI not built: run `make build`", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(body)
}
