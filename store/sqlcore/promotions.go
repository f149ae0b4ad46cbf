package sqlcore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

const promotionCols = `id, strategy, version, stage, status, account, starting_usd, gates, started_by, approved_by,
	started_at, ended_at, ended_by, reason, from_stage, market`

// promotionRead is promotionCols with the decimal and JSON read as text.
const promotionRead = `id, strategy, version, stage, status, account, CAST(starting_usd AS TEXT), CAST(gates AS TEXT), started_by, approved_by,
	started_at, ended_at, ended_by, reason, from_stage, market`

func (c *Core) scanPromotion(row Row) (domain.Promotion, error) {
	var p domain.Promotion
	var usd, gates string
	err := row.Scan(&p.ID, &p.Strategy, &p.Version, &p.Stage, &p.Status, &p.Account, &usd, &gates, &p.StartedBy, &p.ApprovedBy,
		c.d.TimeDest(&p.StartedAt), c.d.NullTimeDest(&p.EndedAt), &p.EndedBy, &p.Reason, &p.FromStage, &p.Market)
	if err != nil {
		return p, c.notFound(err, "Promotion not found")
	}
	p.StartedAt, p.EndedAt = utc(p.StartedAt), utcPtr(p.EndedAt)
	if p.StartingUSD, err = decimal.NewFromString(usd); err != nil {
		return p, err
	}
	return p, json.Unmarshal([]byte(gates), &p.Gates)
}

// AddPromotion implements domain.PromotionStore.
func (c *Core) AddPromotion(ctx context.Context, p domain.Promotion) error {
	_, err := c.w.Exec(ctx, `INSERT INTO strategy_promotions (`+promotionCols+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, NULL, '', '', $12, $13)`,
		p.ID, p.Strategy, p.Version, p.Stage, p.Status, p.Account, p.StartingUSD.String(), domain.EncodeGates(p.Gates),
		p.StartedBy, p.ApprovedBy, c.d.Time(p.StartedAt), p.FromStage, p.Market)
	if err != nil && c.d.Unique(err) {
		return domain.Errorf(domain.EConflict, "Version %d of %s already has a running %s stage", p.Version, p.Strategy, p.Stage)
	}
	return err
}

// ClosePromotion implements domain.PromotionStore.
func (c *Core) ClosePromotion(ctx context.Context, id, status, by, reason string, at time.Time) (domain.Promotion, error) {
	n, err := c.w.Exec(ctx, `UPDATE strategy_promotions SET status = $1, ended_by = $2, reason = $3, ended_at = $4
		WHERE id = $5 AND status = 'running'`, status, by, reason, c.d.Time(at), id)
	if err != nil {
		return domain.Promotion{}, err
	}
	p, err := c.Promotion(ctx, id)
	if err == nil && n == 0 {
		return p, domain.Errorf(domain.EConflict, "This %s stage has already ended (%s)", p.Stage, p.Status)
	}
	return p, err
}

// Promotion implements domain.PromotionStore.
func (c *Core) Promotion(ctx context.Context, id string) (domain.Promotion, error) {
	return c.scanPromotion(c.r.QueryRow(ctx, `SELECT `+promotionRead+` FROM strategy_promotions WHERE id = $1`, id))
}

// Promotions implements domain.PromotionStore.
func (c *Core) Promotions(ctx context.Context, strategy string, running bool) ([]domain.Promotion, error) {
	rows, err := c.r.Query(ctx, `SELECT `+promotionRead+` FROM strategy_promotions
		WHERE ($1 = '' OR strategy = $1) AND (NOT $2 OR status = 'running') ORDER BY started_at DESC, id DESC`, strategy, running)
	if err != nil {
		return nil, err
	}
	return collect(rows, []domain.Promotion{}, c.scanPromotion)
}
