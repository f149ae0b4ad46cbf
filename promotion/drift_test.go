package promotion_test

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/backtest"
	"kestrel/domain"
	"kestrel/promotion"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// Decision by decision, with figures worked by hand: a BUY both took
// (paper paid 60,030 against the backtest's 60,000: 5 bps worse), a
// candle they decided differently, one only the paper stage evaluated, a
// protective fill no evaluation explains, and P&L as cash plus the open
// quantity at the mark.
func TestDriftOfJoinsDecisionByDecision(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	w := 15 * time.Minute
	mark := d("61000")
	in := promotion.DriftInput{Symbol: "BTC-USD", Width: w, Mark: &mark,
		Paper: []domain.Evaluation{
			{CandleTime: t0, Decision: "BUY", Confidence: 0.8, Executed: true, OrderID: "o1"},
			{CandleTime: t0.Add(w), Decision: "HOLD", Confidence: 0.5},
			{CandleTime: t0.Add(3 * w), Decision: "HOLD", Confidence: 0.5},
		},
		PaperFills: []domain.Fill{
			{OrderID: "o1", Side: domain.Buy, Quantity: d("0.1"), Price: d("60030"), Fee: d("36.018"), Time: t0.Add(w)},
			{OrderID: "stop", Side: domain.Sell, Quantity: d("0.04"), Price: d("59000"), Fee: d("14.16"), Time: t0.Add(2 * w)},
		},
		Backtest: map[time.Time]promotion.Decision{
			t0:            {Decision: "BUY", Confidence: 0.8},
			t0.Add(w):     {Decision: "SELL", Confidence: 0.7},
			t0.Add(2 * w): {Decision: "HOLD", Confidence: 0.5},
		},
		BacktestFills: []backtest.Fill{
			{Side: domain.Buy, Time: t0.Add(w), Price: d("60000"), Quantity: d("0.1"), Fee: d("36"), Reason: "signal"},
			{Side: domain.Sell, Time: t0.Add(2 * w), Price: d("60500"), Quantity: d("0.1"), Fee: d("36.3"), Reason: "signal"},
			{Side: domain.Sell, Time: t0.Add(4 * w), Price: d("61000"), Quantity: d("0"), Fee: d("0"), Reason: "end_of_data"},
		},
	}
	r := promotion.DriftOf(in)
	if len(r.Rows) != 4 || r.Compared != 2 || r.Agreed != 1 || r.OnlyPaper != 1 || r.OnlyBacktest != 1 {
		t.Fatalf("rows %d compared %d agreed %d only paper %d only backtest %d", len(r.Rows), r.Compared, r.Agreed, r.OnlyPaper, r.OnlyBacktest)
	}
	buy := r.Rows[0]
	if !buy.Agree || buy.PaperFill == nil || buy.BacktestFill == nil || buy.SlippageBps == nil || buy.SlippageBps.String() != "5" {
		t.Fatalf("the BUY row %+v (slippage %v), want 5 bps", buy, buy.SlippageBps)
	}
	if sell := r.Rows[1]; sell.Agree || sell.BacktestFill == nil || sell.PaperFill != nil || sell.SlippageBps != nil {
		t.Errorf("the candle decided differently %+v", sell)
	}
	if r.Rows[2].Paper != nil || r.Rows[3].Backtest != nil {
		t.Errorf("rows out of order or misjoined: %+v", r.Rows)
	}
	if r.MeanSlippageBps == nil || r.MeanSlippageBps.String() != "5" {
		t.Errorf("mean slippage %v", r.MeanSlippageBps)
	}
	if len(r.PaperOther) != 1 || r.PaperOther[0].Price.String() != "59000" || len(r.BacktestOther) != 1 || r.BacktestOther[0].Reason != "end_of_data" {
		t.Errorf("other fills paper %+v backtest %+v", r.PaperOther, r.BacktestOther)
	}
	// Paper: -6003 + 2360 - (36.018 + 14.16) = -3693.178 cash, 0.06 held at 61000 = 3660: -33.178.
	p := r.Paper
	if p.Fills != 2 || p.Buys != 1 || p.Sells != 0 || p.Fees.String() != "50.178" || p.NetCash.String() != "-3693.178" ||
		p.OpenQuantity.String() != "0.06" || p.PnL == nil || p.PnL.String() != "-33.178" {
		t.Errorf("paper totals %+v pnl %v", p, p.PnL)
	}
	// Backtest (its end-of-data close left out): -6000 + 6050 - 72.3 = -22.3, flat.
	b := r.Backtest
	if b.Fills != 2 || b.Buys != 1 || b.Sells != 1 || b.Fees.String() != "72.3" || b.NetCash.String() != "-22.3" || !b.OpenQuantity.IsZero() ||
		b.PnL == nil || b.PnL.String() != "-22.3" {
		t.Errorf("backtest totals %+v pnl %v", b, b.PnL)
	}
}
