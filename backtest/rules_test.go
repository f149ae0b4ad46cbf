package backtest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"kestrel/backtest"
	"kestrel/domain"
	"kestrel/replay"
	"kestrel/strategy"
	"kestrel/trading"
)

// allIn sizes a BUY at nearly the whole account, so the account moves with the price.
func allIn(req *backtest.Request) {
	req.Config.MaxPositionSize, req.Config.RiskMultiplier = 0.9, 1
	req.Policy.Limits.MaxPositionSize, req.Policy.Limits.MaxTradeAmount = d("1"), d("1000000")
}

// The daily loss limit's day starts at 00:00 UTC, as live: a day already
// down 9% by its first signal refuses a BUY (limit 5%), though the loss
// came before any signal that day.
func TestDailyLossDayStartsAtMidnight(t *testing.T) {
	cs := flat(48)
	for i := 24; i < 48; i++ { // day 2 opens at 100 and falls to 90 by 05:00
		p := "90"
		if i == 24 {
			cs[i] = bar(i, "100", "100", "90", "90")
			continue
		}
		cs[i] = bar(i, p, p, p, p)
	}
	s := &script{at: map[time.Time]string{cs[1].Time: strategy.Buy, cs[29].Time: strategy.Sell, cs[33].Time: strategy.Buy}}
	req := request(s, cs, nil)
	allIn(&req)
	res, err := backtest.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Fills) != 2 || res.Fills[1].Side != domain.Sell {
		t.Fatalf("fills %+v (%v): want the BUY of day 1 and the SELL of day 2 only", res.Fills, res.Signals)
	}
	refused := false
	for why, n := range res.Signals.NotExecuted {
		refused = refused || strings.HasPrefix(why, "Daily loss limit reached") && n == 1
	}
	if !refused {
		t.Fatalf("not executed %v: want the day-2 BUY refused by the daily loss limit", res.Signals.NotExecuted)
	}
}

// Protective orders count towards the daily trade limit, as live: a BUY
// and its stop-loss, then a SELL, are three orders, so with a limit of 3 a
// second BUY that day is refused.
func TestDailyTradesCountProtectiveOrders(t *testing.T) {
	cs := flat(20)
	s := &script{at: map[time.Time]string{cs[1].Time: strategy.Buy, cs[3].Time: strategy.Sell, cs[5].Time: strategy.Buy}}
	req := request(s, cs, func(p *trading.Policy) {
		p.StopLoss, p.StopLossPercent, p.Limits.MaxDailyTrades = true, d("0.02"), 3
	})
	res, err := backtest.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Fills) != 2 || res.Signals.NotExecuted["Daily trade limit reached (3 trades today)"] != 1 {
		t.Fatalf("fills %d, not executed %v: want the second BUY refused by the daily trade limit", len(res.Fills), res.Signals.NotExecuted)
	}
}

// The backtest quotes the bid and ask as the live market does: a market
// BUY pays the ask, a SELL gets the bid, and a take-profit fills only once
// the bid reaches it.
func TestLiveHalfSpread(t *testing.T) {
	cs := ranged(flat(12))
	// The take-profit rests at 100.01 x 1.04 = 104.0104, up to the grid: 104.02.
	cs[7] = bar(7, "100", "104.02", "100", "100") // the bid reaches 104.01 only: it waits
	cs[8] = bar(8, "100", "104.04", "100", "100") // the bid reaches 104.02 at a price of 104.03
	s := &script{at: map[time.Time]string{cs[5].Time: strategy.Buy}}
	req := request(s, cs, func(p *trading.Policy) { p.TakeProfit, p.TakeProfitPercent = true, d("0.04") })
	req.HalfSpread = replay.LiveHalfSpread
	res, err := backtest.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Fills) != 2 || !res.Fills[0].Price.Equal(d("100.01")) || res.Fills[1].Reason != "take_profit" ||
		!res.Fills[1].Time.Equal(cs[8].Time) || !res.Fills[1].Price.Equal(d("104.02")) {
		t.Fatalf("fills %+v: want the BUY at the ask 100.01 and the take-profit in candle 8", res.Fills)
	}
	s = &script{at: map[time.Time]string{cs[1].Time: strategy.Buy, cs[3].Time: strategy.Sell}}
	req = request(s, cs, nil)
	req.HalfSpread = replay.LiveHalfSpread
	if res, err = backtest.Run(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if len(res.Fills) != 2 || !res.Fills[0].Price.Equal(d("100.01")) || !res.Fills[1].Price.Equal(d("99.99")) {
		t.Fatalf("fills %+v: want the BUY at the ask 100.01, the SELL at the bid 99.99", res.Fills)
	}
}

