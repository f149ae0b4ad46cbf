package analytics

import (
	"strconv"
	"testing"
	"time"

	"kestrel/domain"
)

func fillAt(sym string, side domain.Side, qty, px, fee string, sec int64) domain.Fill {
	return domain.Fill{Symbol: sym, Side: side, Quantity: dec(qty), Price: dec(px), Fee: dec(fee), Time: time.Unix(sec, 0).UTC(), Strategy: "s",
		OrderID: "o" + strconv.FormatInt(sec, 10)}
}

func TestRoundTrips(t *testing.T) {
	fills := []domain.Fill{
		fillAt("BTC-USD", domain.Sell, "1", "50", "0", 1), // sold while flat: opens nothing
		fillAt("BTC-USD", domain.Buy, "1", "100", "0.6", 2),
		fillAt("ETH-USD", domain.Buy, "1", "10", "0", 3),
		fillAt("BTC-USD", domain.Buy, "1", "102", "0.6", 4),
		fillAt("BTC-USD", domain.Sell, "1.5", "103", "0.6", 5), // partial exit: the trip is still open
		fillAt("BTC-USD", domain.Sell, "0.5", "101", "0.3", 6), // flat: one trip
		fillAt("BTC-USD", domain.Buy, "1", "100", "0", 7),      // open: not a trade
	}
	trips := RoundTrips(fills)
	if len(trips) != 1 {
		t.Fatalf("trips %+v, want the one closed BTC trip", trips)
	}
	tr := trips[0]
	// -100.6 -102.6 +(154.5-0.6) +(50.5-0.3) = 0.9
	eq(t, "net P&L after every fee", tr.NetPnL, "0.9")
	eq(t, "entry cost", tr.EntryCost, "203.2")
	eq(t, "quantity bought", tr.Quantity, "2")
	eq(t, "average entry price", tr.EntryPrice, "101") // (100 + 102) / 2
	eq(t, "average exit price", tr.ExitPrice, "102.5") // (154.5 + 50.5) / 2
	if tr.OpenOrderID != "o2" {
		t.Errorf("opened by order %q, want o2 (the first buy's)", tr.OpenOrderID)
	}
	if !tr.Won() || !tr.EntryTime.Equal(time.Unix(2, 0)) || !tr.ExitTime.Equal(time.Unix(6, 0)) || tr.Strategy != "s" {
		t.Errorf("trip %+v", tr)
	}
	wl := WinLossOf(trips)
	if wl.Total != 1 || wl.Won != 1 || wl.Lost != 0 || wl.WinRate != 100 {
		t.Errorf("win/loss %+v", wl)
	}
}

// A buy that filled is not a winning trade (issue: "Win rate 100%" counted
// executed orders); a losing round trip net of fees is a loss even when the
// price rose.
func TestWinRateIsRoundTripsNetOfFees(t *testing.T) {
	fills := []domain.Fill{
		fillAt("BTC-USD", domain.Buy, "1", "100", "0.6", 1),
		fillAt("BTC-USD", domain.Sell, "1", "100.5", "0.6", 2), // price up, net -0.7
		fillAt("BTC-USD", domain.Buy, "1", "100", "0.6", 3),
	}
	wl := WinLossOf(RoundTrips(fills))
	if wl.Total != 1 || wl.Won != 0 || wl.Lost != 1 || wl.WinRate != 0 {
		t.Errorf("win/loss %+v, want 1 trade, lost", wl)
	}
}

// Two round trips placed back to back share stored milliseconds; given
// newest first (as the store lists them), the fills' time-ordered ids keep
// each SELL after the BUY it closes: two trips, not one and an open BUY.
func TestRoundTripsInOneMillisecondFollowTheIDs(t *testing.T) {
	at := func(id string, side domain.Side, ms int64) domain.Fill {
		f := fillAt("BTC-USD", side, "1", "100", "0", 0)
		f.ID, f.OrderID, f.Time = id, "o"+id, time.UnixMilli(ms).UTC()
		return f
	}
	fills := []domain.Fill{ // newest first
		at("05", domain.Buy, 3),
		at("04", domain.Sell, 2),
		at("03", domain.Buy, 2),
		at("02", domain.Sell, 1),
		at("01", domain.Buy, 1),
	}
	if trips := RoundTrips(fills); len(trips) != 2 {
		t.Fatalf("%d trips %+v, want 2", len(trips), trips)
	}
}
