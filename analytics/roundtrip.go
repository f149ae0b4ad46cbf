package analytics

import (
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// RoundTrip is one closed trade: a position in one symbol opened from flat by
// buy fills and taken back to flat by sell fills (the backtests' definition).
// Every screen and API field that counts trades or a win rate counts these.
type RoundTrip struct {
	Symbol   string
	Strategy string // the strategy of the opening fill
	// OpenOrderID is the order of the opening fill: the trade's id where
	// one is shown (an AI decision that opened it names the same order).
	OpenOrderID string
	EntryTime   time.Time
	ExitTime    time.Time
	// Quantity is what the buys bought; EntryPrice and ExitPrice are the
	// average prices of the buys and of the sells (before fees).
	Quantity              decimal.Decimal
	EntryPrice, ExitPrice decimal.Decimal
	// EntryCost is what the buys cost, fees included.
	EntryCost decimal.Decimal
	// NetPnL is sell proceeds less buy notional less every fee of the trip.
	NetPnL decimal.Decimal
}

// Won says whether the trip made money after fees (net P&L > 0).
func (t RoundTrip) Won() bool { return t.NetPnL.IsPositive() }

// inTimeOrder is a copy of fills, oldest first: every figure built from a
// fill sequence reads them in this one order. Fills in the same stored
// millisecond (a strategy's BUY and SELL placed back to back) keep the order
// of their ids: Kestrel's own are time-ordered UUIDs, so a SELL never lands
// before the BUY it closes.
func inTimeOrder(fills []domain.Fill) []domain.Fill {
	sorted := append([]domain.Fill(nil), fills...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if !sorted[i].Time.Equal(sorted[j].Time) {
			return sorted[i].Time.Before(sorted[j].Time)
		}
		return sorted[i].ID < sorted[j].ID
	})
	return sorted
}

// RoundTrips returns the closed round trips of the fills (any order), oldest
// exit first. Sells while flat (funds Kestrel did not buy) open nothing; a
// position still open is not a trade yet.
func RoundTrips(fills []domain.Fill) []RoundTrip {
	sorted := inTimeOrder(fills)
	type open struct {
		trip         RoundTrip
		held         decimal.Decimal
		bought, sold decimal.Decimal // notional, before fees
		soldQty      decimal.Decimal
	}
	cur := map[string]*open{}
	out := []RoundTrip{}
	for _, f := range sorted {
		o := cur[f.Symbol]
		notional := f.Quantity.Mul(f.Price)
		if f.Side == domain.Buy {
			if o == nil {
				o = &open{trip: RoundTrip{Symbol: f.Symbol, Strategy: f.Strategy, OpenOrderID: f.OrderID, EntryTime: f.Time}}
				cur[f.Symbol] = o
			}
			o.held = o.held.Add(f.Quantity)
			o.bought, o.trip.Quantity = o.bought.Add(notional), o.trip.Quantity.Add(f.Quantity)
			o.trip.EntryCost = o.trip.EntryCost.Add(notional).Add(f.Fee)
			o.trip.NetPnL = o.trip.NetPnL.Sub(notional).Sub(f.Fee)
			continue
		}
		if o == nil {
			continue
		}
		o.held = o.held.Sub(f.Quantity)
		o.sold, o.soldQty = o.sold.Add(notional), o.soldQty.Add(f.Quantity)
		o.trip.NetPnL = o.trip.NetPnL.Add(notional).Sub(f.Fee)
		if !o.held.IsPositive() {
			o.trip.ExitTime = f.Time
			o.trip.EntryPrice = o.bought.Div(o.trip.Quantity).Round(8)
			o.trip.ExitPrice = o.sold.Div(o.soldQty).Round(8)
			out = append(out, o.trip)
			delete(cur, f.Symbol)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ExitTime.Before(out[j].ExitTime) })
	return out
}

// TripsSince keeps the trips closed at or after t.
func TripsSince(trips []RoundTrip, t time.Time) []RoundTrip {
	out := []RoundTrip{}
	for _, tr := range trips {
		if !tr.ExitTime.Before(t) {
			out = append(out, tr)
		}
	}
	return out
}

// WinLoss is the one win rate: closed round trips with net P&L > 0 over all
// closed round trips, as a percent to one decimal (zero without trips).
type WinLoss struct {
	Total   int
	Won     int
	Lost    int // net P&L <= 0
	WinRate float64
}

// WinLossOf counts the trips.
func WinLossOf(trips []RoundTrip) WinLoss {
	w := WinLoss{Total: len(trips)}
	for _, t := range trips {
		if t.Won() {
			w.Won++
		}
	}
	w.Lost = w.Total - w.Won
	w.WinRate = WinRate(w.Won, w.Total)
	return w
}

// tripReturns is each trip's net P&L over its entry cost.
func tripReturns(trips []RoundTrip) []float64 {
	var out []float64
	for _, t := range trips {
		if t.EntryCost.IsPositive() {
			out = append(out, t.NetPnL.Div(t.EntryCost).InexactFloat64())
		}
	}
	return out
}
