package sqlite

import (
	"database/sql"
	"errors"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"kestrel/domain"
)

// MsgDiskFull is what a caller is told when a write needs space the disk
// (or the database's size limit) does not have.
const MsgDiskFull = "The database's disk is full, so nothing was changed; try again once space has been freed"

// unavailable turns SQLite's results that say the database cannot work for
// now (disk full, an I/O error, a read-only file or file system, the file
// locked past the busy timeout, the file not openable) into a domain
// EUnavailable error that keeps SQLite's error as its cause: callers answer
// 503 and the logs still say why. Anything else, a constraint violation
// included, is returned unchanged. The transaction such an error ends is
// rolled back (tx, and SQLite itself when COMMIT fails), so nothing of it is
// stored. Nil and no row (the common answers) return at once, before
// anything that allocates.
func unavailable(err error) error {
	if err == nil || errors.Is(err, sql.ErrNoRows) {
		return err
	}
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return err
	}
	var de *domain.Error
	if errors.As(err, &de) {
		return err
	}
	switch se.Code() & 0xff { // the primary code of an extended one (SQLITE_IOERR_WRITE is SQLITE_IOERR)
	case sqlite3.SQLITE_FULL:
		return domain.Unavailable(errors.Join(domain.ErrNothingStored, err), MsgDiskFull)
	case sqlite3.SQLITE_READONLY:
		return domain.Unavailable(errors.Join(domain.ErrNothingStored, err), domain.MsgDatabaseUnavailable)
	case sqlite3.SQLITE_IOERR, sqlite3.SQLITE_BUSY, sqlite3.SQLITE_CANTOPEN:
		return domain.Unavailable(err, domain.MsgDatabaseUnavailable)
	}
	return err
}
