package coinbase_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"kestrel/domain"
	"kestrel/exchange/coinbase"
)

func nextTick(t *testing.T, ticks <-chan domain.Tick, sym string) domain.Tick {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case tk := <-ticks:
			if tk.Symbol == sym {
				return tk
			}
		case <-timeout:
			t.Fatalf("no tick for %s", sym)
		}
	}
}

// The market WebSocket's ticker, market_trades and candles channels become
// Kestrel's ticks, tickers, 24 h statistics and live candle.
func TestFeedFromMarketChannels(t *testing.T) {
	r := newRig(t, 5*time.Second)
	state := make(chan bool, 8)
	feed := coinbase.NewFeed(r.x.Client(), nil, coinbase.StreamConfig{URL: "ws" + strings.TrimPrefix(r.srv.URL, "http") + "/ws", Key: r.key,
		Backoff: 10 * time.Millisecond, OnState: func(up bool) { state <- up }})
	if _, err := feed.Ticker("BTC-USD"); domain.ErrorCode(err) != domain.EUnavailable || feed.LastTickAge() >= 0 {
		t.Fatalf("before the first message: %v, age %s", err, feed.LastTickAge())
	}
	if _, err := feed.Ticker("DOGE-USD"); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("unknown symbol: %v", err)
	}
	fctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); feed.Start(fctx) }()
	t.Cleanup(func() { cancel(); <-done })
	ticks := feed.Subscribe(fctx)
	<-state
	waitFor(t, "the market subscriptions", func() bool {
		return r.fake.Subscribers("ticker") == 1 && r.fake.Subscribers("market_trades") == 1 && r.fake.Subscribers("candles") == 1
	})
	r.fake.SetPrice("BTC-USD", "51000") // +2% on the fake's day, which opened at 50,000
	tk := nextTick(t, ticks, "BTC-USD")
	if !tk.Price.Equal(d("51000")) || !tk.Volume.IsZero() {
		t.Fatalf("tick %+v", tk)
	}
	st, err := feed.Stats("BTC-USD")
	if err != nil || !st.Open.Equal(d("50000")) || !st.High.Equal(d("51000")) || !st.Low.Equal(d("50000")) || !st.ChangePercent.Equal(d("2")) {
		t.Fatalf("stats %+v %v", st, err)
	}
	if _, err := r.x.PlaceOrder(ctx, domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market, Quantity: d("0.25")}); err != nil {
		t.Fatal(err)
	}
	r.fake.SetPrice("BTC-USD", "51100")
	tk = nextTick(t, ticks, "BTC-USD")
	if !tk.Volume.Equal(d("0.25")) {
		t.Fatalf("tick volume %s, want the 0.25 traded since the last tick", tk.Volume)
	}
	if got, _ := feed.Ticker("BTC-USD"); !got.Price.Equal(d("51100")) || !got.Volume24h.Equal(d("0.25")) {
		t.Fatalf("ticker %+v", got)
	}
	// The live five-minute candle replaces its REST copy.
	start := time.Now().UTC().Truncate(5 * time.Minute)
	r.fake.SetCandles("BTC-USD", []domain.Candle{
		{Time: start.Add(-5 * time.Minute), Open: d("50000"), High: d("50100"), Low: d("49900"), Close: d("50050"), Volume: d("3")},
		{Time: start, Open: d("50050"), High: d("50060"), Low: d("50040"), Close: d("50055"), Volume: d("1")},
	})
	live := domain.Candle{Time: start, Open: d("50050"), High: d("51100"), Low: d("50040"), Close: d("51100"), Volume: d("1.25")}
	r.fake.PublishCandle("BTC-USD", live)
	waitFor(t, "the live candle", func() bool {
		cs, err := feed.Candles(ctx, "BTC-USD", domain.FiveMinute, start.Add(-5*time.Minute), time.Time{}, 10)
		return err == nil && len(cs) == 2 && cs[1].Close.Equal(d("51100")) && cs[0].Close.Equal(d("50050"))
	})
}

// A ticker that arrives after a newer one (a lower sequence_num) does not
// put the older price back.
func TestFeedIgnoresALateTicker(t *testing.T) {
	r := newRig(t, 5*time.Second)
	feed := coinbase.NewFeed(r.x.Client(), []string{"BTC-USD"}, coinbase.StreamConfig{URL: "ws" + strings.TrimPrefix(r.srv.URL, "http") + "/ws", Backoff: 10 * time.Millisecond})
	fctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); feed.Start(fctx) }()
	t.Cleanup(func() { cancel(); <-done })
	ticks := feed.Subscribe(fctx)
	waitFor(t, "the ticker subscription", func() bool { return r.fake.Subscribers("ticker") == 1 })
	r.fake.SwapNext()
	r.fake.SetPrice("BTC-USD", "50100") // held back...
	r.fake.SetPrice("BTC-USD", "50200") // ...and sent after this one
	if tk := nextTick(t, ticks, "BTC-USD"); !tk.Price.Equal(d("50200")) {
		t.Fatalf("first tick %s, want the newer 50200", tk.Price)
	}
	r.fake.SetPrice("BTC-USD", "50300")
	if tk := nextTick(t, ticks, "BTC-USD"); !tk.Price.Equal(d("50300")) {
		t.Fatalf("next tick %s: the late 50100 was taken", tk.Price)
	}
}
