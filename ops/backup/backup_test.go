package backup_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"kestrel/ops/backup"
	"kestrel/settings"
)

// copier writes a small file in place of a database copy.
type copier struct{}

func (copier) BackupTo(_ context.Context, path string) error {
	return os.WriteFile(path, []byte("copy"), 0o600)
}

type clock struct{ t time.Time }

func (c *clock) Now() time.Time { return c.t }

type alerts struct{}

func (alerts) Raise(context.Context, string, string, string, string, string) {}

func platform(keep int) func() settings.Settings {
	s := settings.Settings{}
	s.System.Backup = settings.Backup{EnableAutoBackup: true, BackupInterval: 3600000, BackupRetention: keep}
	return func() settings.Settings { return s }
}

func TestTakeKeepsTheNewest(t *testing.T) {
	dir := t.TempDir()
	clk := &clock{time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC)}
	b := backup.New(copier{}, dir, platform(2), alerts{}, clk)
	for range 4 {
		if _, err := b.Take(context.Background()); err != nil {
			t.Fatal(err)
		}
		clk.t = clk.t.Add(time.Hour)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"kestrel-20260504T110000Z.db", "kestrel-20260504T120000Z.db"}; !slices.Equal(names, want) {
		t.Fatalf("kept %v, want %v", names, want)
	}
}

func TestTakeRefuses(t *testing.T) {
	clk := &clock{time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC)}
	dir := filepath.Join(t.TempDir(), "backups")
	if _, err := backup.New(nil, dir, platform(3), alerts{}, clk).Take(context.Background()); !errors.Is(err, backup.ErrUnsupported) {
		t.Errorf("without a copier: %v, want ErrUnsupported", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("refused backups created %s", dir)
	}
}
