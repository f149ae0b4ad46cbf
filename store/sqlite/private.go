package sqlite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// privateMode is the mode of the database, its journal files and its
// backups: they hold password hashes, sessions and the ledger, so only the
// account running Kestrel reads them.
const privateMode fs.FileMode = 0o600

// createPrivate creates the database file with privateMode before SQLite
// opens it (SQLite gives the WAL and shared-memory files the database's
// mode), and narrows the mode of files an earlier version created readable
// by others.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, privateMode)
	if err != nil {
		return fmt.Errorf("create database file: %w", err)
	}
	f.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		st, err := os.Stat(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		} else if err != nil {
			return err
		}
		if st.Mode().Perm()&0o077 != 0 {
			if err := os.Chmod(p, privateMode); err != nil {
				return fmt.Errorf("restrict %s to its owner: %w", p, err)
			}
		}
	}
	return nil
}

// createPrivateEmpty creates an empty file with privateMode for VACUUM INTO
// to fill (it accepts an empty file, and keeps its mode).
func createPrivateEmpty(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, privateMode)
	if err != nil {
		return err
	}
	return f.Close()
}
