package httpapi

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
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
	packed := &gzipAssets{ui: ui}
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
			if (tuning == nil || tuning().Compression) && packed.serve(w, r, name) {
				return
			}
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

// gzipAssets serves the app's hashed assets gzip-compressed from memory:
// each is compressed once, at the best level, on its first request, not on
// every request as the general compression does (the app's main script
// took 12 ms to compress on each cold load, on the first paint's path).
type gzipAssets struct {
	ui    fs.FS
	cache sync.Map // name -> []byte, gzip
}

// compressible are the asset types gzip makes smaller (not images or fonts,
// which are compressed already).
var compressible = map[string]bool{".js": true, ".css": true, ".svg": true, ".json": true}

// serve answers a GET or HEAD for asset name with its gzip bytes when the
// client takes gzip and the type compresses; false leaves it to the file
// server.
func (g *gzipAssets) serve(w http.ResponseWriter, r *http.Request, name string) bool {
	if !compressible[path.Ext(name)] || !acceptsGzip(r) {
		return false
	}
	body, ok := g.cache.Load(name)
	if !ok {
		raw, err := fs.ReadFile(g.ui, name)
		if err != nil {
			return false
		}
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		if _, err := zw.Write(raw); err != nil || zw.Close() != nil {
			return false
		}
		body, _ = g.cache.LoadOrStore(name, b.Bytes())
	}
	gz := body.([]byte)
	h := w.Header()
	h.Set("Content-Type", mime.TypeByExtension(path.Ext(name))) // as the file server would
	h.Set("Content-Encoding", "gzip")
	h.Add("Vary", "Accept-Encoding")
	h.Set("Content-Length", strconv.Itoa(len(gz)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(gz)
	}
	return true
}

// acceptsGzip reports whether the request's Accept-Encoding takes gzip
// (and does not refuse it with q=0).
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(coding), "gzip") {
			q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}
