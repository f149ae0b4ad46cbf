package healthcheck_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"kestrel/ops/healthcheck"
	"kestrel/settings"
)

type pinger struct{ err error }

func (p pinger) Ping(context.Context) error { return p.err }

type alerts struct {
	mu   sync.Mutex
	keys []string
}

func (a *alerts) Raise(_ context.Context, key, severity, component, title, message string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.keys = append(a.keys, key+" "+severity+": "+message)
}

func (a *alerts) raised() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.keys...)
}

type counter struct{ n int }

func (c *counter) Inc() { c.n++ }

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name      string
		err       error
		wantOK    bool
		wantAlert string
	}{
		{"database answers", nil, true, ""},
		{"database down", errors.New("connection refused"), false, "database:unreachable critical: Health check failed: connection refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, c := &alerts{}, &counter{}
			if got := healthcheck.Check(context.Background(), pinger{tc.err}, a, c); got != tc.wantOK {
				t.Errorf("Check = %v, want %v", got, tc.wantOK)
			}
			got := ""
			if r := a.raised(); len(r) == 1 {
				got = r[0]
			}
			if got != tc.wantAlert {
				t.Errorf("alert = %q, want %q", got, tc.wantAlert)
			}
			if want := map[bool]int{true: 0, false: 1}[tc.wantOK]; c.n != want {
				t.Errorf("failures counted = %d, want %d", c.n, want)
			}
		})
	}
}

func TestInterval(t *testing.T) {
	for ms, want := range map[int]time.Duration{0: time.Minute, 500: time.Minute, 1000: time.Second, 30000: 30 * time.Second} {
		if got := healthcheck.Interval(settings.Monitoring{HealthCheckInterval: ms}); got != want {
			t.Errorf("Interval(%d ms) = %s, want %s", ms, got, want)
		}
	}
}

// The switch is read every round: checks stop raising once it is off.
func TestRunFollowsTheSwitch(t *testing.T) {
	var mu sync.Mutex
	s := settings.Settings{}
	s.System.Monitoring = settings.Monitoring{EnableHealthChecks: false, HealthCheckInterval: 1000}
	platform := func() settings.Settings { mu.Lock(); defer mu.Unlock(); return s }
	a := &alerts{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); healthcheck.Run(ctx, pinger{errors.New("down")}, platform, a, &counter{}) }()
	time.Sleep(1200 * time.Millisecond)
	if n := len(a.raised()); n != 0 {
		t.Fatalf("%d alerts while health checks are off", n)
	}
	mu.Lock()
	s.System.Monitoring.EnableHealthChecks = true
	mu.Unlock()
	for i := 0; i < 300 && len(a.raised()) == 0; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
	if len(a.raised()) == 0 {
		t.Fatal("no alert after switching health checks on")
	}
}
