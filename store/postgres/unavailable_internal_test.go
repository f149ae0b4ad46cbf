package postgres

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"kestrel/domain"
)

func TestUnreachableSortsLostConnectionsFromRefusals(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		want string // the domain code after unreachable
	}{
		{"terminated by the administrator", &pgconn.PgError{Severity: "FATAL", Code: "57P01"}, domain.EUnavailable},
		{"connection failure", &pgconn.PgError{Code: "08006"}, domain.EUnavailable},
		{"cannot connect now", fmt.Errorf("query: %w", &pgconn.PgError{Code: "57P03"}), domain.EUnavailable},
		{"connect refused", &pgconn.ConnectError{}, domain.EUnavailable},
		{"connection cut mid-reply", io.ErrUnexpectedEOF, domain.EUnavailable},
		{"unique violation", &pgconn.PgError{Code: "23505"}, domain.EInternal},
		{"syntax error", &pgconn.PgError{Code: "42601"}, domain.EInternal},
		{"no rows", pgx.ErrNoRows, domain.EInternal},
		{"a domain error", domain.Errorf(domain.ENotFound, "Order not found"), domain.ENotFound},
		{"something else", errors.New("scan: wrong type"), domain.EInternal},
	} {
		got := unreachable(c.err)
		if code := domain.ErrorCode(got); code != c.want {
			t.Errorf("%s: code %q, want %q", c.name, code, c.want)
		}
		if !errors.Is(got, c.err) {
			t.Errorf("%s: the cause is lost", c.name)
		}
		if c.want == domain.EUnavailable && domain.ErrorMessage(got) != domain.MsgDatabaseUnavailable {
			t.Errorf("%s: message %q", c.name, domain.ErrorMessage(got))
		}
	}
	if unreachable(nil) != nil {
		t.Error("nil is not an error")
	}
}
