package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"kestrel/domain"
)

// TOTPByUser implements domain.TOTPStore.
func (s *Store) TOTPByUser(ctx context.Context, userID string) (domain.TOTP, error) {
	t := domain.TOTP{UserID: userID}
	var confirmed sql.NullInt64
	err := s.r.QueryRowContext(ctx, `SELECT secret, confirmed_at, last_step,
		(SELECT COUNT(*) FROM totp_recovery WHERE user_id = ? AND used_at IS NULL)
		FROM totp WHERE user_id = ?`, userID, userID).Scan(&t.Secret, &confirmed, &t.LastStep, &t.RecoveryLeft)
	if errors.Is(err, sql.ErrNoRows) {
		return t, domain.Errorf(domain.ENotFound, "Two-factor authentication is not set up")
	}
	if confirmed.Valid {
		at := fromMS(confirmed.Int64)
		t.ConfirmedAt = &at
	}
	return t, err
}

// PutPendingTOTP implements domain.TOTPStore.
func (s *Store) PutPendingTOTP(ctx context.Context, userID, sealedSecret string) error {
	res, err := s.w.ExecContext(ctx, `INSERT INTO totp (user_id, secret) VALUES (?, ?)
		ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, last_step = 0 WHERE totp.confirmed_at IS NULL`, userID, sealedSecret)
	return oneOrConflict(res, err, "Two-factor authentication is already on for this account")
}

// ConfirmTOTP implements domain.TOTPStore.
func (s *Store) ConfirmTOTP(ctx context.Context, userID string, at time.Time, step int64, recoveryHashes []string) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE totp SET confirmed_at = ?, last_step = ? WHERE user_id = ? AND confirmed_at IS NULL`, ms(at), step, userID)
		if err := oneOrConflict(res, err, "No two-factor set-up is waiting for confirmation"); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM totp_recovery WHERE user_id = ?`, userID); err != nil {
			return err
		}
		for _, h := range recoveryHashes {
			if _, err := tx.ExecContext(ctx, `INSERT INTO totp_recovery (user_id, code_hash) VALUES (?, ?)`, userID, h); err != nil {
				return err
			}
		}
		return nil
	})
}

// UseTOTPStep implements domain.TOTPStore.
func (s *Store) UseTOTPStep(ctx context.Context, userID string, step int64) (bool, error) {
	res, err := s.w.ExecContext(ctx, `UPDATE totp SET last_step = ? WHERE user_id = ? AND confirmed_at IS NOT NULL AND last_step < ?`, step, userID, step)
	return changedOne(res, err)
}

// UseRecoveryCode implements domain.TOTPStore.
func (s *Store) UseRecoveryCode(ctx context.Context, userID, codeHash string, at time.Time) (bool, error) {
	res, err := s.w.ExecContext(ctx, `UPDATE totp_recovery SET used_at = ? WHERE user_id = ? AND code_hash = ? AND used_at IS NULL`, ms(at), userID, codeHash)
	return changedOne(res, err)
}

// DeleteTOTP implements domain.TOTPStore.
func (s *Store) DeleteTOTP(ctx context.Context, userID string) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM totp_recovery WHERE user_id = ?`, userID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM totp WHERE user_id = ?`, userID)
		return err
	})
}

func changedOne(res sql.Result, err error) (bool, error) {
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func oneOrConflict(res sql.Result, err error, msg string) error {
	ok, err := changedOne(res, err)
	if err == nil && !ok {
		return domain.Errorf(domain.EConflict, "%s", msg)
	}
	return err
}

// ResealTOTP implements domain.TOTPStore.
func (s *Store) ResealTOTP(ctx context.Context, reseal func(userID, sealed string) (string, error)) (int, error) {
	n := 0
	err := s.tx(ctx, func(tx *sql.Tx) error {
		n = 0
		rows, err := tx.QueryContext(ctx, `SELECT user_id, secret FROM totp ORDER BY user_id`)
		if err != nil {
			return err
		}
		var all [][2]string
		for rows.Next() {
			var r [2]string
			if err := rows.Scan(&r[0], &r[1]); err != nil {
				rows.Close()
				return err
			}
			all = append(all, r)
		}
		if err := rows.Close(); err != nil {
			return err
		}
		for _, r := range all {
			next, err := reseal(r[0], r[1])
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE totp SET secret = ? WHERE user_id = ?`, next, r[0]); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}
