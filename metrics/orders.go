package metrics

import "kestrel/domain"

// CountOrders feeds the order and fill counters from an exchange's update
// stream until it closes (domain.Exchange.Updates ends it with its context).
func (m *Metrics) CountOrders(updates <-chan domain.TradeUpdate) {
	for u := range updates {
		m.Orders.WithLabelValues(string(u.Order.Type), string(u.Order.Status)).Inc()
		if u.Fill != nil {
			m.Fills.WithLabelValues(u.Fill.Symbol, string(u.Fill.Side)).Inc()
		}
	}
}
