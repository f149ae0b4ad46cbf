package coinbase

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/events"
)

// Feed is Coinbase's live market data as domain.MarketData: tickers, 24 h
// statistics and trades from the market WebSocket (ticker, market_trades,
// candles, heartbeats), history from REST candles.
type Feed struct {
	c       *Client // REST for candles: Coinbase's production host even in sandbox mode (market data is public)
	symbols []string
	cfg     StreamConfig
	now     func() time.Time

	mu      sync.Mutex
	tickers map[string]domain.Ticker
	stats   map[string]domain.Stats24h
	live    map[string]domain.Candle   // the newest five-minute candle per symbol
	volume  map[string]decimal.Decimal // traded since the last tick
	lastAt  time.Time                  // last market-data message (heartbeats excluded)
	subs    map[chan domain.Tick]struct{}
	dropped int64
	depth   bool                    // subscribe level2 (FollowBook)
	books   map[string]*l2Book      // level2 books, while known to be whole
	prints  map[string][]tradePrint // recent market_trades, oldest first, bounded
}

var _ domain.MarketData = (*Feed)(nil)

// tickBuffer is how many ticks a subscriber may lag before it loses some.
const tickBuffer = 1024

// NewFeed returns the feed of symbols; Start connects it.
func NewFeed(c *Client, symbols []string, cfg StreamConfig) *Feed {
	cfg.defaults()
	if len(symbols) == 0 {
		symbols = domain.Symbols
	}
	return &Feed{c: c, symbols: slices.Clone(symbols), cfg: cfg, now: time.Now, tickers: map[string]domain.Ticker{}, stats: map[string]domain.Stats24h{},
		live: map[string]domain.Candle{}, volume: map[string]decimal.Decimal{}, subs: map[chan domain.Tick]struct{}{}}
}

// Symbols implements domain.MarketData.
func (f *Feed) Symbols() []string { return slices.Clone(f.symbols) }

func (f *Feed) known(symbol string) error {
	if !slices.Contains(f.symbols, symbol) {
		return domain.Errorf(domain.ENotFound, "Unknown symbol %s", symbol)
	}
	return nil
}

