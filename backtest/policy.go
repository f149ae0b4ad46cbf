package backtest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"

	"github.com/shopspring/decimal"

	"kestrel/trading"
)

// PolicyUsed is every risk and protective setting a run used: stored with
// the run, since the policy decides most outcomes and the settings change.
type PolicyUsed struct {
	StopLoss          bool            `json:"stop_loss"`
	StopLossPercent   decimal.Decimal `json:"stop_loss_percent"`
	TrailingStop      bool            `json:"trailing_stop,omitempty"`
	TakeProfit        bool            `json:"take_profit"`
	TakeProfitPercent decimal.Decimal `json:"take_profit_percent"`
	MaxPositionSize   decimal.Decimal `json:"max_position_size"`
	DailyLossLimit    decimal.Decimal `json:"daily_loss_limit"`
	MaxDrawdown       decimal.Decimal `json:"max_drawdown"`
	MaxOpenPositions  int             `json:"max_open_positions"`
	MaxDailyTrades    int             `json:"max_daily_trades"`
	MinTradeAmount    decimal.Decimal `json:"min_trade_amount"`
	MaxTradeAmount    decimal.Decimal `json:"max_trade_amount"`
	MaxLeverage       decimal.Decimal `json:"max_leverage"`
}

// policyUsed is p as a report stores it.
func policyUsed(p trading.Policy) PolicyUsed {
	l := p.Limits
	return PolicyUsed{StopLoss: p.StopLoss, StopLossPercent: p.StopLossPercent, TrailingStop: p.TrailingStop, TakeProfit: p.TakeProfit, TakeProfitPercent: p.TakeProfitPercent,
		MaxPositionSize: l.MaxPositionSize, DailyLossLimit: l.DailyLossLimit, MaxDrawdown: l.MaxDrawdown, MaxOpenPositions: l.MaxOpenPositions,
		MaxDailyTrades: l.MaxDailyTrades, MinTradeAmount: l.MinTradeAmount, MaxTradeAmount: l.MaxTradeAmount, MaxLeverage: l.MaxLeverage}
}

// answerHash pins the answers a recorded run replayed, in the order asked:
// the prompt's hash and what was replayed for it (or that nothing was), so
// two runs with the same hash replayed the same decisions.
type answerHash struct{ h hash.Hash }

func (a *answerHash) add(promptHash, provider, model, decision string, confidence float64, reasoning string) {
	if a.h == nil {
		a.h = sha256.New()
	}
	fmt.Fprintf(a.h, "%s\x00%s\x00%s\x00%s\x00%g\x00%q\n", promptHash, provider, model, decision, confidence, reasoning)
}

func (a *answerHash) sum() string {
	if a.h == nil {
		a.h = sha256.New()
	}
	return hex.EncodeToString(a.h.Sum(nil))
}
