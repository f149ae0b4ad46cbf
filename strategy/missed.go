package strategy

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"kestrel/domain"
	"kestrel/events"
)

// missedCandle is a closed candle not evaluated yet because its candles
// could not be read.
type missedCandle struct {
	at  time.Time // the candle's open time
	why string
}

func candlesUnavailable(err error, n int) string {
	if err != nil {
		return "market data unavailable: " + err.Error()
	}
	return fmt.Sprintf("market data incomplete: %d candles, not ending at the closed one", n)
}

// giveUp stores, once a later candle (closed) has closed, the evaluation
// of a candle that could never be read: HOLD, with the reason, so no
// candle is skipped without a trace.
func (e *Engine) giveUp(ctx context.Context, j job, symbol string, closed time.Time) {
	m, ok := j.in.missed[symbol]
	if !ok || !closed.After(m.at) {
		return
	}
	delete(j.in.missed, symbol)
	ev := domain.Evaluation{ID: uuid.NewString(), Time: e.d.Clock.Now(), Strategy: j.cfg.Name, StrategyVersion: j.cfg.Version, Symbol: symbol, CandleTime: m.at, Decision: Hold,
		Error: m.why, Reason: "Not evaluated: " + m.why}
	if err := e.d.Store.AppendEvaluation(ctx, ev); err != nil {
		slog.Error("store strategy evaluation", "strategy", ev.Strategy, "err", err)
	}
	if e.d.Bus != nil {
		e.d.Bus.Publish(events.TopicSignal, ev, time.Now())
	}
}
