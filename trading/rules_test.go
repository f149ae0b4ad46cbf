package trading_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"kestrel/candles"
	"kestrel/domain"
	"kestrel/exchange/sandbox"
)

func balanceOf(t *testing.T, d *desk, cur string) domain.Balance {
	t.Helper()
	bals, err := d.sb.Balances(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bals {
		if b.Currency == cur {
			return b
		}
	}
	return domain.Balance{}
}

func refused(t *testing.T, err error, code, contains string) {
	t.Helper()
	if domain.ErrorCode(err) != code || !strings.Contains(domain.ErrorMessage(err), contains) {
		t.Fatalf("error %v, want %s containing %q", err, code, contains)
	}
}

// After a gain, a position that was 10% is worth more than the maximum trade
// amount: selling it in one order must still be accepted.
func TestReducingSellIsNeverTrapped(t *testing.T) {
	ctx := context.Background()
	d := newDesk(t)
	d.policy.Limits.MaxTradeAmount = dec("10000")
	d.policy.Limits.MaxPositionSize = dec("0.1")
	d.place(t, market("BTC-USD", domain.Buy, "0.19"))
	d.mkt.set("BTC-USD", "60000") // 0.19 BTC now worth 11,400
	d.policy.Limits.MaxDailyTrades = 1
	d.policy.Limits.DailyLossLimit = dec("0") // every limit that could refuse is hit
	d.policy.Limits.MaxOpenPositions = 0
	if _, _, err := d.svc.Place(ctx, market("BTC-USD", domain.Sell, "0.19")); err != nil {
		t.Fatalf("selling the whole position was refused: %v", err)
	}
	// A buy of the same size is still refused.
	_, _, err := d.svc.Place(ctx, market("BTC-USD", domain.Buy, "0.19"))
	refused(t, err, domain.ERejected, "exceeds the maximum trade amount")
}

func TestEmergencyStopHaltsNewRiskNotExits(t *testing.T) {
	ctx := context.Background()
	d := newDesk(t)
	d.policy.StopLoss, d.policy.StopLossPercent = true, dec("0.02")
	buy := d.place(t, market("BTC-USD", domain.Buy, "0.5"))
	fills, _ := d.sb.Fills(ctx, domain.FillFilter{})
	prot := d.svc.Protect(ctx, buy, fills[0])
	if len(prot) != 1 || prot[0].Type != domain.StopLoss {
		t.Fatalf("protective orders %+v", prot)
	}
	rest := d.place(t, limit("BTC-USD", domain.Buy, "0.1", "40000"))
	cancelled, err := d.svc.Stop(ctx, "ops", "")
	if err != nil || len(cancelled) != 1 || cancelled[0].ID != rest.ID {
		t.Fatalf("stop cancelled %+v (%v), want only the resting buy", cancelled, err)
	}
	if o, _ := d.sb.Order(ctx, prot[0].ID); o.Status != domain.StatusOpen {
		t.Fatalf("protective stop-loss disarmed by the emergency stop: %s", o.Status)
	}
	_, _, err = d.svc.Place(ctx, market("BTC-USD", domain.Buy, "0.01"))
	refused(t, err, domain.ERejected, "emergency stop is active")
	// Selling the position while halted takes the quantity from the protective stop.
	if _, _, err := d.svc.Place(ctx, market("BTC-USD", domain.Sell, "0.5")); err != nil {
		t.Fatalf("sell while halted: %v", err)
	}
	if o, _ := d.sb.Order(ctx, prot[0].ID); o.Status != domain.StatusCancelled {
		t.Fatalf("protective stop left behind a closed position: %s", o.Status)
	}
	if b := balanceOf(t, d, "BTC"); !b.Total().IsZero() {
		t.Fatalf("BTC left %+v", b)
	}
}

func TestProtectiveGroupFollowsAPartialSell(t *testing.T) {
	ctx := context.Background()
	d := newDesk(t)
	d.policy.StopLoss, d.policy.StopLossPercent = true, dec("0.02")
	d.policy.TakeProfit, d.policy.TakeProfitPercent = true, dec("0.04")
	buy := d.place(t, market("BTC-USD", domain.Buy, "1"))
	fills, _ := d.sb.Fills(ctx, domain.FillFilter{})
	prot := d.svc.Protect(ctx, buy, fills[0])
	if len(prot) != 2 || prot[0].GroupID == "" || prot[0].GroupID != prot[1].GroupID || prot[0].ParentID != buy.ID {
		t.Fatalf("want one stop-loss and one take-profit in one group: %+v", prot)
	}
	if got, want := prot[0].StopPrice.String(), "49000"; got != want { // 50,000.01 x 0.98 = 49,000.0098, down to the cent
		t.Errorf("stop price %s, want %s", got, want)
	}
	if got, want := prot[1].Price.String(), "52000.02"; got != want { // 50,000.01 x 1.04, rounded up
		t.Errorf("take-profit %s, want %s", got, want)
	}
	if b := balanceOf(t, d, "BTC"); !b.Hold.Equal(dec("1")) {
		t.Fatalf("the group holds %s BTC, want 1 (once, not twice)", b.Hold)
	}
	if _, _, err := d.svc.Place(ctx, market("BTC-USD", domain.Sell, "0.4")); err != nil {
		t.Fatal(err)
	}
	for _, p := range prot {
		o, _ := d.sb.Order(ctx, p.ID)
		if !o.Quantity.Equal(dec("0.6")) || o.Status != domain.StatusOpen {
			t.Fatalf("protective order after selling 0.4: %s %s, want 0.6 open", o.Quantity, o.Status)
		}
	}
	// The take-profit fills: the stop-loss goes with it.
	d.mkt.set("BTC-USD", "52100")
	if err := d.sb.OnTick(ctx, domain.Tick{Symbol: "BTC-USD"}); err != nil {
		t.Fatal(err)
	}
	sl, _ := d.sb.Order(ctx, prot[0].ID)
	tp, _ := d.sb.Order(ctx, prot[1].ID)
	if tp.Status != domain.StatusFilled || sl.Status != domain.StatusCancelled {
		t.Fatalf("after the take-profit: tp %s, sl %s", tp.Status, sl.Status)
	}
}

func TestHandPlacedStopKeepsItsHoldAndIsNamed(t *testing.T) {
	ctx := context.Background()
	d := newDesk(t)
	d.place(t, market("BTC-USD", domain.Buy, "0.5"))
	mine := d.place(t, stop("BTC-USD", domain.Sell, "0.3", "45000"))
	_, _, err := d.svc.Place(ctx, market("BTC-USD", domain.Sell, "0.5"))
	refused(t, err, domain.ERejected, "on hold for your open stop_loss SELL order "+mine.ID)
	if _, _, err := d.svc.Place(ctx, market("BTC-USD", domain.Sell, "0.2")); err != nil {
		t.Fatalf("selling the free 0.2: %v", err)
	}
}

func TestModifyIsANewOrderToTheRiskCheck(t *testing.T) {
	ctx := context.Background()
	d := newDesk(t)
	d.policy.Limits.MaxTradeAmount = dec("10000")
	d.policy.Limits.MaxPositionSize = dec("0.1")
	o := d.place(t, limit("BTC-USD", domain.Buy, "0.001", "40000"))
	_, err := d.svc.Modify(ctx, o.ID, decp("1.9"), nil)
	refused(t, err, domain.ERejected, "exceeds the maximum trade amount")
	if got, _ := d.sb.Order(ctx, o.ID); !got.Quantity.Equal(dec("0.001")) {
		t.Fatalf("refused modify changed the order: %s", got.Quantity)
	}
	// Within the limits, and replacing its own exposure, it is accepted.
	if _, err := d.svc.Modify(ctx, o.ID, decp("0.2"), nil); err != nil {
		t.Fatalf("modify within limits: %v", err)
	}
}

func TestRestingBuysCountAsExposure(t *testing.T) {
	ctx := context.Background()
	d := newDesk(t)
	d.policy.Limits.MaxPositionSize = dec("0.1")
	d.place(t, limit("BTC-USD", domain.Buy, "0.2", "40000")) // 8,000 resting
	_, _, err := d.svc.Place(ctx, limit("BTC-USD", domain.Buy, "0.06", "40000"))
	refused(t, err, domain.ERejected, "Position in BTC-USD would be 10.4% of portfolio value")
	d.policy.Limits.MaxOpenPositions = 1
	_, _, err = d.svc.Place(ctx, stop("ETH-USD", domain.Buy, "0.1", "3000"))
	refused(t, err, domain.ERejected, "Maximum open positions reached (1)")
}

func TestClientOrderIDs(t *testing.T) {
	ctx := context.Background()
	d := newDesk(t)
	req := market("BTC-USD", domain.Buy, "0.01")
	req.ClientOrderID = "c-1"
	a, created, err := d.svc.Place(ctx, req)
	if err != nil || !created {
		t.Fatalf("first: %v %v", created, err)
	}
	b, created, err := d.svc.Place(ctx, req)
	if err != nil || created || b.ID != a.ID {
		t.Fatalf("same id, same order: %s %v %v", b.ID, created, err)
	}
	req.Quantity = dec("0.02")
	_, _, err = d.svc.Place(ctx, req)
	refused(t, err, domain.EConflict, "already used for a different order")
	req.UserID = "u2" // another user's id space
	if _, created, err := d.svc.Place(ctx, req); err != nil || !created {
		t.Fatalf("another user's same client id: %v %v", created, err)
	}
}

func TestValidationUsesProductIncrements(t *testing.T) {
	ctx := context.Background()
	d := newDesk(t)
	cases := []struct {
		req   domain.OrderRequest
		field string
		msg   string
	}{
		{limit("BTC-USD", domain.Buy, "0.1", "40000.001"), "price", "Price must be a multiple of 0.01"},
		{market("BTC-USD", domain.Buy, "0.000000001"), "quantity", "Quantity must be a multiple of 0.00000001"},
		{market("", domain.Buy, "1"), "symbol", "Symbol is required"},
		{market("BTC-USD", domain.Buy, "0"), "quantity", "Valid quantity is required"},
		{domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Limit, Quantity: dec("1")}, "price", "Valid price is required for limit orders"},
		{domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Sell, Type: domain.StopLoss, Quantity: dec("1")}, "stop_price", "Valid stop price is required for stop orders"},
		{domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: dec("0.01"), Strategy: strings.Repeat("x", 65)}, "strategy", "Strategy must be at most 64 characters"},
	}
	for _, c := range cases {
		_, _, err := d.svc.Place(ctx, c.req)
		var e *domain.Error
		if domain.ErrorCode(err) != domain.EInvalid || !asErr(err, &e) || e.Fields[c.field] != c.msg {
			t.Errorf("%+v: %v (fields %v), want %s: %q", c.req, err, fieldsOf(err), c.field, c.msg)
		}
	}
}

