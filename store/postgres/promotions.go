package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/shopspring/decimal"

	"kestrel/domain"
)

const promotionCols = `id, strategy, version, stage, status, account, starting_usd::text, gates, started_by, approved_by,
	started_at, ended_at, ended_by, reason, from_stage, market`

func scanPromotion(row pgRow) (domain.Promotion, error) {
	var p domain.Promotion
	var usd string
	var gates []byte
	err := row.Scan(&p.ID, &p.Strategy, &p.Version, &p.Stage, &p.Status, &p.Account, &usd, &gates, &p.StartedBy, &p.ApprovedBy,
		&p.StartedAt, &p.EndedAt, &p.EndedBy, &p.Reason, &p.FromStage, &p.Market)
	if err != nil {
		return p, notFound(err, "Promotion not found")
	}
	p.StartedAt = p.StartedAt.UTC()
	if p.EndedAt != nil {
		t := p.EndedAt.UTC()
		p.EndedAt = &t
	}
	if p.StartingUSD, err = decimal.NewFromString(usd); err != nil {
		return p, err
	}
	return p, json.Unmarshal(gates, &p.Gates)
}

// AddPromotion implements domain.PromotionStore.
func (s *Store) AddPromotion(ctx context.Context, p domain.Promotion) error {
	_, err := s.db.Exec(ctx, `INSERT INTO strategy_promotions (id, strategy, version, stage, status, account, starting_usd, gates,
		started_by, approved_by, started_at, from_stage, market) VALUES ($1, $2, $3, $4, $5, $6, $7::numeric, $8::jsonb, $9, $10, $11, $12, $13)`,
		p.ID, p.Strategy, p.Version, p.Stage, p.Status, p.Account, p.StartingUSD.String(), domain.EncodeGates(p.Gates),
		p.StartedBy, p.ApprovedBy, p.StartedAt, p.FromStage, p.Market)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return domain.Errorf(domain.EConflict, "Version %d of %s already has a running %s stage", p.Version, p.Strategy, p.Stage)
	}
	return err
}

// ClosePromotion implements domain.PromotionStore.
func (s *Store) ClosePromotion(ctx context.Context, id, status, by, reason string, at time.Time) (domain.Promotion, error) {
	tag, err := s.db.Exec(ctx, `UPDATE strategy_promotions SET status = $1, ended_by = $2, reason = $3, ended_at = $4
		WHERE id = $5 AND status = 'running'`, status, by, reason, at, id)
	if err != nil {
		return domain.Promotion{}, err
	}
	p, err := s.Promotion(ctx, id)
	if err == nil && tag.RowsAffected() == 0 {
		return p, domain.Errorf(domain.EConflict, "This %s stage has already ended (%s)", p.Stage, p.Status)
	}
	return p, err
}

// Promotion implements domain.PromotionStore.
func (s *Store) Promotion(ctx context.Context, id string) (domain.Promotion, error) {
	return scanPromotion(s.db.QueryRow(ctx, `SELECT `+promotionCols+` FROM strategy_promotions WHERE id = $1`, id))
}

// Promotions implements domain.PromotionStore.
func (s *Store) Promotions(ctx context.Context, strategy string, running bool) ([]domain.Promotion, error) {
	rows, err := s.db.Query(ctx, `SELECT `+promotionCols+` FROM strategy_promotions
		WHERE ($1 = '' OR strategy = $1) AND (NOT $2 OR status = 'running') ORDER BY started_at DESC, id DESC`, strategy, running)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.Promotion{}
	for rows.Next() {
		p, err := scanPromotion(rows.row())
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
