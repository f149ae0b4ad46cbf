// Package domain holds Kestrel's entities, the interfaces adapters implement and
// the one error type every layer speaks. It performs no I/O.
package domain

import (
	"errors"
	"fmt"
)

// Error codes. Exactly one function (httpapi.statusFor) maps them to HTTP statuses.
const (
	EInvalid      = "invalid"      // the caller sent something wrong (400)
	EUnauthorized = "unauthorized" // no or bad credentials (401)
	EForbidden    = "forbidden"    // authenticated but not allowed (403)
	ENotFound     = "not_found"    // no such thing (404)
	EConflict     = "conflict"     // state does not allow it (409)
	ETooLarge     = "too_large"    // request body too big (413)
	ERejected     = "rejected"     // a risk or business rule refused it (422)
	ETooMany      = "rate_limited" // slow down (429)
	EInternal     = "internal"     // our fault (500); message is generic
	EUnavailable  = "unavailable"  // a dependency is down (503)
	// ENoSpace: the data directory's disk has less free space than the
	// platform keeps for trading, so new long work is refused (507).
	ENoSpace = "insufficient_storage"
	// EUnknownOutcome: a command handed on (to the cluster's leader) may or
	// may not have run, and no answer says which (504); never used for a
	// command known not to have run.
	EUnknownOutcome = "outcome_unknown"
)

// MsgDatabaseUnavailable is what a caller is told when the store cannot be
// reached or cannot work for now (EUnavailable); every store says it alike.
const MsgDatabaseUnavailable = "The database is unavailable; try again shortly"

// MsgNotLeader is what a cluster instance that no longer runs the trading
// engine answers a trading write (EUnavailable): it did not take effect, and
// the retry reaches the instance that leads now.
const MsgNotLeader = "This instance no longer runs the trading engine; retry (with the same client order id)"

// ErrNothingStored marks a store failure that is known to have changed
// nothing (the write was rolled back whole: a full disk, a read-only file), so
// a command that failed with it did not run (503), unlike a commit whose
// outcome is unknown (504). Stores wrap it into the cause; test with errors.Is.
var ErrNothingStored = errors.New("the write was rolled back: nothing of it was stored")

// Error is an application error whose message is safe to show to the user.
type Error struct {
	Code    string
	Message string
	// Fields maps an input field name to its error message (validation errors).
	Fields map[string]string
	// Cause is the underlying failure, for the logs only (never shown):
	// e.g. the driver's error behind an EUnavailable.
	Cause error
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%s: %s (%v)", e.Code, e.Message, e.Cause)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// Unwrap gives errors.Is and errors.As the cause.
func (e *Error) Unwrap() error { return e.Cause }

// Unavailable is an EUnavailable error: message for the user, cause for the logs.
func Unavailable(cause error, message string) *Error {
	return &Error{Code: EUnavailable, Message: message, Cause: cause}
}

// Errorf builds an *Error with a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// FieldErrors builds a validation error carrying one message per field. The
// top-level message is the first field's message so a client showing only the
// message still says something precise.
func FieldErrors(fields map[string]string, order ...string) *Error {
	msg := "Invalid input"
	for _, f := range order {
		if m, ok := fields[f]; ok {
			msg = m
			break
		}
	}
	return &Error{Code: EInvalid, Message: msg, Fields: fields}
}

// ErrorCode returns the code of the first *Error in err's chain, or EInternal.
func ErrorCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	if err == nil {
		return ""
	}
	return EInternal
}

// ErrorMessage returns the user-safe message of err, or a generic one.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "Internal error"
}
