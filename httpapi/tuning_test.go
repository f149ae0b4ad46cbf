package httpapi

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"log"
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

// A stream of server-sent events through compression, read by a real HTTP
// client that accepts gzip (Go's, as Node's fetch, asks for it on its
// own): every event arrives, readable, when it is written (the handler
// writes the next only once the client has read the last), and the server
// logs no "superfluous WriteHeader". Before, a flush passed the compressor:
// the headers left without Content-Encoding, the first event stayed in the
// buffer and the next arrived compressed.
func TestTuningStreamsEventsToAGzipClient(t *testing.T) {
	events := []string{`{"n":1}`, strings.Repeat("x", 3000), `{"n":3}`, strings.Repeat("y", 200)}
	read := make(chan struct{})
	h := withTuning(func() Tuning { return Tuning{Compression: true} }, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		for _, e := range events {
			io.WriteString(w, "event: message\ndata: "+e+"\n\n")
			http.NewResponseController(w).Flush()
			select {
			case <-read:
			case <-r.Context().Done():
				return
			}
		}
	}))
	var logged strings.Builder
	var logMu sync.Mutex
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ErrorLog = log.New(writerFunc(func(b []byte) (int, error) {
		logMu.Lock()
		defer logMu.Unlock()
		return logged.Write(b)
	}), "", 0)
	srv.Start()
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // a guard against a hang, not a measurement
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/mcp", nil)
	res, err := http.DefaultClient.Do(req) // asks for gzip itself and undoes it when the answer says so
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 64<<10), 64<<10)
	for i, want := range events {
		var got string
		for sc.Scan() {
			line := sc.Text()
			if d, ok := strings.CutPrefix(line, "data: "); ok {
				got = d
			}
			if line == "" && got != "" {
				break
			}
		}
		if got != want {
			t.Fatalf("event %d: got %.40q (encoding %q, read error %v), want %.40q", i+1, got, res.Header.Get("Content-Encoding"), sc.Err(), want)
		}
		read <- struct{}{}
	}
	srv.Close()
	logMu.Lock()
	defer logMu.Unlock()
	if strings.Contains(logged.String(), "superfluous") {
		t.Errorf("server log: %s", logged.String())
	}
}

// A small answer whose handler flushes (each MCP reply does) goes out once:
// no second WriteHeader.
func TestTuningFlushedSmallAnswerWritesHeaderOnce(t *testing.T) {
	h := withTuning(func() Tuning { return Tuning{Compression: true} }, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, `{"ok":true}`)
		http.NewResponseController(w).Flush()
	}))
	rec := &headerCounter{ResponseRecorder: httptest.NewRecorder()}
	req := httptest.NewRequest("POST", "/mcp", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	h.ServeHTTP(rec, req)
	if rec.writes != 1 || rec.Body.String() != `{"ok":true}` || rec.Header().Get("Content-Encoding") != "" {
		t.Fatalf("%d WriteHeader calls, body %q, encoding %q: want 1, the body, none", rec.writes, rec.Body.String(), rec.Header().Get("Content-Encoding"))
	}
}

type headerCounter struct {
	*httptest.ResponseRecorder
	writes int
}

func (h *headerCounter) WriteHeader(code int) { h.writes++; h.ResponseRecorder.WriteHeader(code) }
func (h *headerCounter) Write(b []byte) (int, error) {
	if !h.ResponseRecorder.Flushed && h.writes == 0 && h.Body.Len() == 0 {
		h.writes++
	}
	return h.ResponseRecorder.Write(b)
}
func (h *headerCounter) Flush() {
	if h.writes == 0 {
		h.writes++
	}
	h.ResponseRecorder.Flush()
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }
