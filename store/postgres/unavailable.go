package postgres

import (
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"kestrel/domain"
)

// unreachable turns a failure to reach the database (no connection, a
// connection terminated or broken mid-query, the server shutting down) into
// a domain EUnavailable error that keeps the driver's error as its cause, so
// callers answer 503 and the logs still say why. Anything else, an SQL
// error included, is returned unchanged. No row (the common answer of a
// lookup) returns at once, before any work that allocates.
func unreachable(err error) error {
	if err == nil || errors.Is(err, pgx.ErrNoRows) || !connectionLost(err) {
		return err
	}
	var de *domain.Error
	if errors.As(err, &de) {
		return err
	}
	return domain.Unavailable(err, domain.MsgDatabaseUnavailable)
}

// connectionLost reports whether err says the database could not be
// reached, rather than that it refused a statement.
func connectionLost(err error) bool {
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		// Class 08: connection exception; 57P01-57P03: the server ended the
		// session (terminated, shutting down, not yet accepting connections).
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03"
	}
	var ne net.Error
	return pgconn.SafeToRetry(err) || pgconn.Timeout(err) || errors.As(err, &ne) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}
