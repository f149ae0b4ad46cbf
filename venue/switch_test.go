package venue

import "testing"

// droppingMarket is a Market whose only working method is Dropped.
type droppingMarket struct {
	Market
	dropped int64
}

func (m *droppingMarket) Dropped() int64 { return m.dropped }

// The dropped-ticks counter of the market switch never goes back when the
// venue changes: a new Coinbase feed starts at zero, the replay keeps its
// count from before.
func TestMarketSwitchDroppedNeverDecreases(t *testing.T) {
	replay, feed := &droppingMarket{dropped: 5}, &droppingMarket{}
	s := &MarketSwitch{}
	s.Set(replay)
	replay.dropped = 7 // 2 while current
	want := func(step string, n int64) {
		t.Helper()
		if got := s.Dropped(); got != n {
			t.Errorf("%s: Dropped() = %d, want %d", step, got, n)
		}
	}
	want("replay current", 2)
	s.Set(feed)
	want("switched to a new feed", 2)
	feed.dropped = 3
	want("feed dropped 3", 5)
	replay.dropped = 9 // not current: not this process's market's drops
	s.Set(replay)
	want("back on the replay", 5)
	replay.dropped = 10
	want("replay dropped 1 more", 6)
}
