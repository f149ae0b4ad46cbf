package sqlite

import (
	"context"
	"strconv"
	"time"
)

// FaultHold is how long a write fault is reported after a write succeeds.
const FaultHold = faultHold

// SetWriteHealthClock makes the write health tell time by now, so a test
// moves past FaultHold without waiting for it.
func SetWriteHealthClock(s *Store, now func() time.Time) {
	s.w.health.mu.Lock()
	s.w.health.now = now
	s.w.health.mu.Unlock()
}

// SetMaxPageCount caps the database at n pages on the writer connection
// (SQLite never sets it below the current size): a write that needs one
// more page fails with SQLITE_FULL, as it would on a full disk.
func SetMaxPageCount(s *Store, n int64) error {
	_, err := s.w.untracked().ExecContext(context.Background(), "PRAGMA max_page_count = "+strconv.FormatInt(n, 10))
	return err
}

// SetReadOnly makes every write of the writer connection fail with
// SQLITE_READONLY (PRAGMA query_only), as on a file system remounted read-only.
func SetReadOnly(s *Store, on bool) error {
	_, err := s.w.untracked().ExecContext(context.Background(), "PRAGMA query_only = "+strconv.FormatBool(on))
	return err
}

// PageCount is the database's size in pages.
func PageCount(s *Store) (n int64, err error) {
	err = s.r.QueryRowContext(context.Background(), "PRAGMA page_count").Scan(&n)
	return n, err
}
