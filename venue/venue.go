// Package venue is where Kestrel trades: the paper engine (the sandbox) on
// the replay or on Coinbase's live market, or Coinbase itself with its
// feed. A venue pairs an exchange with its market; Switch holds the one in
// use and passes every call of the exchange and the market the app holds
// to it, so a change of the exchange settings swaps venues under running
// code. Building a venue from the settings and restarting the engine on a
// switch stay with the app, which owns the engine.
package venue

import (
	"context"
	"sync"
	"time"

	"kestrel/domain"
	"kestrel/events"
	"kestrel/exchange/coinbase"
	"kestrel/exchange/sandbox"
	"kestrel/risk"
	"kestrel/settings"
)

// Market is a market the app trades on and shows.
type Market interface {
	domain.MarketData
	Start(ctx context.Context)
	LastTickAge() time.Duration
	Dropped() int64
	PublishTickers(ticks <-chan domain.Tick, bus *events.Bus)
}

// Exchange is an exchange the gateway trades through.
type Exchange interface {
	domain.Exchange
	Account(ctx context.Context) (domain.Account, error)
	Health() domain.ExchangeHealth
	LastBeat() time.Time
}

// Venue is one exchange with its market; Run is the exchange's own loop.
type Venue struct {
	Exchange Exchange
	Market   Market
	Source   string // where prices come from
	Label    string // venue and prices, as the status shows them
	Run      func(ctx context.Context, ticks <-chan domain.Tick)
	Key      settings.Exchange // the settings it was built from
	// MarketSource is the settings' market source it was built for
	// (the Coinbase venue always trades on Coinbase's market).
	MarketSource string
	// Paper is the paper engine (nil on Coinbase) and Prices the market it
	// matches on at this venue.
	Paper  *sandbox.Sandbox
	Prices sandbox.Prices
}

// Sources and labels of the venues.
const (
	ReplaySource  = "sandbox replay of Coinbase candles"
	LiveSource    = "Coinbase live market data"
	PaperReplay   = "Paper · replayed Coinbase candles"
	PaperLive     = "Paper · live Coinbase prices"
	CoinbaseLabel = "Coinbase · live Coinbase prices"
)

// Replay is the replayed market: a market and the prices paper orders match on.
type Replay interface {
	Market
	sandbox.Prices
}

// OnReplay is the paper engine on the replay; failed hears of a matching
// change the journal could not store.
func OnReplay(sb *sandbox.Sandbox, m Replay, failed func(context.Context, error)) *Venue {
	return &Venue{Exchange: sb, Market: m, Source: ReplaySource, Label: PaperReplay, Key: settings.Exchange{Provider: "sandbox"},
		MarketSource: "replay", Paper: sb, Prices: m, Run: paperRun(sb, failed)}
}

// OnLiveMarket is the paper engine on Coinbase's live market (no key; the
// feed's timeout and rate limit, from the exchange settings, go in Key).
func OnLiveMarket(sb *sandbox.Sandbox, feed *coinbase.Feed, failed func(context.Context, error)) *Venue {
	return &Venue{Exchange: sb, Market: feed, Source: LiveSource, Label: PaperLive, Key: settings.Exchange{Provider: "sandbox"},
		MarketSource: "coinbase", Paper: sb, Prices: LivePrices{feed}, Run: paperRun(sb, failed)}
}

// paperRun matches the paper engine's resting orders on the venue's ticks.
func paperRun(sb *sandbox.Sandbox, failed func(context.Context, error)) func(context.Context, <-chan domain.Tick) {
	return func(ctx context.Context, ticks <-chan domain.Tick) {
		sb.Run(ctx, ticks, func(err error) { failed(ctx, err) })
	}
}

// pollEvery is how often the Coinbase venue resyncs: the net under the
// user channel, and the feed of changes while it is down.
const pollEvery = 5 * time.Second

// Coinbase is Coinbase as the exchange and its feed as the live market.
// Its loop follows the user channel and polls, moves the trailing stops
// Kestrel keeps there on each tick (Coinbase matches orders itself), and
// runs followFills, which queues each fill's notification where the venue
// runs (the leader).
func Coinbase(x *coinbase.Exchange, feed *coinbase.Feed, cfg coinbase.Config, followFills func(context.Context, *coinbase.Exchange)) *Venue {
	v := &Venue{Exchange: x, Market: feed, Source: LiveSource, Label: CoinbaseLabel}
	if cfg.Sandbox {
		v.Source += " (orders on Coinbase's sandbox)"
		v.Label = "Coinbase sandbox orders · live Coinbase prices"
	}
	v.Run = func(ctx context.Context, ticks <-chan domain.Tick) {
		var wg sync.WaitGroup
		wg.Add(3)
		go func() {
			defer wg.Done()
			followFills(ctx, x)
		}()
		go func() {
			defer wg.Done()
			for t := range ticks {
				x.Follow(ctx, t)
			}
		}()
		go func() {
			defer wg.Done()
			x.RunUserStream(ctx, coinbase.StreamConfig{URL: cfg.UserURL(), Key: x.Key(), Stale: 15 * time.Second})
		}()
		x.Poll(ctx, pollEvery)
		wg.Wait()
	}
	return v
}

// Selected says whether v is the venue api selects: a switch to it would
// change nothing. The paper venue is the same whatever its key; a change
// of its market source is a new venue, and so, on Coinbase's live market,
// is a change of the timeout or rate limit its feed was built with.
func (v *Venue) Selected(api settings.API) bool {
	e := api.Exchange
	if v.Key.Provider != e.Provider || (e.Provider != "sandbox" && v.Key != e) {
		return false
	}
	if e.Provider != "sandbox" {
		return true
	}
	if v.MarketSource != api.MarketData.Source {
		return false
	}
	return v.MarketSource != "coinbase" || (v.Key.Timeout == e.Timeout && v.Key.RateLimit == e.RateLimit)
}

// SameAccount says whether next is v's paper engine on the same market,
// with only its feed rebuilt: the risk state and portfolio history go on.
func (v *Venue) SameAccount(next *Venue) bool {
	return v != nil && v.Paper != nil && next.Paper == v.Paper && next.MarketSource == v.MarketSource
}

// Scope is the risk scope the venue's state belongs to.
func (v *Venue) Scope() risk.Scope {
	switch {
	case v.Key.Provider == "coinbase":
		return risk.Scope{Venue: "coinbase"}
	case v.MarketSource == "coinbase":
		return risk.Scope{Venue: "paper-live"}
	}
	return risk.Scope{Venue: "paper-replay"}
}

// PaperPrices is the market paper stages match on: the paper venue's (the
// replay, or Coinbase's live market when the settings choose it), or, when
// the venue is Coinbase itself, Coinbase's live market, whose ticks they
// receive; replay before any venue.
func (s *Switch) PaperPrices(replay sandbox.Prices) sandbox.Prices {
	v := s.Current()
	switch {
	case v == nil:
		return replay
	case v.Prices != nil:
		return v.Prices
	}
	if feed, ok := v.Market.(*coinbase.Feed); ok {
		return LivePrices{feed}
	}
	return replay
}

// MarketSource is what the paper venue trades on now: replay or coinbase
// (the Coinbase venue trades on Coinbase's market).
func (s *Switch) MarketSource() string {
	if v := s.Current(); v != nil && v.MarketSource != "" {
		return v.MarketSource
	}
	return "replay"
}
