package app_test

import (
	"testing"
	"time"
)

// The running server's status comes from live signals: the sandbox's
// journal and feed, the matching loop's heartbeat and the hub's run loop.
func TestStatusReadsLiveSignals(t *testing.T) {
	s := start(t, t.TempDir())
	op, _ := s.accounts()
	var st struct {
		Overall  string `json:"overall_status"`
		Key      string `json:"exchange_api_key"`
		Exchange struct {
			Status  string  `json:"status"`
			Sandbox bool    `json:"sandbox"`
			FeedAge float64 `json:"feed_age_seconds"`
		} `json:"sandbox_api"`
		Engine struct {
			Status  string  `json:"status"`
			BeatAge float64 `json:"heartbeat_age_seconds"`
		} `json:"trading_engine"`
		WS struct {
			Status  string `json:"status"`
			Running bool   `json:"running"`
		} `json:"websocket"`
	}
	// The first tick reaches the sandbox a moment after the market's.
	for i := 0; i < 50; i++ {
		s.into(s.do("GET", "/api/system/status", op, ""), &st)
		if st.Exchange.FeedAge >= 0 && st.Engine.BeatAge >= 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if st.Key != "sandbox_api" || st.Exchange.Status != "healthy" || !st.Exchange.Sandbox || st.Exchange.FeedAge < 0 || st.Exchange.FeedAge > 5 {
		t.Errorf("exchange entry %q: %+v", st.Key, st.Exchange)
	}
	if st.Engine.Status != "running" || st.Engine.BeatAge < 0 || st.Engine.BeatAge > 5 {
		t.Errorf("engine entry: %+v", st.Engine)
	}
	if st.WS.Status != "running" || !st.WS.Running {
		t.Errorf("websocket entry: %+v", st.WS)
	}
	if st.Overall != "healthy" {
		t.Errorf("overall = %q, want healthy", st.Overall)
	}
}