// Ticker implements domain.MarketData from the last ticker message.
func (f *Feed) Ticker(symbol string) (domain.Ticker, error) {
	if err := f.known(symbol); err != nil {
		return domain.Ticker{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	t, ok := f.tickers[symbol]
	if !ok {
		return domain.Ticker{}, domain.Errorf(domain.EUnavailable, "No price from Coinbase for %s yet", symbol)
	}
	return t, nil
}

// Stats implements domain.MarketData from Coinbase's own 24 h figures.
func (f *Feed) Stats(symbol string) (domain.Stats24h, error) {
	if err := f.known(symbol); err != nil {
		return domain.Stats24h{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.stats[symbol]
	if !ok {
		return domain.Stats24h{}, domain.Errorf(domain.EUnavailable, "No 24h statistics from Coinbase for %s yet", symbol)
	}
	return s, nil
}

// Candles implements domain.MarketData by REST (paged within 350 per
// request); the candle the WebSocket is building replaces its REST copy.
func (f *Feed) Candles(ctx context.Context, symbol string, g domain.Granularity, start, end time.Time, limit int) ([]domain.Candle, error) {
	if err := f.known(symbol); err != nil {
		return nil, err
	}
	w := g.Duration()
	if w == 0 {
		return nil, domain.Errorf(domain.EInvalid, "Unknown granularity %q", g)
	}
	if end.IsZero() || end.After(f.now()) {
		end = f.now().Truncate(w).Add(w)
	}
	if limit > 0 && (start.IsZero() || end.Sub(start) > w*time.Duration(limit)) {
		start = end.Add(-w * time.Duration(limit))
	}
	cs, err := candles(ctx, f.c, symbol, g, start, end)
	if err != nil {
		return nil, err
	}
	if g == domain.FiveMinute {
		f.mu.Lock()
		lc, ok := f.live[symbol]
		f.mu.Unlock()
		if ok && !lc.Time.Before(start) && lc.Time.Before(end) {
			i := sort.Search(len(cs), func(i int) bool { return !cs[i].Time.Before(lc.Time) })
			if i < len(cs) && cs[i].Time.Equal(lc.Time) {
				cs[i] = lc
			} else if i == len(cs) {
				cs = append(cs, lc)
			}
		}
	}
	if limit > 0 && len(cs) > limit {
		cs = cs[len(cs)-limit:]
	}
	return cs, nil
}

// Subscribe implements domain.MarketData: a tick per ticker message, with
// the volume traded since the previous one; a slow receiver loses ticks.
func (f *Feed) Subscribe(ctx context.Context) <-chan domain.Tick {
	ch := make(chan domain.Tick, tickBuffer)
	f.mu.Lock()
	f.subs[ch] = struct{}{}
	f.mu.Unlock()
	go func() {
		<-ctx.Done()
		f.mu.Lock()
		delete(f.subs, ch)
		close(ch)
		f.mu.Unlock()
	}()
	return ch
}

// LastTickAt is when the last market-data message arrived (zero: none yet).
func (f *Feed) LastTickAt() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.lastAt
}

// LastTickAge is the time since the last market-data message; negative
// before the first. Heartbeats keep the connection alive but do not count:
// a feed with heartbeats and no prices is stale.
func (f *Feed) LastTickAge() time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.lastAt.IsZero() {
		return -1
	}
	return f.now().Sub(f.lastAt)
}

// Dropped counts ticks lost to full subscriber buffers.
func (f *Feed) Dropped() int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.dropped
}

// PublishTickers puts each ticked symbol's ticker on the bus for the
// realtime hub until ticks closes.
func (f *Feed) PublishTickers(ticks <-chan domain.Tick, bus *events.Bus) {
	for t := range ticks {
		if tk, err := f.Ticker(t.Symbol); err == nil {
			bus.Publish(events.TopicTick, tk, f.now())
		}
	}
}

// Start follows the market WebSocket until ctx ends, reconnecting with
// backoff; each channel is its own subscribe message.
func (f *Feed) Start(ctx context.Context) {
	reconnect(ctx, f.cfg, "market", func(ctx context.Context, conn *websocket.Conn) error {
		f.dropBooks() // a new connection's level2 snapshot brings them back
		channels := []string{"heartbeats", "ticker", "market_trades", "candles"}
		if f.followsBook() {
			channels = append(channels, "level2")
		}
		for _, ch := range channels {
			if err := subscribe(ctx, conn, f.cfg.Key, ch, f.symbols); err != nil {
				return err
			}
		}
		f.cfg.OnState(true)
		var seq sequence
		for {
			m, err := read(ctx, conn, f.cfg.Stale)
			if err != nil {
				return err
			}
			switch seq.next(m.SequenceNum) {
			case seqLate:
				continue // older than what is shown: a late ticker must not replace a newer price
			case seqGap:
				if f.followsBook() { // a lost level2 update leaves a book that is not Coinbase's: start again from a snapshot
					f.dropBooks()
					return errors.New("market message lost: reconnecting for a fresh level2 snapshot")
				}
			}
			f.handle(m)
		}
	})
}

func (f *Feed) handle(m WSMessage) {
	switch m.Channel {
	case "ticker":
		for _, raw := range m.Events {
			var ev WSTickerEvent
			if json.Unmarshal(raw, &ev) == nil {
				for _, t := range ev.Tickers {
					f.onTicker(t, parseTime(m.Timestamp))
				}
			}
		}
	case "market_trades":
		for _, raw := range m.Events {
			var ev WSTradesEvent
			if json.Unmarshal(raw, &ev) != nil || ev.Type != "update" { // a snapshot repeats past trades
				continue
			}
			f.mu.Lock()
			for _, t := range ev.Trades {
				f.volume[t.ProductID] = f.volume[t.ProductID].Add(dec(t.Size))
				f.printed(t)
			}
			f.lastAt = f.now()
			f.mu.Unlock()
		}
	case "l2_data":
		f.onLevel2(m.Events)
	case "candles":
		for _, raw := range m.Events {
			var ev WSCandlesEvent
			if json.Unmarshal(raw, &ev) != nil {
				continue
			}
			f.mu.Lock()
			for _, c := range ev.Candles {
				sec, err := strconv.ParseInt(c.Start, 10, 64)
				if err != nil {
					continue
				}
				f.live[c.ProductID] = domain.Candle{Time: time.Unix(sec, 0).UTC(), Open: dec(c.Open), High: dec(c.High), Low: dec(c.Low),
					Close: dec(c.Close), Volume: dec(c.Volume)}
			}
			f.lastAt = f.now()
			f.mu.Unlock()
		}
	}
}

// onTicker records a ticker and fans its tick out.
func (f *Feed) onTicker(t WSTicker, at time.Time) {
	if !slices.Contains(f.symbols, t.ProductID) {
		return
	}
	if at.IsZero() {
		at = f.now().UTC()
	}
	price := dec(t.Price)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tickers[t.ProductID] = domain.Ticker{Symbol: t.ProductID, Price: price, Bid: dec(t.BestBid), Ask: dec(t.BestAsk), Volume24h: dec(t.Volume24h), Time: at}
	f.stats[t.ProductID] = stats24h(t, price)
	f.lastAt = f.now()
	tick := domain.Tick{Symbol: t.ProductID, Price: price, Volume: f.volume[t.ProductID], Time: at}
	f.volume[t.ProductID] = decimal.Zero
	for ch := range f.subs {
		select {
		case ch <- tick:
		default:
			f.dropped++
		}
	}
}

// stats24h derives the day's open from Coinbase's percent change (the
// ticker carries no open): open = last / (1 + pct/100), to 8 places.
func stats24h(t WSTicker, last decimal.Decimal) domain.Stats24h {
	pct := dec(t.PricePercentChg24h)
	open := last
	if base := decimal.NewFromInt(1).Add(pct.Div(decimal.NewFromInt(100))); base.IsPositive() {
		open = last.DivRound(base, 8)
	}
	return domain.Stats24h{Symbol: t.ProductID, Open: open, High: dec(t.High24h), Low: dec(t.Low24h), Last: last,
		Volume: dec(t.Volume24h), Change: last.Sub(open), ChangePercent: pct.Round(4)}
}
