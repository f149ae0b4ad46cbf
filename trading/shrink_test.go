package trading_test

import (
	"context"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/exchange/sandbox"
	"kestrel/trading"
)

// noStopEdits is the sandbox answering as Coinbase does: a stop cannot be
// edited (409); refuse makes it refuse new orders whose client id starts so.
type noStopEdits struct {
	*sandbox.Sandbox
	refuse string
}

func (x *noStopEdits) ModifyOrder(ctx context.Context, id string, q, p *decimal.Decimal) (domain.Order, error) {
	if o, err := x.Sandbox.Order(ctx, id); err == nil && o.Type == domain.StopLoss {
		return domain.Order{}, domain.Errorf(domain.EConflict, "Coinbase can edit limit orders only; cancel this stop_loss order and place a new one")
	}
	return x.Sandbox.ModifyOrder(ctx, id, q, p)
}

func (x *noStopEdits) PlaceOrder(ctx context.Context, r domain.OrderRequest) (domain.Order, error) {
	if x.refuse != "" && strings.HasPrefix(r.ClientOrderID, x.refuse) {
		return domain.Order{}, domain.Errorf(domain.ERejected, "Insufficient balance for this trade")
	}
	return x.Sandbox.PlaceOrder(ctx, r)
}

// A partial SELL of a position whose stop the exchange cannot edit: the
// stop is cancelled and placed again for the rest (same stop price, group
// and parent), then the SELL goes; if the new stop is refused the SELL
// still goes and an alert says the rest is unprotected.
func TestPartialSellReplacesAStopTheExchangeCannotEdit(t *testing.T) {
	for _, refuse := range []bool{false, true} {
		ctx := context.Background()
		d := newDesk(t)
		d.policy.StopLoss, d.policy.StopLossPercent, d.policy.TakeProfit = true, dec("0.02"), false
		x := &noStopEdits{Sandbox: d.sb}
		if refuse {
			x.refuse = "rp-"
		}
		var alerts []string
		svc, err := trading.New(ctx, trading.Deps{Exchange: x, Account: d.sb.Account, Market: d.mkt, Store: d.store,
			Clock: d.clk, Policy: func() trading.Policy { return d.policy },
			Alert: func(_ context.Context, _, title, _ string) { alerts = append(alerts, title) }})
		if err != nil {
			t.Fatal(err)
		}
		buy, _, err := svc.Place(ctx, market("BTC-USD", domain.Buy, "1"))
		if err != nil {
			t.Fatal(err)
		}
		fills, _ := d.sb.Fills(ctx, domain.FillFilter{})
		prot := svc.Protect(ctx, buy, fills[0])
		if len(prot) != 1 {
			t.Fatalf("protection %+v", prot)
		}
		if _, _, err := svc.Place(ctx, market("BTC-USD", domain.Sell, "0.4")); err != nil {
			t.Fatalf("refuse=%v: partial sell: %v", refuse, err)
		}
		old, _ := d.sb.Order(ctx, prot[0].ID)
		if old.Status != domain.StatusCancelled {
			t.Fatalf("the stop replaced: %+v", old)
		}
		live, _ := d.sb.LiveOrders(ctx)
		if refuse {
			if len(live) != 0 || len(alerts) != 1 || alerts[0] != "Protective order not placed" {
				t.Fatalf("refused replacement: live %+v, alerts %v", live, alerts)
			}
			continue
		}
		if len(live) != 1 {
			t.Fatalf("live orders %+v", live)
		}
		n := live[0]
		if n.Type != domain.StopLoss || !n.Quantity.Equal(dec("0.6")) || !n.StopPrice.Equal(*prot[0].StopPrice) ||
			n.GroupID != prot[0].GroupID || n.ParentID != buy.ID || len(alerts) != 0 {
			t.Fatalf("the new stop %+v (was %+v), alerts %v", n, prot[0], alerts)
		}
	}
}
