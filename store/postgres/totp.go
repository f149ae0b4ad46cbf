package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"kestrel/domain"
)

// TOTPByUser implements domain.TOTPStore.
func (s *Store) TOTPByUser(ctx context.Context, userID string) (domain.TOTP, error) {
	t := domain.TOTP{UserID: userID}
	err := s.db.QueryRow(ctx, `SELECT secret, confirmed_at, last_step,
		(SELECT COUNT(*) FROM totp_recovery WHERE user_id = $1 AND used_at IS NULL)
		FROM totp WHERE user_id = $1`, userID).Scan(&t.Secret, &t.ConfirmedAt, &t.LastStep, &t.RecoveryLeft)
	if t.ConfirmedAt != nil {
		at := t.ConfirmedAt.UTC()
		t.ConfirmedAt = &at
	}
	return t, notFound(err, "Two-factor authentication is not set up")
}

// PutPendingTOTP implements domain.TOTPStore.
func (s *Store) PutPendingTOTP(ctx context.Context, userID, sealedSecret string) error {
	tag, err := s.db.Exec(ctx, `INSERT INTO totp (user_id, secret) VALUES ($1, $2)
		ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, last_step = 0 WHERE totp.confirmed_at IS NULL`, userID, sealedSecret)
	return oneOrConflict(tag, err, "Two-factor authentication is already on for this account")
}

// ConfirmTOTP implements domain.TOTPStore.
func (s *Store) ConfirmTOTP(ctx context.Context, userID string, at time.Time, step int64, recoveryHashes []string) error {
	return s.tx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE totp SET confirmed_at = $1, last_step = $2 WHERE user_id = $3 AND confirmed_at IS NULL`, at, step, userID)
		if err := oneOrConflict(tag, err, "No two-factor set-up is waiting for confirmation"); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM totp_recovery WHERE user_id = $1`, userID); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO totp_recovery (user_id, code_hash) SELECT $1, unnest($2::text[])`, userID, recoveryHashes)
		return err
	})
}

// UseTOTPStep implements domain.TOTPStore.
func (s *Store) UseTOTPStep(ctx context.Context, userID string, step int64) (bool, error) {
	tag, err := s.db.Exec(ctx, `UPDATE totp SET last_step = $1 WHERE user_id = $2 AND confirmed_at IS NOT NULL AND last_step < $1`, step, userID)
	return err == nil && tag.RowsAffected() == 1, err
}

// UseRecoveryCode implements domain.TOTPStore.
func (s *Store) UseRecoveryCode(ctx context.Context, userID, codeHash string, at time.Time) (bool, error) {
	tag, err := s.db.Exec(ctx, `UPDATE totp_recovery SET used_at = $1 WHERE user_id = $2 AND code_hash = $3 AND used_at IS NULL`, at, userID, codeHash)
	return err == nil && tag.RowsAffected() == 1, err
}

// DeleteTOTP implements domain.TOTPStore.
func (s *Store) DeleteTOTP(ctx context.Context, userID string) error {
	return s.tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM totp_recovery WHERE user_id = $1`, userID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM totp WHERE user_id = $1`, userID)
		return err
	})
}

func oneOrConflict(tag pgconn.CommandTag, err error, msg string) error {
	if err == nil && tag.RowsAffected() != 1 {
		return domain.Errorf(domain.EConflict, "%s", msg)
	}
	return err
}

// ResealTOTP implements domain.TOTPStore.
func (s *Store) ResealTOTP(ctx context.Context, reseal func(userID, sealed string) (string, error)) (int, error) {
	n := 0
	err := s.tx(ctx, func(tx pgx.Tx) error {
		n = 0
		rows, err := tx.Query(ctx, `SELECT user_id, secret FROM totp ORDER BY user_id FOR UPDATE`)
		if err != nil {
			return err
		}
		all, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) ([2]string, error) {
			var v [2]string
			return v, r.Scan(&v[0], &v[1])
		})
		if err != nil {
			return err
		}
		for _, r := range all {
			next, err := reseal(r[0], r[1])
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `UPDATE totp SET secret = $1 WHERE user_id = $2`, next, r[0]); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}
