package marketwatch_test

import (
	"context"
	"testing"
	"time"

	"kestrel/ops/marketwatch"
)

// std is the watcher with the default threshold (StaleAfter).
var std marketwatch.Watcher

type alerts struct{ got []string }

func (a *alerts) Raise(_ context.Context, key, severity, component, title, message string) {
	a.got = append(a.got, key+" "+severity+": "+message)
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		age  time.Duration
		want string
	}{
		{"no tick yet", -1, ""},
		{"fresh", time.Second, ""},
		{"just at the limit", 30 * time.Second, ""},
		{"stale", 47*time.Second + 400*time.Millisecond, "market:stale high: No price update for 47s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := &alerts{}
			raised := std.Check(context.Background(), tc.age, a)
			got := ""
			if len(a.got) == 1 {
				got = a.got[0]
			}
			if got != tc.want || raised != (tc.want != "") {
				t.Errorf("Check(%s) = %v, alert %q; want %q", tc.age, raised, got, tc.want)
			}
		})
	}
}

type resolving struct {
	alerts
	resolved []string
}

func (r *resolving) ResolveKey(_ context.Context, key, by string) bool {
	r.resolved = append(r.resolved, key+" by "+by)
	return true
}

// A stale feed raises the alert and pauses automation; fresh prices resolve
// the alert and let automation trade again.
func TestWatchRaisesThenResolves(t *testing.T) {
	a := &resolving{}
	stale := std.Watch(context.Background(), false, 45*time.Second, a)
	if !stale || len(a.got) != 1 || std.Stale(45*time.Second) != "Automation paused: no market data for 45s" {
		t.Fatalf("stale: %v %v", stale, a.got)
	}
	stale = std.Watch(context.Background(), stale, time.Second, a)
	if stale || len(a.resolved) != 1 || a.resolved[0] != "market:stale by system" || std.Stale(time.Second) != "" {
		t.Fatalf("fresh again: %v %v", stale, a.resolved)
	}
	if std.Watch(context.Background(), false, time.Second, a); len(a.resolved) != 1 {
		t.Fatal("a fresh feed that was never stale resolves nothing")
	}
}

// A Watcher's own threshold decides both the alert and the pause.
func TestWatcherThreshold(t *testing.T) {
	w := marketwatch.Watcher{After: 2 * time.Second}
	a := &alerts{}
	if w.Check(context.Background(), 2*time.Second, a) || w.Stale(2*time.Second) != "" {
		t.Fatalf("stale at the threshold: %v", a.got)
	}
	if !w.Check(context.Background(), 2600*time.Millisecond, a) || len(a.got) != 1 || a.got[0] != "market:stale high: No price update for 3s" {
		t.Fatalf("past the threshold: %v", a.got)
	}
	if got := w.Stale(2600 * time.Millisecond); got != "Automation paused: no market data for 3s" {
		t.Fatalf("pause reason %q", got)
	}
}
