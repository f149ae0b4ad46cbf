package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

const promotionCols = `id, strategy, version, stage, status, account, starting_usd, gates, started_by, approved_by,
	started_at, ended_at, ended_by, reason, from_stage, market`

func scanPromotion(row interface{ Scan(...any) error }) (domain.Promotion, error) {
	var p domain.Promotion
	var usd, gates string
	var started int64
	var ended sql.NullInt64
	err := row.Scan(&p.ID, &p.Strategy, &p.Version, &p.Stage, &p.Status, &p.Account, &usd, &gates, &p.StartedBy, &p.ApprovedBy,
		&started, &ended, &p.EndedBy, &p.Reason, &p.FromStage, &p.Market)
	if errors.Is(err, sql.ErrNoRows) {
		return p, domain.Errorf(domain.ENotFound, "Promotion not found")
	}
	if err != nil {
		return p, err
	}
	p.StartedAt = fromMS(started)
	if ended.Valid {
		t := fromMS(ended.Int64)
		p.EndedAt = &t
	}
	if p.StartingUSD, err = decimal.NewFromString(usd); err != nil {
		return p, err
	}
	return p, json.Unmarshal([]byte(gates), &p.Gates)
}

// AddPromotion implements domain.PromotionStore.
func (s *Store) AddPromotion(ctx context.Context, p domain.Promotion) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO strategy_promotions (`+promotionCols+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, '', '', ?, ?)`,
		p.ID, p.Strategy, p.Version, p.Stage, p.Status, p.Account, p.StartingUSD.String(), domain.EncodeGates(p.Gates),
		p.StartedBy, p.ApprovedBy, ms(p.StartedAt), p.FromStage, p.Market)
	if err != nil && strings.Contains(err.Error(), "UNIQUE") {
		return domain.Errorf(domain.EConflict, "Version %d of %s already has a running %s stage", p.Version, p.Strategy, p.Stage)
	}
	return err
}

// ClosePromotion implements domain.PromotionStore.
func (s *Store) ClosePromotion(ctx context.Context, id, status, by, reason string, at time.Time) (domain.Promotion, error) {
	res, err := s.w.ExecContext(ctx, `UPDATE strategy_promotions SET status = ?, ended_by = ?, reason = ?, ended_at = ?
		WHERE id = ? AND status = 'running'`, status, by, reason, ms(at), id)
	if err != nil {
		return domain.Promotion{}, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return domain.Promotion{}, err
	}
	p, err := s.Promotion(ctx, id)
	if err == nil && n == 0 {
		return p, domain.Errorf(domain.EConflict, "This %s stage has already ended (%s)", p.Stage, p.Status)
	}
	return p, err
}

// Promotion implements domain.PromotionStore.
func (s *Store) Promotion(ctx context.Context, id string) (domain.Promotion, error) {
	return scanPromotion(s.r.QueryRowContext(ctx, `SELECT `+promotionCols+` FROM strategy_promotions WHERE id = ?`, id))
}

// Promotions implements domain.PromotionStore.
func (s *Store) Promotions(ctx context.Context, strategy string, running bool) ([]domain.Promotion, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+promotionCols+` FROM strategy_promotions
		WHERE (? = '' OR strategy = ?) AND (? = 0 OR status = 'running') ORDER BY started_at DESC, id DESC`, strategy, strategy, running)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.Promotion{}
	for rows.Next() {
		p, err := scanPromotion(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
