package trading_test

import (
	"context"
	"strings"
	"testing"

	"kestrel/domain"
	"kestrel/trading"
)

// A stop is modified in place (same order, new stop price and quantity);
// a stop price the market already passed, or more than the position, is a
// field error and leaves the stop as it was.
func TestModifyAStop(t *testing.T) {
	ctx := context.Background()
	d := newDesk(t)
	d.place(t, market("BTC-USD", domain.Buy, "0.5"))
	s := d.place(t, stop("BTC-USD", domain.Sell, "0.3", "45000"))

	_, err := d.svc.Modify(ctx, s.ID, nil, decp("50001"))
	if f := fieldsOf(err); !strings.HasPrefix(f["stop_price"], "Stop price must be below the current price (50000)") {
		t.Fatalf("stop above the market: %v %v", err, f)
	}
	_, err = d.svc.Modify(ctx, s.ID, decp("0.6"), nil)
	if f := fieldsOf(err); f["quantity"] != "Quantity must not exceed the position: 0.5 BTC held" {
		t.Fatalf("stop larger than the position: %v %v", err, f)
	}
	if o, _ := d.sb.Order(ctx, s.ID); !o.StopPrice.Equal(dec("45000")) || !o.Quantity.Equal(dec("0.3")) || !o.Status.Live() {
		t.Fatalf("a refused modify changed the stop: %+v", o)
	}
	o, err := d.svc.Modify(ctx, s.ID, decp("0.5"), decp("47000"))
	if err != nil {
		t.Fatal(err)
	}
	if o.ID != s.ID || !o.StopPrice.Equal(dec("47000")) || !o.Quantity.Equal(dec("0.5")) || !o.Status.Live() {
		t.Fatalf("modified stop %+v", o)
	}
	if b := balanceOf(t, d, "BTC"); !b.Hold.Equal(dec("0.5")) {
		t.Fatalf("the stop holds %s BTC, want 0.5", b.Hold)
	}
	live, _ := d.sb.LiveOrders(ctx)
	if len(live) != 1 {
		t.Fatalf("a modify left %d live orders, want the one stop", len(live))
	}
}

// Kestrel's protective stop is the trader's to move: its owner (or an
// operator) modifies it; another trader is refused.
func TestModifyAProtectiveStop(t *testing.T) {
	ctx := context.Background()
	d := newDesk(t)
	d.policy.StopLoss, d.policy.StopLossPercent = true, dec("0.02")
	buy := d.place(t, market("BTC-USD", domain.Buy, "1"))
	fills, _ := d.sb.Fills(ctx, domain.FillFilter{})
	prot := d.svc.Protect(ctx, buy, fills[0])
	if len(prot) != 1 {
		t.Fatalf("protection %+v", prot)
	}
	if _, err := d.svc.ModifyAs(ctx, &trading.Actor{UserID: "u2"}, prot[0].ID, nil, decp("49500")); domain.ErrorCode(err) != domain.EForbidden {
		t.Fatalf("another trader's modify: %v", err)
	}
	o, err := d.svc.ModifyAs(ctx, &trading.Actor{UserID: "u1"}, prot[0].ID, nil, decp("49500"))
	if err != nil {
		t.Fatal(err)
	}
	if !o.StopPrice.Equal(dec("49500")) || o.ParentID != buy.ID || o.GroupID != prot[0].GroupID {
		t.Fatalf("moved protective stop %+v", o)
	}
	if _, err := d.svc.ModifyAs(ctx, &trading.Actor{UserID: "op", Operator: true}, prot[0].ID, decp("0.8"), nil); err != nil {
		t.Fatalf("operator's modify: %v", err)
	}
}

// Positions carry their stop-loss and take-profit, and a partial SELL that
// shrinks the protection leaves a notice saying so and why.
func TestPositionsShowProtectionAndItsReduction(t *testing.T) {
	ctx := context.Background()
	d := newDesk(t)
	d.policy.StopLoss, d.policy.StopLossPercent = true, dec("0.02")
	d.policy.TakeProfit, d.policy.TakeProfitPercent = true, dec("0.04")
	buy := d.place(t, market("BTC-USD", domain.Buy, "1"))
	fills, _ := d.sb.Fills(ctx, domain.FillFilter{})
	prot := d.svc.Protect(ctx, buy, fills[0])

	ps, err := d.svc.Positions(ctx)
	if err != nil || len(ps) != 1 {
		t.Fatalf("positions %+v %v", ps, err)
	}
	p := ps[0]
	if len(p.Protection) != 2 || p.ProtectionReduced != nil {
		t.Fatalf("protection %+v, notice %+v", p.Protection, p.ProtectionReduced)
	}
	sl, tp := p.Protection[0], p.Protection[1]
	if sl.Kind != "stop_loss" || !sl.Price.Equal(dec("49000")) || !sl.Quantity.Equal(dec("1")) || !sl.Protective || sl.OrderID != prot[0].ID {
		t.Fatalf("stop-loss %+v", sl)
	}
	if tp.Kind != "take_profit" || !tp.Price.Equal(dec("52000.02")) || !tp.Quantity.Equal(dec("1")) {
		t.Fatalf("take-profit %+v", tp)
	}

	if _, _, err := d.svc.Place(ctx, market("BTC-USD", domain.Sell, "0.4")); err != nil {
		t.Fatal(err)
	}
	ps, _ = d.svc.Positions(ctx)
	n := ps[0].ProtectionReduced
	if n == nil || !n.From.Equal(dec("1")) || !n.To.Equal(dec("0.6")) || n.Reason != "a market SELL of 0.4 BTC was placed" {
		t.Fatalf("notice %+v", n)
	}
	if q := ps[0].Protection[0].Quantity; !q.Equal(dec("0.6")) {
		t.Fatalf("stop covers %s after the sell, want 0.6", q)
	}

	// A new BUY protected afresh retires the notice.
	buy2 := d.place(t, market("BTC-USD", domain.Buy, "0.1"))
	fills, _ = d.sb.Fills(ctx, domain.FillFilter{})
	d.svc.Protect(ctx, buy2, fills[0])
	if ps, _ = d.svc.Positions(ctx); ps[0].ProtectionReduced != nil {
		t.Fatalf("notice after new protection: %+v", ps[0].ProtectionReduced)
	}
}

// With the trailing protective stop on, a BUY gets a trailing stop at the
// stop-loss distance, guarding the fill (app's TestCoinbaseTrailingProtectiveStop
// has the same on Coinbase).
func TestTrailingProtectiveStop(t *testing.T) {
	ctx := context.Background()
	d := newDesk(t)
	d.policy.StopLoss, d.policy.StopLossPercent, d.policy.TrailingStop = true, dec("0.02"), true
	buy := d.place(t, market("BTC-USD", domain.Buy, "0.5"))
	fills, _ := d.sb.Fills(ctx, domain.FillFilter{})
	prot := d.svc.Protect(ctx, buy, fills[0])
	if len(prot) != 1 || prot[0].Type != domain.TrailingStop || !prot[0].Trail.Percent.Equal(dec("2")) || prot[0].ParentID != buy.ID {
		t.Fatalf("protection %+v", prot)
	}
}
