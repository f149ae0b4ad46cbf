package httpapi

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestTuningLimitsConcurrencyAndTimesOut(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	running := 0
	h := withTuning(func() Tuning { return Tuning{MaxConcurrent: 1, RequestTimeout: 200 * time.Millisecond} },
		http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			running++
			mu.Unlock()
			<-release
			ok(w, "done")
		}))
	srv := httptest.NewServer(h)
	defer srv.Close()

	first := make(chan int)
	go func() {
		res, err := http.Get(srv.URL + "/api/slow")
		if err != nil {
			first <- 0
			return
		}
		res.Body.Close()
		first <- res.StatusCode
	}()
	for i := 0; i < 100; i++ { // wait until the first request holds the only slot
		mu.Lock()
		n := running
		mu.Unlock()
		if n == 1 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	res, err := http.Get(srv.URL + "/api/second")
	if err != nil {
		t.Fatal(err)
	}
	var env struct {
		Success bool
		Error   struct{ Code, Message string }
	}
	json.NewDecoder(res.Body).Decode(&env)
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || env.Error.Code != "unavailable" || !strings.Contains(env.Error.Message, "busy") {
		t.Fatalf("second request while the slot is taken: %d %+v", res.StatusCode, env)
	}
	close(release)
	if code := <-first; code != 200 {
		t.Fatalf("first request: %d", code)
	}
}

func TestTuningCompresses(t *testing.T) {
	body := strings.Repeat(`{"price":"68000.00"}`, 200)
	h := withTuning(func() Tuning { return Tuning{Compression: true} }, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}))
	for _, enc := range []string{"gzip", ""} {
		req := httptest.NewRequest("GET", "/api/x", nil)
		if enc != "" {
			req.Header.Set("Accept-Encoding", enc)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		got := rec.Body.String()
		if enc == "gzip" {
			if rec.Header().Get("Content-Encoding") != "gzip" {
				t.Fatal("no gzip encoding")
			}
			zr, err := gzip.NewReader(rec.Body)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(zr)
			got = string(b)
			if rec.Body.Len() >= len(body) {
				t.Errorf("compressed %d bytes is not smaller than %d", rec.Body.Len(), len(body))
			}
		} else if rec.Header().Get("Content-Encoding") != "" {
			t.Fatal("compressed for a client that did not ask")
		}
		if got != body {
			t.Fatalf("%q: body changed", enc)
		}
	}
}

func TestTuningSendsSmallBodiesAsTheyAre(t *testing.T) {
	body := `{"success":true,"data":{"order_id":"o-1"}}`
	h := withTuning(func() Tuning { return Tuning{Compression: true} }, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, body)
	}))
	req := httptest.NewRequest("POST", "/api/x", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusCreated || rec.Header().Get("Content-Encoding") != "" || rec.Body.String() != body {
		t.Fatalf("status %d, encoding %q, body %q: want 201, none, the body", rec.Code, rec.Header().Get("Content-Encoding"), rec.Body.String())
	}
}

// The emergency stop, resume and cancels have a lane of their own: with
// every general slot taken by a request that does not finish, they still
// run at once.
func TestTuningKeepsALaneForRiskReducingCalls(t *testing.T) {
	release := make(chan struct{})
	holding := make(chan struct{}, 1)
	h := withTuning(func() Tuning { return Tuning{MaxConcurrent: 1, RequestTimeout: 5 * time.Second} },
		http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/api/slow" {
				holding <- struct{}{}
				<-release
			}
			ok(w, r.Method+" "+r.URL.Path)
		}))
	srv := httptest.NewServer(h)
	defer srv.Close()
	defer close(release)
	go http.Get(srv.URL + "/api/slow")
	<-holding // the only general slot is taken

	for _, c := range []struct{ method, path string }{
		{"POST", "/api/trading/stop"}, {"POST", "/api/trading/resume"}, {"DELETE", "/api/trading/orders/abc-123"},
	} {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("%s %s with the general slot taken: %d", c.method, c.path, res.StatusCode)
		}
	}
	for _, c := range []struct{ method, path string }{{"DELETE", "/api/trading/orders/a/b"}, {"GET", "/api/trading/stop"}, {"POST", "/api/trading/execute"}} {
		req := httptest.NewRequest(c.method, c.path, nil)
		if priorityRequest(req) {
			t.Errorf("%s %s is in the priority lane", c.method, c.path)
		}
	}
}
