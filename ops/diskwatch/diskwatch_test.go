package diskwatch_test

import (
	"context"
	"strings"
	"testing"

	"kestrel/domain"
	"kestrel/ops/diskwatch"
)

type alerts struct{ raised, resolved int }

func (a *alerts) Raise(_ context.Context, key, _, _, _, _ string) {
	if key == diskwatch.AlertKey {
		a.raised++
	}
}
func (a *alerts) ResolveKey(context.Context, string, string) bool { a.resolved++; return true }

// A simulated full disk refuses new work with 507's code and raises the
// alert once; freed space lets work through again and resolves it.
func TestLowDiskRefusesWorkAndAlerts(t *testing.T) {
	free := uint64(100 << 20)
	al := &alerts{}
	w := &diskwatch.Watch{Dir: t.TempDir(), Free: func(string) (uint64, error) { return free, nil }, MinFreeMB: func() int { return 1024 }, Alerts: al}
	ctx := context.Background()
	err := w.Check(ctx)
	if domain.ErrorCode(err) != domain.ENoSpace || !strings.Contains(domain.ErrorMessage(err), "100 MB free, less than the 1024 MB") {
		t.Fatalf("check below the threshold: %v", err)
	}
	w.Poll(ctx)
	_ = w.Check(ctx)
	if al.raised != 1 || al.resolved != 0 {
		t.Fatalf("alerts raised %d resolved %d, want 1 and 0", al.raised, al.resolved)
	}
	free = 2 << 30
	if err := w.Check(ctx); err != nil {
		t.Fatalf("check above the threshold: %v", err)
	}
	w.Poll(ctx)
	if al.resolved != 1 {
		t.Fatalf("resolved %d, want 1", al.resolved)
	}
}

// The real reading of a temporary directory is a positive number, and a
// zero threshold refuses nothing.
func TestFreeBytesAndNoThreshold(t *testing.T) {
	n, err := diskwatch.FreeBytes(t.TempDir())
	if err != nil || n == 0 {
		t.Fatalf("free %d %v", n, err)
	}
	w := &diskwatch.Watch{Dir: t.TempDir(), Free: func(string) (uint64, error) { return 0, nil }, MinFreeMB: func() int { return 0 }}
	if err := w.Check(context.Background()); err != nil {
		t.Fatalf("no threshold: %v", err)
	}
}
