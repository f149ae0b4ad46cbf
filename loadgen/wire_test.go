package loadgen

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// The light client reads what Kestrel's server sends: a stated length, a
// chunked body (a handler that flushes), an error envelope, and a closed
// connection it has to open again.
func TestWireClientSpeaksHTTP(t *testing.T) {
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok" {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"success":false,"error":{"code":"unauthorized","message":"Sign in"}}`)
			return
		}
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/chunked":
			io.WriteString(w, `{"success":true,"data":{"order":{"id":"`)
			w.(http.Flusher).Flush() // no length known: chunked
			io.WriteString(w, string(body)+`","status":"open"}}}`)
		case "/close":
			w.Header().Set("Connection", "close")
			io.WriteString(w, `{"success":true,"data":{"order":{"id":"c","status":"open"}}}`)
		case "/refused":
			w.WriteHeader(http.StatusUnprocessableEntity)
			io.WriteString(w, `{"success":false,"error":{"code":"rejected","message":"Insufficient balance"}}`)
		default:
			io.WriteString(w, `{"success":true,"data":{"order":{"id":"plain","status":"filled"}}}`)
		}
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	c, err := newWireClient(srv.URL, "tok")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var out OrderReply
	if st, err := c.Do(ctx, "POST", "/chunked", []byte("abc"), &out); err != nil || st != 200 || out.Order.ID != "abc" {
		t.Fatalf("chunked: %d %v %+v", st, err, out)
	}
	if st, err := c.Do(ctx, "GET", "/plain", nil, &out); err != nil || st != 200 || out.Order.Status != "filled" {
		t.Fatalf("plain: %d %v %+v", st, err, out)
	}
	var ae *APIError
	if st, err := c.Do(ctx, "POST", "/refused", map[string]string{"a": "b"}, nil); st != 422 || !errors.As(err, &ae) || ae.Message != "Insufficient balance" {
		t.Fatalf("refused: %d %v", st, err)
	}
	if st, err := c.Do(ctx, "GET", "/close", nil, nil); err != nil || st != 200 {
		t.Fatalf("close: %d %v", st, err)
	}
	if st, err := c.Do(ctx, "GET", "/plain", nil, nil); err != nil || st != 200 {
		t.Fatalf("after close: %d %v", st, err)
	}
	if n := conns.Load(); n != 2 {
		t.Fatalf("%d connections, want 2 (one kept alive, one after the server closed it)", n)
	}
	c.token = "wrong"
	if st, err := c.Do(ctx, "GET", "/plain", nil, nil); st != 401 || !errors.As(err, &ae) || ae.Code != "unauthorized" {
		t.Fatalf("unauthorized: %d %v", st, err)
	}
	if !strings.HasPrefix(srv.URL, "http://") {
		t.Fatal(srv.URL)
	}
}
