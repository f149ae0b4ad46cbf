package backup

import (
	"testing"
	"time"

	"kestrel/settings"
)

type fixedClock struct{ t time.Time }

func (c *fixedClock) Now() time.Time { return c.t }

// An automatic backup is due once the interval has passed since the last,
// and never while the switch is off (system.backup.enableAutoBackup and
// backupInterval).
func TestDueFollowsTheSwitchAndTheInterval(t *testing.T) {
	last := time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		on      bool
		every   int // ms
		elapsed time.Duration
		want    bool
	}{
		{true, 3600000, 59 * time.Minute, false},
		{true, 3600000, time.Hour, true},
		{true, 7200000, time.Hour, false},
		{false, 3600000, 5 * time.Hour, false},
	} {
		s := settings.Settings{}
		s.System.Backup = settings.Backup{EnableAutoBackup: c.on, BackupInterval: c.every, BackupRetention: 1}
		b := New(nil, t.TempDir(), func() settings.Settings { return s }, nil, &fixedClock{last.Add(c.elapsed)})
		if got := b.due(last); got != c.want {
			t.Errorf("on %v, every %d ms, %s after the last: due %v, want %v", c.on, c.every, c.elapsed, got, c.want)
		}
	}
}
