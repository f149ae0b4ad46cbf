package trading_test

import (
	"context"
	"strings"
	"testing"

	"kestrel/domain"
	"kestrel/exchange/sandbox"
	"kestrel/trading"
)

// lostStops is an exchange that loses the answer to every stop it is sent
// (as the Coinbase adapter does when neither the create nor the look after
// it is answered): the order may or may not have been placed.
type lostStops struct{ *sandbox.Sandbox }

func (x lostStops) PlaceOrder(ctx context.Context, r domain.OrderRequest) (domain.Order, error) {
	if strings.HasPrefix(r.ClientOrderID, "sl-") {
		return domain.Order{}, domain.Errorf(domain.EUnknownOutcome, "Coinbase did not confirm the order; it may or may not have been placed")
	}
	return x.Sandbox.PlaceOrder(ctx, r)
}

// A protective order whose outcome is unknown is not reported as "not
// placed": the alert says it was not confirmed, with the exchange's words.
func TestUnconfirmedProtectiveOrderIsNotCalledUnplaced(t *testing.T) {
	ctx := context.Background()
	d := newDesk(t)
	d.policy.StopLoss, d.policy.StopLossPercent, d.policy.TakeProfit = true, dec("0.02"), false
	type alert struct{ title, body string }
	var alerts []alert
	svc, err := trading.New(ctx, trading.Deps{Exchange: lostStops{d.sb}, Account: d.sb.Account, Market: d.mkt, Store: d.store,
		Clock: d.clk, Policy: func() trading.Policy { return d.policy },
		Alert: func(_ context.Context, _, title, body string) { alerts = append(alerts, alert{title, body}) }})
	if err != nil {
		t.Fatal(err)
	}
	buy, _, err := svc.Place(ctx, market("BTC-USD", domain.Buy, "1"))
	if err != nil {
		t.Fatal(err)
	}
	fills, _ := d.sb.Fills(ctx, domain.FillFilter{})
	if prot := svc.Protect(ctx, buy, fills[0]); len(prot) != 0 {
		t.Fatalf("protection %+v", prot)
	}
	if len(alerts) != 1 || alerts[0].title != "Protective order not confirmed" || !strings.Contains(alerts[0].body, "may or may not") {
		t.Fatalf("alerts %+v", alerts)
	}
}
