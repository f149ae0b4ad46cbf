package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/shopspring/decimal"

	"kestrel/domain"
)

const shadowCols = `id, evaluation_id, at, strategy, symbol, candle_time, price, role, provider, model,
	decision, confidence, reasoning, input_tokens, output_tokens, cost, latency_ms, error`

// SaveShadowDecisions implements domain.StrategyStore: one batch, one
// transaction.
func (s *Store) SaveShadowDecisions(ctx context.Context, ds []domain.ShadowDecision) error {
	if len(ds) == 0 {
		return nil
	}
	b := &pgx.Batch{}
	for _, d := range ds {
		if err := domain.CheckShadowDecision(d); err != nil {
			return err
		}
		b.Queue(`INSERT INTO shadow_decisions (`+shadowCols+`)
			VALUES ($1, $2, $3, $4, $5, $6, $7::numeric, $8, $9, $10, $11, $12, $13, $14, $15, $16::numeric, $17, $18)`,
			d.ID, d.EvaluationID, d.Time, d.Strategy, d.Symbol, d.CandleTime, d.Price.String(), d.Role, d.Provider, d.Model,
			d.Decision, d.Confidence, d.Reasoning, d.InputTokens, d.OutputTokens, costText(d.Cost), d.LatencyMS, d.Error)
	}
	err := s.db.SendBatch(ctx, b)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return domain.Errorf(domain.EConflict, "A shadow decision is already stored")
	}
	return err
}

// ShadowDecisions implements domain.StrategyStore.
func (s *Store) ShadowDecisions(ctx context.Context, f domain.ShadowFilter) ([]domain.ShadowDecision, error) {
	if f.Limit <= 0 {
		f.Limit = 1000
	}
	rows, err := s.db.Query(ctx, `SELECT id, evaluation_id, at, strategy, symbol, candle_time, price::text, role, provider, model,
		decision, confidence, reasoning, input_tokens, output_tokens, cost::text, latency_ms, error FROM shadow_decisions
		WHERE ($1 = '' OR strategy = $1) AND candle_time >= $2
		ORDER BY candle_time DESC, at DESC, evaluation_id DESC, role, id LIMIT $3`, f.Strategy, f.Since, f.Limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.ShadowDecision{}
	for rows.Next() {
		var d domain.ShadowDecision
		var price string
		var cost *string
		if err := rows.Scan(&d.ID, &d.EvaluationID, &d.Time, &d.Strategy, &d.Symbol, &d.CandleTime, &price, &d.Role, &d.Provider, &d.Model,
			&d.Decision, &d.Confidence, &d.Reasoning, &d.InputTokens, &d.OutputTokens, &cost, &d.LatencyMS, &d.Error); err != nil {
			return nil, err
		}
		d.Time, d.CandleTime = d.Time.UTC(), d.CandleTime.UTC()
		if d.Price, err = decimal.NewFromString(price); err != nil {
			return nil, err
		}
		if d.Cost, err = costOf(cost); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}
