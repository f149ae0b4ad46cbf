package ai

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// Trade is one of the strategy's own closed round trips (flat to flat, net
// of fees), as its trade memory shows it to the model.
type Trade struct {
	// ID is the order that opened it: the decision that opened it names
	// the same order, so a reader can go from the memory to the decision.
	ID     string
	Symbol string
	Side   domain.Side // the opening side (BUY: a spot account never goes short)
	// EntryTime and ExitTime are the first and the last fill's.
	EntryTime, ExitTime time.Time
	Quantity            decimal.Decimal // bought
	// EntryPrice and ExitPrice are the averages over the entry and the
	// exit fills.
	EntryPrice, ExitPrice decimal.Decimal
	EntryCost             decimal.Decimal // what the entry cost, fees included
	PnL                   decimal.Decimal // net of every fee of the trade
	// Reasoning is what the decision that opened it said ("" when no
	// decision is recorded for its order, e.g. a manual buy).
	Reasoning string
}

// Memory is the strategy's recent closed trades for the prompt's memory
// section. A Request without one (nil) renders no memory section at all.
type Memory struct {
	Trades    []Trade // oldest first
	MaxTokens int     // the section's budget (EstimateTokens of its lines)
}

// MemoryVersion is the shipped template with a memory section: a request
// with memory and no template of its own renders with it.
const MemoryVersion = "v3"

// maxReasonRunes caps each trade's reasoning in the memory, so one long
// answer does not crowd out the trades before it.
const maxReasonRunes = 280

// EstimateTokens is the token count the memory budget assumes for a text:
// one token per 4 characters, rounded up. Tokenizers differ by model; this
// estimate is the same on every run, so a budget cuts the same trades in a
// backtest as live.
func EstimateTokens(s string) int { return (utf8.RuneCountInString(s) + 3) / 4 }

// memoryTrade is one trade as templates see it (.Memory).
type memoryTrade struct {
	ID, Symbol, Side      string
	EntryTime, ExitTime   string // 2006-01-02 15:04 UTC
	Quantity              string
	EntryPrice, ExitPrice string
	PnL, PnLPct           string // signed, 2 decimals (quote currency; percent of the entry cost)
	Reasoning             string // one line, at most maxReasonRunes
	// Line is the trade in one line, as v3 shows it; the budget counts it.
	Line string
}

// fitMemory is the memory's trades as templates see them, the newest that
// fit the budget, and how many older ones were left out. The newest trade
// alone over the budget keeps as much of its reasoning as fits.
func fitMemory(m *Memory) ([]memoryTrade, int) {
	if m == nil {
		return nil, 0
	}
	out := make([]memoryTrade, len(m.Trades))
	used := 0
	for i, t := range m.Trades {
		out[i] = viewTrade(t, maxReasonRunes)
		used += EstimateTokens(out[i].Line)
	}
	first := 0
	for used > m.MaxTokens && first < len(out)-1 {
		used -= EstimateTokens(out[first].Line)
		first++ // oldest first
	}
	if first == len(out)-1 && used > m.MaxTokens {
		v := out[first]
		keep := utf8.RuneCountInString(v.Reasoning) - (utf8.RuneCountInString(v.Line) - m.MaxTokens*4)
		if v = viewTrade(m.Trades[first], keep); keep < 1 || EstimateTokens(v.Line) > m.MaxTokens {
			return []memoryTrade{}, len(out) // not even its facts fit
		}
		out[first] = v
	}
	return out[first:], first
}

// viewTrade formats t, its reasoning cut to at most keep characters.
func viewTrade(t Trade, keep int) memoryTrade {
	at := func(x time.Time) string { return x.UTC().Format("2006-01-02 15:04") + " UTC" }
	v := memoryTrade{ID: t.ID, Symbol: t.Symbol, Side: string(t.Side), EntryTime: at(t.EntryTime), ExitTime: at(t.ExitTime),
		Quantity: t.Quantity.String(), EntryPrice: t.EntryPrice.String(), ExitPrice: t.ExitPrice.String(),
		PnL: signed(t.PnL), PnLPct: "n/a", Reasoning: oneLine(t.Reasoning, keep)}
	if t.EntryCost.IsPositive() {
		v.PnLPct = signed(t.PnL.Div(t.EntryCost).Mul(decimal.NewFromInt(100)))
	}
	reason := `"` + v.Reasoning + `"`
	if v.Reasoning == "" {
		reason = "not recorded"
	}
	v.Line = v.ID + ": " + v.Side + " " + v.Quantity + " " + v.Symbol + " at " + v.EntryPrice + " on " + v.EntryTime +
		", closed at " + v.ExitPrice + " on " + v.ExitTime + ", net P&L " + v.PnL + " " + domain.Quote(t.Symbol) +
		" (" + v.PnLPct + "%); reasoning: " + reason
	return v
}

// signed writes d with 2 decimals and its sign (+1.50, -0.25, 0.00).
func signed(d decimal.Decimal) string {
	s := d.StringFixed(2)
	if d.Round(2).IsPositive() {
		s = "+" + s
	}
	return s
}

// oneLine folds s's whitespace (a model's newlines included) into single
// spaces, so each trade stays one line, and cuts it to at most keep
// characters, an ellipsis marking the cut.
func oneLine(s string, keep int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= keep {
		return s
	}
	if keep <= 0 {
		return ""
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:keep-1])) + "…"
}
