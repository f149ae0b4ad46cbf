package metrics

import (
	"strings"
	"testing"

	"kestrel/domain"
)

// counters reads every sample of the named family as "label=value,... value".
func counters(t *testing.T, m *Metrics, name string) map[string]float64 {
	t.Helper()
	fams, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, f := range fams {
		if f.GetName() != name {
			continue
		}
		for _, s := range f.GetMetric() {
			var labels []string
			for _, l := range s.GetLabel() {
				labels = append(labels, l.GetName()+"="+l.GetValue())
			}
			out[strings.Join(labels, ",")] = s.GetCounter().GetValue()
		}
	}
	return out
}

func TestCountOrders(t *testing.T) {
	m := New()
	ups := make(chan domain.TradeUpdate, 2)
	ups <- domain.TradeUpdate{Order: domain.Order{Type: domain.Market, Status: domain.StatusFilled}, Fill: &domain.Fill{Symbol: "BTC-USD", Side: domain.Buy}}
	ups <- domain.TradeUpdate{Order: domain.Order{Type: domain.Limit, Status: domain.StatusOpen}}
	close(ups)
	m.CountOrders(ups)
	orders := counters(t, m, "kestrel_orders_total")
	if len(orders) != 2 || orders["status=filled,type=market"] != 1 || orders["status=open,type=limit"] != 1 {
		t.Errorf("orders = %v, want one market filled and one limit open", orders)
	}
	if fills := counters(t, m, "kestrel_fills_total"); len(fills) != 1 || fills["side=BUY,symbol=BTC-USD"] != 1 {
		t.Errorf("fills = %v, want one BTC-USD BUY", fills)
	}
}
