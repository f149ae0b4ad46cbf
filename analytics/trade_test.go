package analytics

import (
	"testing"
	"time"

	"kestrel/domain"
)

func TestTradesOf(t *testing.T) {
	at := func(s int64) time.Time { return time.Unix(s, 0).UTC() }
	orders := map[string]domain.Order{
		"buy":  {ID: "buy", Type: domain.Market},
		"stop": {ID: "stop", Type: domain.StopLoss, ParentID: "buy"},
	}
	fills := []domain.Fill{
		{ID: "f2", OrderID: "stop", Symbol: "BTC-USD", Side: domain.Sell, Quantity: dec("0.4"), Price: dec("95"), Fee: dec("0.228"), Time: at(2), Liquidity: "taker"},
		{ID: "f1", OrderID: "buy", Symbol: "BTC-USD", Side: domain.Buy, Quantity: dec("1"), Price: dec("100.005"), Fee: dec("0.6"), Time: at(1), Liquidity: "taker"},
	}
	rows := TradesOf(fills, orders)
	if len(rows) != 2 || rows[0].ID != "f2" || rows[1].ID != "f1" {
		t.Fatalf("rows %+v, want newest first", rows)
	}
	buy, sell := rows[1], rows[0]
	if buy.OrderType != domain.Market || buy.Status != Executed || buy.Protective || buy.RealizedPnL != nil || buy.OrderID != "buy" {
		t.Errorf("buy row %+v", buy)
	}
	eq(t, "a market order shows its fill price", buy.Price, "100.005")
	eq(t, "total", buy.TotalValue, "100.01")
	if sell.OrderType != domain.StopLoss || !sell.Protective || sell.RealizedPnL == nil {
		t.Fatalf("sell row %+v", sell)
	}
	// 0.4 x 95 = 38, less the fee 0.228, less 0.4 of the cost 100.605 (40.242): -2.47.
	eq(t, "realized on the exit", *sell.RealizedPnL, "-2.47")
}
