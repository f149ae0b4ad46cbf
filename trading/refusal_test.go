package trading_test

import (
	"context"
	"strings"
	"testing"

	"kestrel/domain"
	"kestrel/trading"
)

// A person's refused order is answered in the form: no system alert, but
// the notifications still hear of it. A strategy's refused order had nobody
// to answer: it stays an operations alert.
func TestRiskRefusalsAlertOnlyForStrategies(t *testing.T) {
	ctx := context.Background()
	d := newDesk(t)
	d.policy.Limits.MaxTradeAmount = dec("1000")
	var alerts, refusals []string
	svc, err := trading.New(ctx, trading.Deps{Exchange: d.sb, Account: d.sb.Account, Market: d.mkt, Store: d.store,
		Clock: d.clk, Policy: func() trading.Policy { return d.policy },
		Alert:   func(_ context.Context, sev, title, msg string) { alerts = append(alerts, sev+" "+title+": "+msg) },
		Refused: func(_ context.Context, title, msg string) { refusals = append(refusals, title+": "+msg) }})
	if err != nil {
		t.Fatal(err)
	}

	_, _, err = svc.Place(ctx, market("BTC-USD", domain.Buy, "0.1"))
	refused(t, err, domain.ERejected, "exceeds the maximum trade amount")
	if len(alerts) != 0 {
		t.Fatalf("a trader's refused order raised alerts %q", alerts)
	}
	if len(refusals) != 1 || !strings.HasPrefix(refusals[0], "Order refused by risk check: BUY 0.1 BTC-USD: ") {
		t.Fatalf("refusals heard = %q, want the trader's one", refusals)
	}

	bot := market("BTC-USD", domain.Buy, "0.1")
	bot.UserID, bot.Strategy = domain.StrategyUser+"rsi", "rsi"
	_, _, err = svc.Place(ctx, bot)
	refused(t, err, domain.ERejected, "exceeds the maximum trade amount")
	if len(alerts) != 1 || !strings.HasPrefix(alerts[0], "medium Order refused by risk check: Strategy rsi: BUY 0.1 BTC-USD: ") {
		t.Fatalf("alerts after a strategy's refusal = %q, want one operations alert", alerts)
	}
	if len(refusals) != 1 {
		t.Fatalf("a strategy's refusal was also handed over as a person's: %q", refusals)
	}
}
