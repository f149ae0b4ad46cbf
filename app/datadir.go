package app

import (
	"fmt"
	"log/slog"
	"os"
)

// ensureDataDir creates the data directory readable by its owner only (it
// holds the database, its backups and the sealing key). An existing
// directory keeps the mode its administrator gave it; a warning says when
// others can read it.
func ensureDataDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create data directory: %w", err)
	}
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		slog.Warn("the data directory is accessible to other accounts; restrict it with chmod 700", "dir", dir,
			"mode", fmt.Sprintf("%#o", st.Mode().Perm()), "component", "security")
	}
	return nil
}
