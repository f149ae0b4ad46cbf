package app_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// On a fresh data directory the directory, the database and its journal
// files, the sealing key, the backups directory and a backup are readable by
// their owner only, whatever the umask lets through.
func TestDataFilesArePrivate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX modes")
	}
	dir := filepath.Join(t.TempDir(), "data")
	s := start(t, dir)
	s.accounts() // writes, so the WAL exists
	backup, err := s.app.Backups.Take(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]fs.FileMode{
		dir:                                  0o700,
		filepath.Join(dir, "kestrel.db"):     0o600,
		filepath.Join(dir, "kestrel.db-wal"): 0o600,
		filepath.Join(dir, "kestrel.db-shm"): 0o600,
		filepath.Join(dir, "secret.key"):     0o600,
		filepath.Join(dir, "backups"):        0o700,
		backup:                               0o600,
	}
	for path, mode := range want {
		st, err := os.Stat(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if got := st.Mode().Perm(); got != mode {
			t.Errorf("%s: mode %#o, want %#o", path, got, mode)
		}
	}
}

// A database an earlier version left readable by others is narrowed on open.
func TestExistingDatabaseIsNarrowed(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX modes")
	}
	dir := t.TempDir()
	start(t, dir).app.Close()
	db := filepath.Join(dir, "kestrel.db")
	if err := os.Chmod(db, 0o644); err != nil {
		t.Fatal(err)
	}
	start(t, dir)
	if st, err := os.Stat(db); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("database mode after reopening: %v, %v; want 0600", st.Mode().Perm(), err)
	}
}