func asErr(err error, e **domain.Error) bool {
	de, ok := err.(*domain.Error)
	*e = de
	return ok
}

func fieldsOf(err error) map[string]string {
	if de, ok := err.(*domain.Error); ok {
		return de.Fields
	}
	return nil
}

// An order that partly filled and was then cancelled is, in the history,
// its fills: what traded, never the cancelled remainder.
func TestPartlyFilledThenCancelledInHistory(t *testing.T) {
	ctx := context.Background()
	d := newDesk(t)
	opt := sandbox.DefaultOptions(candles.Products()[:2])
	opt.Clock, opt.MaxFillPerTick = d.clk, dec("0.04")
	sb, err := sandbox.New(ctx, d.store, d.mkt, opt)
	if err != nil {
		t.Fatal(err)
	}
	d.sb = sb
	d.svc = d.gateway(t, nil)
	o := d.place(t, limit("BTC-USD", domain.Buy, "0.1", "49000"))
	d.mkt.set("BTC-USD", "48900")
	if err := sb.OnTick(ctx, domain.Tick{Symbol: "BTC-USD"}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.svc.Cancel(ctx, o.ID); err != nil {
		t.Fatal(err)
	}
	trades, _, err := d.svc.History(ctx, "BTC-USD", 10, 0)
	// The tick filled 0.04; the cancel first showed the exchange the market
	// (still through the limit), which filled another 0.04.
	if err != nil || len(trades) != 2 {
		t.Fatalf("history %+v %v, want the two fills", trades, err)
	}
	for _, tr := range trades {
		if tr.Status != "executed" || !tr.Quantity.Equal(dec("0.04")) || tr.OrderID != o.ID || tr.OrderType != domain.Limit {
			t.Fatalf("trade %+v, want an executed fill of 0.04 of the limit", tr)
		}
	}
}

// A BUY that filled while the update loop was not running gets its
// protection when the loop starts, once.
func TestFillsMissedWhileDownAreProtectedOnStart(t *testing.T) {
	ctx := context.Background()
	d := newDesk(t)
	d.policy.StopLoss, d.policy.StopLossPercent = true, dec("0.02")
	start := func() { d.svc.ProtectMissed(ctx) } // what Run does first
	start()                                      // a first start sets the mark: nothing before it is protected
	d.clk.t = d.clk.t.Add(time.Minute)
	buy := d.place(t, market("BTC-USD", domain.Buy, "0.1")) // no loop running: no protection yet
	for i := 0; i < 2; i++ {
		start()
	}
	open, _ := d.sb.Orders(ctx, domain.OrderFilter{Status: domain.StatusOpen})
	if len(open) != 1 || open[0].ParentID != buy.ID || open[0].Type != domain.StopLoss {
		t.Fatalf("open orders after two starts: %+v, want one protective stop for %s", open, buy.ID)
	}
}

// A SELL that gets in before the protection of its BUY leaves nothing to
// protect: no protective order and no alert.
func TestSoldBeforeProtectionNeedsNone(t *testing.T) {
	ctx := context.Background()
	d := newDesk(t)
	d.policy.StopLoss, d.policy.StopLossPercent = true, dec("0.02")
	var alerts []string
	d.svc = d.gateway(t, func(_ context.Context, sev, title, _ string) { alerts = append(alerts, sev+": "+title) })
	buy := d.place(t, market("BTC-USD", domain.Buy, "0.1"))
	d.place(t, market("BTC-USD", domain.Sell, "0.1"))
	fills, _ := d.sb.Fills(ctx, domain.FillFilter{Symbol: "BTC-USD"})
	var bf domain.Fill
	for _, f := range fills {
		if f.OrderID == buy.ID {
			bf = f
		}
	}
	if got := d.svc.Protect(ctx, buy, bf); len(got) != 0 || len(alerts) != 0 {
		t.Fatalf("protected a sold position: %+v, alerts %v", got, alerts)
	}
}