// An order the exchange refuses (here for want of funds) does not count
// towards the day's trades, as the gateway uncounts it.
func TestRefusedOrderDoesNotCount(t *testing.T) {
	cs := flat(10)
	s := &script{at: map[time.Time]string{cs[1].Time: strategy.Buy, cs[3].Time: strategy.Buy}}
	req := request(s, cs, func(p *trading.Policy) { p.Limits.MaxDailyTrades = 1 })
	req.Config.MaxPositionSize, req.Config.RiskMultiplier = 1, 1
	req.Policy.Limits.MaxPositionSize, req.Policy.Limits.MaxTradeAmount = d("1"), d("1000000") // 9,950 and its fee: more than the cash
	res, err := backtest.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Signals.NotExecuted["Insufficient balance for this trade"] != 2 {
		t.Fatalf("not executed %v: want both BUYs refused by the exchange, not the second by the trade limit", res.Signals.NotExecuted)
	}
}

// A run the maximum drawdown limit stops for good says so: when and why,
// how many signals it refused, and how many of the run's days went
// untraded after it; a run whose drawdown never reaches the limit has no
// halt, nor has one that opens a position again after reaching it.
func TestHaltedByMaxDrawdown(t *testing.T) {
	const days = 10
	cs := flat(days * 24)
	for i := 24; i < len(cs); i++ { // day 2 falls to 70 at 00:00 and stays there
		cs[i] = bar(i, "70", "70", "70", "70")
	}
	at := map[time.Time]string{cs[1].Time: strategy.Buy, cs[30].Time: strategy.Sell}
	for day := 3; day < days; day++ { // a BUY each day after: all refused
		at[cs[day*24+5].Time] = strategy.Buy
	}
	req := request(&script{at: at}, cs, nil)
	allIn(&req)
	res, err := backtest.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	h := res.Halted
	if h == nil {
		t.Fatalf("no halt: fills %+v, not executed %v, max drawdown %v", res.Fills, res.Signals.NotExecuted, res.MaxDrawdown)
	}
	// The curve closes at the limit at the first candle of day 2; the
	// SELL fills on day 2 (a traded day); days 3 to 10 see no fill.
	if h.Reason != "Maximum drawdown reached (limit 15%)" || !h.At.Equal(cs[24].Time) || h.Refused != days-3 || h.UntradedDays != days-2 || h.TotalDays != days {
		t.Fatalf("halted %+v", *h)
	}
	// The limit never reached: no halt.
	req.Policy.Limits.MaxDrawdown = d("0.5")
	if res, err := backtest.Run(context.Background(), req); err != nil || res.Halted != nil {
		t.Fatalf("limit 50%%: %+v %v", res.Halted, err)
	}
	// Trading resumed after the limit (the price recovers before the next
	// BUY): not a halt, though a signal was refused on the way.
	req.Policy.Limits.MaxDrawdown = d("0.15")
	for i := 8 * 24; i < len(cs); i++ {
		cs[i] = bar(i, "100", "100", "100", "100")
	}
	at2 := map[time.Time]string{cs[1].Time: strategy.Buy, cs[26].Time: strategy.Buy, cs[8*24+5].Time: strategy.Buy}
	req = request(&script{at: at2}, cs, nil)
	allIn(&req)
	res, err = backtest.Run(context.Background(), req)
	if err != nil || res.Halted != nil {
		t.Fatalf("resumed: %+v %v (fills %+v, not executed %v)", res.Halted, err, res.Fills, res.Signals.NotExecuted)
	}
}
