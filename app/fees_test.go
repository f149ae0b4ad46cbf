package app_test

import (
	"testing"

	"github.com/shopspring/decimal"

	"kestrel/app"
)

// The balances state the fee rates the sandbox charges, and a fill pays
// exactly the stated taker rate: a form's estimate uses the server's rate.
func TestBalancesStateTheFeeRatesFillsPay(t *testing.T) {
	s := startWith(t, t.TempDir(), func(c *app.Config) { c.TakerFee, c.MakerFee = "0.0055", "0.0021" })
	_, tok := s.accounts()

	var b struct {
		Fees *struct {
			Taker decimal.Decimal `json:"taker_rate"`
			Maker decimal.Decimal `json:"maker_rate"`
		}
	}
	s.into(s.do("GET", "/api/trading/balances", tok, ""), &b)
	if b.Fees == nil {
		t.Fatal("no fee rates in the balances")
	}
	if got, want := b.Fees.Taker.String()+" "+b.Fees.Maker.String(), "0.0055 0.0021"; got != want {
		t.Fatalf("fee rates %q, want %q", got, want)
	}

	var r struct {
		Order struct {
			Filled decimal.Decimal  `json:"filled_quantity"`
			Avg    *decimal.Decimal `json:"average_fill_price"`
			Fee    decimal.Decimal  `json:"fee"`
		}
	}
	s.into(s.do("POST", "/api/trading/execute", tok, `{"symbol":"BTC-USD","action":"BUY","quantity":"0.01"}`), &r)
	if r.Order.Avg == nil || !r.Order.Filled.Equal(decimal.RequireFromString("0.01")) {
		t.Fatalf("market BUY not filled: %+v", r.Order)
	}
	want := r.Order.Filled.Mul(*r.Order.Avg).Mul(b.Fees.Taker)
	if !r.Order.Fee.Round(8).Equal(want.Round(8)) {
		t.Errorf("BUY 0.01 BTC-USD @ %s paid fee %s, want %s at the stated taker rate", r.Order.Avg, r.Order.Fee, want)
	}
}
