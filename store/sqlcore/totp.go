package sqlcore

import (
	"context"
	"time"

	"kestrel/domain"
)

// TOTPByUser implements domain.TOTPStore.
func (c *Core) TOTPByUser(ctx context.Context, userID string) (domain.TOTP, error) {
	t := domain.TOTP{UserID: userID}
	err := c.r.QueryRow(ctx, `SELECT secret, confirmed_at, last_step,
		(SELECT COUNT(*) FROM totp_recovery WHERE user_id = $1 AND used_at IS NULL)
		FROM totp WHERE user_id = $1`, userID).Scan(&t.Secret, c.d.NullTimeDest(&t.ConfirmedAt), &t.LastStep, &t.RecoveryLeft)
	t.ConfirmedAt = utcPtr(t.ConfirmedAt)
	return t, c.notFound(err, "Two-factor authentication is not set up")
}

// PutPendingTOTP implements domain.TOTPStore.
func (c *Core) PutPendingTOTP(ctx context.Context, userID, sealedSecret string) error {
	n, err := c.w.Exec(ctx, `INSERT INTO totp (user_id, secret) VALUES ($1, $2)
		ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, last_step = 0 WHERE totp.confirmed_at IS NULL`, userID, sealedSecret)
	return oneOrConflict(n, err, "Two-factor authentication is already on for this account")
}

// ConfirmTOTP implements domain.TOTPStore.
func (c *Core) ConfirmTOTP(ctx context.Context, userID string, at time.Time, step int64, recoveryHashes []string) error {
	return c.w.Tx(ctx, func(tx Querier) error {
		n, err := tx.Exec(ctx, `UPDATE totp SET confirmed_at = $1, last_step = $2 WHERE user_id = $3 AND confirmed_at IS NULL`, c.d.Time(at), step, userID)
		if err := oneOrConflict(n, err, "No two-factor set-up is waiting for confirmation"); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM totp_recovery WHERE user_id = $1`, userID); err != nil {
			return err
		}
		for _, h := range recoveryHashes {
			if _, err := tx.Exec(ctx, `INSERT INTO totp_recovery (user_id, code_hash) VALUES ($1, $2)`, userID, h); err != nil {
				return err
			}
		}
		return nil
	})
}

// UseTOTPStep implements domain.TOTPStore.
func (c *Core) UseTOTPStep(ctx context.Context, userID string, step int64) (bool, error) {
	n, err := c.w.Exec(ctx, `UPDATE totp SET last_step = $1 WHERE user_id = $2 AND confirmed_at IS NOT NULL AND last_step < $1`, step, userID)
	return err == nil && n == 1, err
}

// UseRecoveryCode implements domain.TOTPStore.
func (c *Core) UseRecoveryCode(ctx context.Context, userID, codeHash string, at time.Time) (bool, error) {
	n, err := c.w.Exec(ctx, `UPDATE totp_recovery SET used_at = $1 WHERE user_id = $2 AND code_hash = $3 AND used_at IS NULL`, c.d.Time(at), userID, codeHash)
	return err == nil && n == 1, err
}

// DeleteTOTP implements domain.TOTPStore.
func (c *Core) DeleteTOTP(ctx context.Context, userID string) error {
	return c.w.Tx(ctx, func(tx Querier) error {
		if _, err := tx.Exec(ctx, `DELETE FROM totp_recovery WHERE user_id = $1`, userID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM totp WHERE user_id = $1`, userID)
		return err
	})
}

// oneOrConflict is an EConflict saying msg unless the statement changed
// exactly one row.
func oneOrConflict(n int64, err error, msg string) error {
	if err == nil && n != 1 {
		return domain.Errorf(domain.EConflict, "%s", msg)
	}
	return err
}

// ResealTOTP implements domain.TOTPStore.
func (c *Core) ResealTOTP(ctx context.Context, reseal func(userID, sealed string) (string, error)) (int, error) {
	n := 0
	err := c.w.Tx(ctx, func(tx Querier) error {
		n = 0
		rows, err := tx.Query(ctx, `SELECT user_id, secret FROM totp ORDER BY user_id`+c.d.ForUpdate())
		if err != nil {
			return err
		}
		all, err := collect(rows, nil, func(r Row) ([2]string, error) {
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
