// Package diskwatch watches the free space of the data directory's disk. A
// full disk stops every write, orders and cancels included, so below a
// threshold (settings system.quotas.minFreeDiskMB) the platform refuses new
// long work that writes much (backtests, sweeps, backfills) with a clear
// error and raises a system alert; it never refuses orders, cancels or the
// emergency stop. The reading is injectable (Watch.Free) so a test can
// simulate a full disk.
package diskwatch

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"kestrel/domain"
)

// AlertKey is the key of the low-disk alert.
const AlertKey = "disk:low"

// Every is how often Run reads the free space.
const Every = time.Minute

// Alerts raises and resolves the low-disk alert (alert.Service).
type Alerts interface {
	Raise(ctx context.Context, key, severity, component, title, message string)
	ResolveKey(ctx context.Context, key, by string) bool
}

// Watch reads the free space of Dir's file system.
type Watch struct {
	Dir string
	// Free reports the bytes free to the service on dir's file system
	// (nil: FreeBytes, the file system's own reading).
	Free func(dir string) (uint64, error)
	// MinFreeMB is the threshold in MiB (0: no threshold).
	MinFreeMB func() int
	Alerts    Alerts

	low atomic.Bool
}

// Check refuses new long work (domain.ENoSpace, 507) while the free space
// is below the threshold, raising the alert the first time; a reading that
// fails refuses nothing (it is logged).
func (w *Watch) Check(ctx context.Context) error {
	free, min, err := w.read()
	if err != nil {
		slog.Warn("read free disk space", "dir", w.Dir, "err", err)
		return nil
	}
	if min == 0 || free >= min {
		return nil
	}
	w.raise(ctx, free, min)
	return domain.Errorf(domain.ENoSpace, "The data directory's disk has %s free, less than the %s the platform keeps for trading (setting system.quotas.minFreeDiskMB): new backtests, sweeps and backfills are refused until space is freed; orders, cancels and the emergency stop still work",
		mib(free), mib(min))
}

// Poll reads the free space once: below the threshold it raises the alert,
// above it resolves it.
func (w *Watch) Poll(ctx context.Context) {
	free, min, err := w.read()
	if err != nil {
		slog.Warn("read free disk space", "dir", w.Dir, "err", err)
		return
	}
	if min > 0 && free < min {
		w.raise(ctx, free, min)
		return
	}
	if w.low.Swap(false) && w.Alerts != nil {
		w.Alerts.ResolveKey(ctx, AlertKey, "Kestrel")
	}
}

// Run polls now and then every interval until ctx ends.
func (w *Watch) Run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		w.Poll(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (w *Watch) read() (free, min uint64, err error) {
	if w.MinFreeMB != nil {
		min = uint64(max(w.MinFreeMB(), 0)) << 20
	}
	read := w.Free
	if read == nil {
		read = FreeBytes
	}
	free, err = read(w.Dir)
	return free, min, err
}

// raise raises the alert once per low spell.
func (w *Watch) raise(ctx context.Context, free, min uint64) {
	if w.low.Swap(true) || w.Alerts == nil {
		return
	}
	w.Alerts.Raise(ctx, AlertKey, domain.SeverityHigh, "system", "Disk space low",
		fmt.Sprintf("The data directory's disk has %s free, less than the %s kept for trading: new backtests, sweeps and backfills are refused until space is freed (orders, cancels and the emergency stop still work). Lower the retention settings or free space on the disk.", mib(free), mib(min)))
}

func mib(b uint64) string { return fmt.Sprintf("%d MB", b>>20) }
