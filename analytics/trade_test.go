package analytics

import (
	"testing"
	"time"

	"kestrel/domain"
)

var (
	placed  = time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC)
	updated = placed.Add(time.Minute)
)

func TestTradeOf(t *testing.T) {
	base := domain.Order{ID: "o1", Symbol: "BTC-USD", Side: domain.Buy, CreatedAt: placed, UpdatedAt: updated}
	with := func(f func(*domain.Order)) domain.Order { o := base; f(&o); return o }
	for _, tc := range []struct {
		name                      string
		order                     domain.Order
		status, qty, price, total string // price "" when the row has none; total to the cent
		cancelled                 string // "" when no remainder was cancelled
		at                        time.Time
	}{
		{"market BUY 0.5 BTC-USD filled @ 60,000.01", with(func(o *domain.Order) {
			o.Type, o.Quantity, o.FilledQuantity, o.AvgFillPrice, o.Status = domain.Market, dec("0.5"), dec("0.5"), decp("60000.01"), domain.StatusFilled
		}), Executed, "0.5", "60000.01", "30000.01", "", updated},
		{"resting limit BUY 0.1 @ 40,000", with(func(o *domain.Order) {
			o.Type, o.Quantity, o.Price, o.Status = domain.Limit, dec("0.1"), decp("40000"), domain.StatusOpen
		}), Pending, "0.1", "40000", "4000", "", placed},
		{"pending stop SELL 0.2 @ 50,000", with(func(o *domain.Order) {
			o.Side, o.Type, o.Quantity, o.StopPrice, o.Status = domain.Sell, domain.StopLoss, dec("0.2"), decp("50000"), domain.StatusPending
		}), Pending, "0.2", "50000", "10000", "", placed},
		{"limit BUY 0.1 partly filled (0.08 @ 59,999.99) then cancelled", with(func(o *domain.Order) {
			o.Type, o.Quantity, o.Price, o.FilledQuantity, o.AvgFillPrice, o.Status = domain.Limit, dec("0.1"), decp("60000"), dec("0.08"), decp("59999.99"), domain.StatusCancelled
		}), Executed, "0.08", "59999.99", "4800", "0.02", placed},
		{"limit cancelled untouched", with(func(o *domain.Order) {
			o.Type, o.Quantity, o.Price, o.Status = domain.Limit, dec("0.1"), decp("40000"), domain.StatusCancelled
		}), Cancelled, "0.1", "40000", "4000", "", placed},
		{"market rejected: no price", with(func(o *domain.Order) {
			o.Type, o.Quantity, o.Status, o.RejectReason = domain.Market, dec("2"), domain.StatusRejected, "Insufficient balance for this trade"
		}), Failed, "2", "", "0", "", placed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := TradeOf(tc.order)
			if tr.Status != tc.status || tr.ID != "o1" || tr.OrderID != "o1" || !tr.Timestamp.Equal(tc.at) {
				t.Errorf("trade %+v, want %s at %s", tr, tc.status, tc.at)
			}
			eq(t, "quantity", tr.Quantity, tc.qty)
			eq(t, "filled", tr.FilledQuantity, tc.order.FilledQuantity.String())
			if (tr.Price == nil) != (tc.price == "") || tr.Price != nil && !tr.Price.Equal(dec(tc.price)) {
				t.Errorf("price %v, want %q", tr.Price, tc.price)
			}
			eq(t, "total value", tr.TotalValue, tc.total)
			if (tr.CancelledQuantity == nil) != (tc.cancelled == "") || tr.CancelledQuantity != nil && !tr.CancelledQuantity.Equal(dec(tc.cancelled)) {
				t.Errorf("cancelled %v, want %q", tr.CancelledQuantity, tc.cancelled)
			}
			if tr.Reason != tc.order.RejectReason {
				t.Errorf("reason %q, want %q", tr.Reason, tc.order.RejectReason)
			}
		})
	}
}

func TestTradeStatus(t *testing.T) {
	for _, tc := range []struct {
		status domain.OrderStatus
		filled string
		want   string
	}{
		{domain.StatusFilled, "1", Executed},
		{domain.StatusPending, "0", Pending},
		{domain.StatusOpen, "0.5", Pending},
		{domain.StatusCancelled, "0", Cancelled},
		{domain.StatusCancelled, "0.08", Executed},
		{domain.StatusRejected, "0", Failed},
		{"unknown", "0", Failed},
	} {
		t.Run(string(tc.status)+" with "+tc.filled+" filled", func(t *testing.T) {
			if got := TradeStatus(domain.Order{Status: tc.status, FilledQuantity: dec(tc.filled)}); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}
