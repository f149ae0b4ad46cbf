package coinbase_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"kestrel/exchange/coinbase"
	"kestrel/exchange/coinbase/coinbasefake"
)

// The feed keeps the level2 book: the snapshot on subscribing, then
// updates (a level changed, one removed with 0), best first on each side;
// a lost message drops the book and reconnects for a fresh snapshot.
func TestFeedFollowsTheLevel2Book(t *testing.T) {
	creds, _ := coinbasefake.NewKey(coinbasefake.Ed25519, "organizations/o/apiKeys/unused")
	fake := coinbasefake.New(creds.Name, creds.Public)
	srv := httptest.NewServer(fake.Handler())
	t.Cleanup(srv.Close)
	fake.SetBook("BTC-USD", []coinbasefake.Level{{Price: "49990", Size: "1"}, {Price: "49995", Size: "0.5"}},
		[]coinbasefake.Level{{Price: "50010", Size: "2"}, {Price: "50005", Size: "0.25"}})
	cfg := coinbase.Config{APIURL: srv.URL, WSURL: "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws", Timeout: 5 * time.Second}
	feed, err := coinbase.OpenMarket(cfg, []string{"BTC-USD"}, time.Minute, nil) // no stale reconnect within the test
	if err != nil {
		t.Fatal(err)
	}
	feed.FollowBook()
	if _, _, ok := feed.Book("BTC-USD", 0); ok {
		t.Fatal("a book before any snapshot")
	}
	fctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); feed.Start(fctx) }()
	t.Cleanup(func() { cancel(); <-done })
	top := func() string {
		bids, asks, ok := feed.Book("BTC-USD", 0)
		if !ok {
			return "none"
		}
		s := ""
		for _, l := range bids {
			s += "b" + l.Price.String() + "x" + l.Size.String() + " "
		}
		for _, l := range asks {
			s += "a" + l.Price.String() + "x" + l.Size.String() + " "
		}
		return s
	}
	want := "b49995x0.5 b49990x1 a50005x0.25 a50010x2 "
	waitFor(t, "the snapshot", func() bool { return top() == want })
	if log := fake.RequestLog(); len(log) == 0 || log[len(log)-1].Keyed {
		t.Fatalf("requests %+v", log)
	}
	fake.SetBook("BTC-USD", []coinbasefake.Level{{Price: "49990", Size: "3"}}, []coinbasefake.Level{{Price: "50005", Size: "0.25"}, {Price: "50010", Size: "2"}})
	waitFor(t, "the update", func() bool { return top() == "b49990x3 a50005x0.25 a50010x2 " })
	// A lost message: the book is no longer known to be Coinbase's; the
	// reconnect's snapshot brings the current one back.
	fake.DropMarketMessages(1)
	fake.SetBook("BTC-USD", []coinbasefake.Level{{Price: "49990", Size: "4"}}, []coinbasefake.Level{{Price: "50005", Size: "1"}})
	fake.SetBook("BTC-USD", []coinbasefake.Level{{Price: "49990", Size: "5"}}, []coinbasefake.Level{{Price: "50005", Size: "1"}})
	waitFor(t, "the fresh snapshot after the gap", func() bool { return top() == "b49990x5 a50005x1 " })
}
