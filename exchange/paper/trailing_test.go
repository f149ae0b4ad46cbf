package paper_test

import (
	"errors"
	"testing"

	"kestrel/domain"
)

func trailing(side domain.Side, qty string, tr domain.Trail) domain.OrderRequest {
	return domain.OrderRequest{Symbol: "BTC-USD", Side: side, Type: domain.TrailingStop, Quantity: d(qty), Trail: &tr}
}

// A SELL trailing stop of 2% follows the price up (never down) and
// triggers when the price falls 2% from the highest price seen.
func TestTrailingStopFollowsUpAndTriggersOnTheWayDown(t *testing.T) {
	e := newEngine(t, "0", "0")
	place(t, e, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("1")})
	o := place(t, e, trailing(domain.Sell, "1", domain.Trail{Percent: dp("2")}))
	eq(t, "initial stop", *o.StopPrice, "49000") // 50,000 x 0.98
	eq(t, "mark", *o.Trail.Extreme, "50000")
	eq(t, "BTC on hold", balance(e, "BTC").Hold, "1")

	for _, px := range []string{"51000", "52000", "51500"} {
		quote(e, "BTC-USD", px, "", "")
	}
	cur, _ := e.LiveOrder(o.ID)
	eq(t, "stop after 52,000 then 51,500", *cur.StopPrice, "50960") // 52,000 x 0.98, not back down
	eq(t, "mark", *cur.Trail.Extreme, "52000")

	c := quote(e, "BTC-USD", "50961", "", "")
	if len(c.Fills) != 0 {
		t.Fatalf("triggered above the stop: %+v", c.Fills)
	}
	c = quote(e, "BTC-USD", "50950", "", "")
	if len(c.Fills) != 1 || c.Fills[0].OrderID != o.ID {
		t.Fatalf("did not trigger at 50,950: %+v", c)
	}
	eq(t, "fill price (bid)", c.Fills[0].Price, "50949.99")
	if _, live := e.LiveOrder(o.ID); live {
		t.Fatal("still live after triggering")
	}
}

// An activation price holds the trail back until the market reaches it; a
// trail in price units keeps a fixed distance; a BUY trailing stop follows
// the price down and triggers on the way up.
func TestTrailingStopActivationAmountAndBuy(t *testing.T) {
	e := newEngine(t, "0", "0")
	place(t, e, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("1")})
	o := place(t, e, trailing(domain.Sell, "1", domain.Trail{Amount: dp("500"), Activation: dp("51000")}))
	if o.StopPrice != nil || o.Trail.Extreme != nil {
		t.Fatalf("active before its activation price: %+v", o)
	}
	quote(e, "BTC-USD", "40000", "", "") // far below: nothing triggers, nothing trails
	if cur, _ := e.LiveOrder(o.ID); cur.StopPrice != nil {
		t.Fatalf("trailing before activation: %+v", cur)
	}
	quote(e, "BTC-USD", "51200", "", "")
	cur, _ := e.LiveOrder(o.ID)
	eq(t, "stop once active", *cur.StopPrice, "50700")

	b := place(t, e, trailing(domain.Buy, "0.1", domain.Trail{Percent: dp("1")}))
	eq(t, "buy stop", *b.StopPrice, "51712") // 51,200 x 1.01
	quote(e, "BTC-USD", "51000", "", "")
	cur, _ = e.LiveOrder(b.ID)
	eq(t, "buy stop follows down", *cur.StopPrice, "51510")
	if c := quote(e, "BTC-USD", "51600", "", ""); len(c.Fills) != 1 || c.Fills[0].OrderID != b.ID {
		t.Fatalf("buy trailing stop did not trigger at 51,600: %+v", c.Fills)
	}
}

// A ranged quote triggers on the stop as it stood before the quote, then
// moves the mark to the quote's high.
func TestTrailingStopRangedQuote(t *testing.T) {
	e := newEngine(t, "0", "0")
	place(t, e, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("1")})
	o := place(t, e, trailing(domain.Sell, "1", domain.Trail{Percent: dp("2")}))
	if c := quote(e, "BTC-USD", "50500", "49500", "51000"); len(c.Fills) != 0 {
		t.Fatalf("triggered though the low stayed above the 49,000 stop: %+v", c.Fills)
	}
	cur, _ := e.LiveOrder(o.ID)
	eq(t, "stop after the range", *cur.StopPrice, "49980")
}

func TestTrailingStopValidation(t *testing.T) {
	e := newEngine(t, "0", "0")
	for _, c := range []struct {
		tr    domain.Trail
		field string
		msg   string
	}{
		{domain.Trail{}, "trail_percent", domain.MsgTrailOne},
		{domain.Trail{Percent: dp("1"), Amount: dp("5")}, "trail_percent", domain.MsgTrailOne},
		{domain.Trail{Percent: dp("100")}, "trail_percent", domain.MsgTrailPercent},
		{domain.Trail{Amount: dp("-1")}, "trail_amount", domain.MsgTrailAmount},
		{domain.Trail{Amount: dp("1"), Activation: dp("0")}, "activation_price", domain.MsgTrailActivate},
	} {
		_, _, err := e.Place(t0, trailing(domain.Sell, "0.1", c.tr))
		var de *domain.Error
		if !asErr(err, &de) || de.Fields[c.field] != c.msg {
			t.Errorf("%+v: %v, want %s: %s", c.tr, err, c.field, c.msg)
		}
	}
	place(t, e, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("1")})
	o := place(t, e, trailing(domain.Sell, "1", domain.Trail{Percent: dp("2")}))
	if _, _, err := e.Modify(t0, o.ID, nil, dp("48000")); domain.ErrorCode(err) != domain.EInvalid {
		t.Fatalf("a trailing stop's price modified: %v", err)
	}
	m, _, err := e.Modify(t0, o.ID, dp("0.5"), nil)
	if err != nil || !m.Quantity.Equal(d("0.5")) || !m.StopPrice.Equal(d("49000")) {
		t.Fatalf("quantity modify: %+v %v", m, err)
	}
}

func asErr(err error, e **domain.Error) bool { return errors.As(err, e) }
