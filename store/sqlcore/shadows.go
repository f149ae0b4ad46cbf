package sqlcore

import (
	"context"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// ShadowCols are the columns of a shadow decision, in the order engines
// insert them.
const ShadowCols = `id, evaluation_id, at, strategy, symbol, candle_time, price, role, provider, model,
	decision, confidence, reasoning, input_tokens, output_tokens, cost, latency_ms, error`

// ShadowArgs are d's values in ShadowCols' order, times as dialect di
// binds them, once d passes domain.CheckShadowDecision. (A function, not a
// method: the stores' methods are the domain's.)
func ShadowArgs(di Dialect, d domain.ShadowDecision) ([]any, error) {
	if err := domain.CheckShadowDecision(d); err != nil {
		return nil, err
	}
	return []any{d.ID, d.EvaluationID, di.Time(d.Time), d.Strategy, d.Symbol, di.Time(d.CandleTime), d.Price.String(), d.Role,
		d.Provider, d.Model, d.Decision, d.Confidence, d.Reasoning, d.InputTokens, d.OutputTokens, DecimalText(d.Cost), d.LatencyMS, d.Error}, nil
}

// ShadowDecisions implements domain.StrategyStore.
func (c *Core) ShadowDecisions(ctx context.Context, f domain.ShadowFilter) ([]domain.ShadowDecision, error) {
	if f.Limit <= 0 {
		f.Limit = 1000
	}
	rows, err := c.r.Query(ctx, `SELECT id, evaluation_id, at, strategy, symbol, candle_time, CAST(price AS TEXT), role, provider, model,
		decision, confidence, reasoning, input_tokens, output_tokens, CAST(cost AS TEXT), latency_ms, error FROM shadow_decisions
		WHERE ($1 = '' OR strategy = $1) AND candle_time >= $2
		ORDER BY candle_time DESC, at DESC, evaluation_id DESC, role, id LIMIT $3`, f.Strategy, c.d.Time(f.Since), f.Limit)
	if err != nil {
		return nil, err
	}
	return collect(rows, []domain.ShadowDecision{}, func(r Row) (domain.ShadowDecision, error) {
		var d domain.ShadowDecision
		var price string
		var cost *string
		err := r.Scan(&d.ID, &d.EvaluationID, c.d.TimeDest(&d.Time), &d.Strategy, &d.Symbol, c.d.TimeDest(&d.CandleTime), &price, &d.Role, &d.Provider, &d.Model,
			&d.Decision, &d.Confidence, &d.Reasoning, &d.InputTokens, &d.OutputTokens, &cost, &d.LatencyMS, &d.Error)
		if err != nil {
			return d, err
		}
		d.Time, d.CandleTime = utc(d.Time), utc(d.CandleTime)
		if d.Price, err = decimal.NewFromString(price); err != nil {
			return d, err
		}
		d.Cost, err = DecimalOf(cost)
		return d, err
	})
}
