package domain

import (
	"context"
	"time"
)

// TOTP is an account's time-based one-time password enrolment.
type TOTP struct {
	UserID string
	// Secret is the shared secret, sealed at rest (settings.Sealer).
	Secret string
	// ConfirmedAt is nil while the enrolment waits for its first code.
	ConfirmedAt *time.Time
	// LastStep is the last 30-second step a code was accepted for; a code of
	// that step or earlier is a replay.
	LastStep int64
	// RecoveryLeft counts unused recovery codes.
	RecoveryLeft int
}

// TOTPStore persists TOTP enrolments and their single-use recovery codes.
type TOTPStore interface {
	// TOTPByUser returns the enrolment or a not_found error.
	TOTPByUser(ctx context.Context, userID string) (TOTP, error)
	// PutPendingTOTP stores an unconfirmed secret, replacing an unconfirmed
	// one; conflict when the account has a confirmed enrolment.
	PutPendingTOTP(ctx context.Context, userID, sealedSecret string) error
	// ConfirmTOTP activates the pending enrolment with step as its last used
	// step and replaces the recovery codes by recoveryHashes; conflict when
	// there is no pending enrolment.
	ConfirmTOTP(ctx context.Context, userID string, at time.Time, step int64, recoveryHashes []string) error
	// UseTOTPStep records step as used when it is later than the last used
	// one and reports whether it was (false: a replay).
	UseTOTPStep(ctx context.Context, userID string, step int64) (bool, error)
	// UseRecoveryCode marks an unused code used and reports whether it was.
	UseRecoveryCode(ctx context.Context, userID, codeHash string, at time.Time) (bool, error)
	// DeleteTOTP removes the enrolment and its recovery codes.
	DeleteTOTP(ctx context.Context, userID string) error
	// ResealTOTP replaces every stored secret by reseal(userID, secret), all
	// in one transaction (a key rotation), and returns how many it changed;
	// an error from reseal changes nothing.
	ResealTOTP(ctx context.Context, reseal func(userID, sealed string) (string, error)) (int, error)
}
