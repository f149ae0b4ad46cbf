package httpapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"kestrel/ai"
	"kestrel/domain"
)

// A connection test calls out of the server, so it is bounded (issue 21,
// item 3): operators only (the route table), only the saved AI endpoint
// (aiConnection), no redirects, a timeout inside the request's own, and a
// fixed message instead of whatever the remote end answered (logged for
// the operator instead).

// maxConnectionTest caps a connection test whatever timeout was entered.
const maxConnectionTest = 15 * time.Second

// connectionTimeout is the entered timeout (ms; def when unset) clamped to
// maxConnectionTest and to what is left of the request's own deadline, so
// the test answers before the request limit does.
func connectionTimeout(ctx context.Context, enteredMS int, def time.Duration) time.Duration {
	d := time.Duration(enteredMS) * time.Millisecond
	if d <= 0 {
		d = def
	}
	d = min(d, maxConnectionTest)
	if dl, ok := ctx.Deadline(); ok {
		d = min(d, time.Until(dl)-250*time.Millisecond)
	}
	return max(d, 100*time.Millisecond)
}

// noRedirects is the client a connection test uses: a redirect is answered
// as it is (a failure), never followed to another address.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// aiFailure is the fixed message for a failed AI connection test.
func aiFailure(ctx context.Context, err error, timeout time.Duration) string {
	slog.WarnContext(ctx, "AI connection test failed", "err", err)
	var status *ai.StatusError
	var answer *ai.AnswerError
	switch {
	case errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "did not answer within"):
		return fmt.Sprintf("The provider did not answer within %s", timeout.Round(time.Millisecond))
	case errors.As(err, &status) && (status.Status == http.StatusUnauthorized || status.Status == http.StatusForbidden):
		return fmt.Sprintf("The provider rejected the API token (HTTP %d)", status.Status)
	case errors.As(err, &status):
		return fmt.Sprintf("The provider answered HTTP %d; the server log has its answer", status.Status)
	case errors.As(err, &answer):
		return "The model answered, but not with the JSON decision the analyst needs; the server log has its answer"
	}
	return "The provider could not be reached; the server log has the reason"
}

// RemoteError marks an ExchangeTest error that carries the exchange's own
// answer (as opposed to settings refused before any call, whose message is
// the operator's to read).
type RemoteError struct{ Err error }

func (e RemoteError) Error() string { return e.Err.Error() }
func (e RemoteError) Unwrap() error { return e.Err }

// exchangeFailure is the message for a failed exchange connection test:
// a refusal before any call as it is; the exchange's answer only up to the
// words the adapter put before the exchange's own.
func exchangeFailure(ctx context.Context, err error, timeout time.Duration) string {
	slog.WarnContext(ctx, "exchange connection test failed", "err", err)
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Sprintf("The exchange did not answer within %s", timeout.Round(time.Millisecond))
	}
	var remote RemoteError
	var de *domain.Error
	switch {
	case !errors.As(err, &de):
		return "The exchange could not be reached; the server log has the reason"
	case !errors.As(err, &remote):
		return de.Message
	}
	msg, _, _ := strings.Cut(de.Message, ": ")
	return msg + "; the server log has the exchange's answer"
}
