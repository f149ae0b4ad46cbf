package backtest

import (
	"kestrel/ai"
	"kestrel/domain"
	"kestrel/strategy"
)

// tradeMemory is the run's own trade memory so far, built by the rule live
// trading uses (strategy.TradeMemory) from the run's fills and the
// reasoning of the signals that placed their opening orders. It never
// reads live data, so two runs of the same backtest show the model the
// same trades, and the prompts (and their hashes) repeat.
type tradeMemory struct {
	reasons map[string]string // opening order id -> the signal's reasoning
	acting  string            // the reasoning of the signal being acted on
	fills   int               // len(run.fills) when trades was made
	trades  []ai.Trade
}

// memory is the trade memory the strategy is shown now (nil with memory off).
func (r *run) memory() []ai.Trade {
	n := r.req.Config.MemoryTrades()
	if n <= 0 {
		return nil
	}
	m := &r.mem
	if m.trades != nil && m.fills == len(r.fills) {
		return m.trades
	}
	own := make([]domain.Fill, len(r.fills))
	for i, f := range r.fills {
		own[i] = domain.Fill{OrderID: f.order, Symbol: r.req.Symbol, Side: f.Side, Quantity: f.Quantity, Price: f.Price, Fee: f.Fee,
			Strategy: r.req.Config.Name, Time: f.Time}
	}
	m.trades, m.fills = strategy.TradeMemory(own, m.reasons, n), len(r.fills)
	if m.trades == nil {
		m.trades = []ai.Trade{}
	}
	return m.trades
}

// placed notes the reasoning behind a BUY order the run placed, should it
// open a trade.
func (r *run) placed(o domain.Order) {
	if o.Side != domain.Buy || r.req.Config.MemoryTrades() <= 0 {
		return
	}
	if r.mem.reasons == nil {
		r.mem.reasons = map[string]string{}
	}
	r.mem.reasons[o.ID] = r.mem.acting
}
