package app_test

import (
	"errors"
	"fmt"
	"net"
	"os"
	"testing"
	"time"
)

// Ten clients that send their headers and never finish the body hold no
// request slot: the emergency stop, and any other call, answers while they
// hang (issue 21, item 1).
func TestSlowClientsDoNotDelayTheEmergencyStop(t *testing.T) {
	s := start(t, t.TempDir())
	op, trader := s.accounts()
	// A short request timeout: without the fix the stop would wait this
	// long for a slot and answer 503.
	if r := s.do("PUT", "/api/settings", op, `{"system":{"performance":{"maxConcurrentRequests":10,"requestTimeout":5000}}}`); !r.Success {
		t.Fatalf("settings: %+v", r)
	}

	slow := make([]net.Conn, 10)
	for i := range slow {
		c, err := net.Dial("tcp", s.app.Addr())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "POST /api/auth/login HTTP/1.1\r\nHost: kestrel\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"email\":")
		slow[i] = c
	}
	time.Sleep(200 * time.Millisecond) // let the server take their headers in (nothing is timed by this)

	began := time.Now()
	if r := s.do("POST", "/api/trading/stop", trader, ""); r.Status != 200 || !r.Success {
		t.Fatalf("emergency stop while ten clients hang: %+v", r)
	}
	t.Logf("emergency stop answered in %s with ten slow clients connected", time.Since(began))
	if r := s.do("GET", "/api/auth/me", trader, ""); r.Status != 200 {
		t.Fatalf("an ordinary call while ten clients hang: %+v", r)
	}
	if r := s.do("POST", "/api/trading/resume", op, ""); r.Status != 200 {
		t.Fatalf("resume while ten clients hang: %+v", r)
	}

	// The slow clients were still hanging, unanswered, all along.
	for i, c := range slow {
		c.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
		n, err := c.Read(make([]byte, 1))
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("slow client %d was answered or closed (%d bytes, %v): the test did not hold it", i, n, err)
		}
	}
}
