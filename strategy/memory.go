package strategy

import (
	"context"
	"time"

	"kestrel/ai"
	"kestrel/analytics"
	"kestrel/domain"
)

// TradeMemory is what an AI prompt's trade memory remembers: the last n
// closed round trips (analytics.RoundTrips: flat to flat, net of fees) of
// a strategy's own fills, oldest first, each with the reasoning the
// decision that opened it gave (reasons by opening order id; "" when none).
// Live trading and backtests both build it here, from the store's fills or
// from the run's own, so a backtest's memory follows the same rule.
func TradeMemory(own []domain.Fill, reasons map[string]string, n int) []ai.Trade {
	if n <= 0 {
		return nil
	}
	trips := analytics.RoundTrips(own)
	trips = trips[max(0, len(trips)-n):]
	out := make([]ai.Trade, len(trips))
	for i, t := range trips {
		out[i] = ai.Trade{ID: t.OpenOrderID, Symbol: t.Symbol, Side: domain.Buy, EntryTime: t.EntryTime, ExitTime: t.ExitTime,
			Quantity: t.Quantity, EntryPrice: t.EntryPrice, ExitPrice: t.ExitPrice, EntryCost: t.EntryCost, PnL: t.NetPnL,
			Reasoning: reasons[t.OpenOrderID]}
	}
	return out
}

// ownFills are the fills of the strategy's orders in symbol, oldest first
// (protective orders attached to them carry its name too).
func (e *Engine) ownFills(ctx context.Context, name, symbol string) ([]domain.Fill, error) {
	fills, err := e.d.Exchange.Fills(ctx, domain.FillFilter{Symbol: symbol, Limit: 1_000_000})
	if err != nil {
		return nil, err
	}
	var own []domain.Fill
	for i := len(fills) - 1; i >= 0; i-- { // newest first from the exchange
		if fills[i].Strategy == name {
			own = append(own, fills[i])
		}
	}
	return own, nil
}

// memory is the trade memory of instance c in symbol: its last closed
// round trips from its own fills, with the reasoning of the executed
// decisions that placed their opening orders.
func (e *Engine) memory(ctx context.Context, c Config, symbol string, own []domain.Fill) ([]ai.Trade, error) {
	n := c.MemoryTrades()
	trades := TradeMemory(own, nil, n)
	if len(trades) == 0 {
		return trades, nil
	}
	executed := true
	// A decision is stored just before its order fills: a margin before the
	// oldest entry finds the one that opened it.
	evs, err := e.d.Store.Evaluations(ctx, domain.EvaluationFilter{Strategy: c.Name, Symbol: symbol, Executed: &executed,
		Since: trades[0].EntryTime.Add(-time.Hour), Limit: 10_000})
	if err != nil {
		return nil, err
	}
	reasons := make(map[string]string, len(evs))
	for _, ev := range evs {
		if ev.OrderID != "" {
			reasons[ev.OrderID] = ev.Reasoning
		}
	}
	for i := range trades {
		trades[i].Reasoning = reasons[trades[i].ID]
	}
	return trades, nil
}

// ownState is what an evaluation of c in symbol is shown besides its
// candles: its own position and, with memory on, its trade memory.
func (e *Engine) ownState(ctx context.Context, c Config, symbol string) (domain.PositionBook, []ai.Trade, error) {
	book := domain.NewPositionBook(symbol)
	own, err := e.ownFills(ctx, c.Name, symbol)
	if err != nil {
		// As before memory: an unreadable fill history sizes from flat. With
		// memory on, a prompt missing its trades is not asked at all.
		if c.MemoryTrades() > 0 {
			return book, nil, err
		}
		return book, nil, nil
	}
	for _, f := range own {
		book = book.Apply(f)
	}
	mem, err := e.memory(ctx, c, symbol, own)
	if err != nil {
		return book, nil, err
	}
	return book, mem, nil
}
