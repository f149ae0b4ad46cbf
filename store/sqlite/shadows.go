package sqlite

import (
	"context"
	"database/sql"
	"strings"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

const shadowCols = `id, evaluation_id, at, strategy, symbol, candle_time, price, role, provider, model,
	decision, confidence, reasoning, input_tokens, output_tokens, cost, latency_ms, error`

// SaveShadowDecisions implements domain.StrategyStore.
func (s *Store) SaveShadowDecisions(ctx context.Context, ds []domain.ShadowDecision) error {
	if len(ds) == 0 {
		return nil
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		st, err := tx.PrepareContext(ctx, `INSERT INTO shadow_decisions (`+shadowCols+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer st.Close()
		for _, d := range ds {
			if err := domain.CheckShadowDecision(d); err != nil {
				return err
			}
			_, err := st.ExecContext(ctx, d.ID, d.EvaluationID, ms(d.Time), d.Strategy, d.Symbol, ms(d.CandleTime), d.Price.String(), d.Role,
				d.Provider, d.Model, d.Decision, d.Confidence, d.Reasoning, d.InputTokens, d.OutputTokens, costText(d.Cost), d.LatencyMS, d.Error)
			if err != nil && strings.Contains(err.Error(), "UNIQUE") {
				return domain.Errorf(domain.EConflict, "Shadow decision %s is already stored", d.ID)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// ShadowDecisions implements domain.StrategyStore.
func (s *Store) ShadowDecisions(ctx context.Context, f domain.ShadowFilter) ([]domain.ShadowDecision, error) {
	if f.Limit <= 0 {
		f.Limit = 1000
	}
	rows, err := s.r.QueryContext(ctx, `SELECT `+shadowCols+` FROM shadow_decisions
		WHERE (? = '' OR strategy = ?) AND candle_time >= ?
		ORDER BY candle_time DESC, at DESC, evaluation_id DESC, role, id LIMIT ?`, f.Strategy, f.Strategy, ms(f.Since), f.Limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []domain.ShadowDecision{}
	for rows.Next() {
		var d domain.ShadowDecision
		var at, candle int64
		var price string
		var cost sql.NullString
		if err := rows.Scan(&d.ID, &d.EvaluationID, &at, &d.Strategy, &d.Symbol, &candle, &price, &d.Role, &d.Provider, &d.Model,
			&d.Decision, &d.Confidence, &d.Reasoning, &d.InputTokens, &d.OutputTokens, &cost, &d.LatencyMS, &d.Error); err != nil {
			return nil, err
		}
		d.Time, d.CandleTime = fromMS(at), fromMS(candle)
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
