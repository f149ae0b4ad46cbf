package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"kestrel/domain"
	"kestrel/loadgen"
)

// readProbe is a request the outage test sends besides the flood while the
// database is unreachable: reads of every PostgreSQL-backed part, a sign-in,
// and a session no request has used yet (so no cache knows it). Each must
// answer 503 "unavailable" with a message, or succeed where a cache
// legitimately answers; a 500, or a 401 that would sign its user out, fails.
type readProbe struct {
	name         string
	method, path string
	body         any
	c            *loadgen.Client
	// store: nothing but the database can answer it, so at least one 503
	// is required (else the probe did not test the outage).
	store bool

	ok, refused int
}

// readProbes sends the reads as op, the flood's operator (whose session the
// server has cached), and signs in again for a session that stays unused
// until the outage.
func readProbes(t *testing.T, url string, op *loadgen.Client) []*readProbe {
	t.Helper()
	fresh := loadgen.NewClient(url, 1)
	if err := fresh.SignIn(context.Background(), "crash@example.com", "crash-test-pass", "", false); err != nil {
		t.Fatal(err)
	}
	anon := loadgen.NewClient(url, 1)
	get := func(name, path string, store bool) *readProbe {
		return &readProbe{name: name, method: http.MethodGet, path: path, c: op, store: store}
	}
	return []*readProbe{
		{name: "session not yet used", method: http.MethodGet, path: "/api/auth/me", c: fresh, store: true},
		{name: "sign-in", method: http.MethodPost, path: "/api/auth/login", c: anon, store: true,
			body: map[string]string{"email": "crash@example.com", "password": "crash-test-pass"}},
		get("users", "/api/users", true),
		get("audit log", "/api/audit", true),
		get("system logs", "/api/system/logs", false), // the in-memory ring may answer
		get("alerts", "/api/system/alerts", true),
		get("strategies", "/api/strategy/list", true),
		get("strategy decisions", "/api/strategy/ai-decisions", true),
		get("backtests", "/api/backtests", true),
		get("portfolio history", "/api/trading/portfolio/history", true),
		get("trade history", "/api/trading/history", true),
		get("settings", "/api/settings", true),
		get("system status", "/api/system/status", false),
	}
}

// sendProbes sends the probes one after another, over and over, until the
// returned function is called (it returns once they have stopped).
func sendProbes(t *testing.T, probes []*readProbe) (stop func()) {
	var halt atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !halt.Load() {
			for _, p := range probes {
				p.send(t)
			}
		}
	}()
	return func() { halt.Store(true); <-done }
}

// send sends p once and counts the answer; an answer neither a success nor
// a 503 "unavailable" envelope with a message is an error.
func (p *readProbe) send(t *testing.T) {
	_, err := p.c.Do(context.Background(), p.method, p.path, p.body, nil)
	var ae *loadgen.APIError
	switch {
	case err == nil:
		p.ok++
	case errors.As(err, &ae) && ae.Status == http.StatusServiceUnavailable && ae.Code == domain.EUnavailable && ae.Message != "":
		p.refused++
	default:
		t.Errorf("%s (%s %s) while the database is unreachable: %v", p.name, p.method, p.path, err)
	}
}

// checkProbes requires a 503 from every probe only the database can answer,
// and says what each answered.
func checkProbes(t *testing.T, probes []*readProbe) string {
	t.Helper()
	var parts []string
	for _, p := range probes {
		if p.store && p.refused == 0 {
			t.Errorf("%s (%s %s) was never refused while the database was unreachable (%d successes)", p.name, p.method, p.path, p.ok)
		}
		parts = append(parts, fmt.Sprintf("%s %d×503 %d×ok", p.name, p.refused, p.ok))
	}
	slices.Sort(parts)
	return strings.Join(parts, ", ")
}

// probesRecovered requires every probe to succeed once the database is
// back: the session refused during the outage still signs its user in.
func probesRecovered(t *testing.T, probes []*readProbe) {
	t.Helper()
	for _, p := range probes {
		if _, err := p.c.Do(context.Background(), p.method, p.path, p.body, nil); err != nil {
			t.Errorf("%s (%s %s) once the database is back: %v", p.name, p.method, p.path, err)
		}
	}
}
