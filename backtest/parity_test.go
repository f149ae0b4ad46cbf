package backtest_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/backtest"
	"kestrel/candles"
	"kestrel/domain"
	"kestrel/exchange/sandbox"
	"kestrel/replay"
	"kestrel/store/sqlite"
	"kestrel/strategy"
	"kestrel/trading"
)

// simMarket is the scenario's market on a simulated clock: the candles
// closed before now, and a ticker the driver moves along each candle's path,
// quoted with the live half-spread.
type simMarket struct {
	mu    sync.Mutex
	cs    []domain.Candle
	price decimal.Decimal
	now   time.Time
}

func (m *simMarket) Symbols() []string { return []string{"BTC-USD"} }
func (m *simMarket) Ticker(sym string) (domain.Ticker, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	bid, ask := replay.BidAsk(m.price, replay.LiveHalfSpread, d("0.01"))
	return domain.Ticker{Symbol: sym, Price: m.price, Bid: bid, Ask: ask, Time: m.now}, nil
}
func (m *simMarket) Stats(string) (domain.Stats24h, error) { return domain.Stats24h{}, nil }
func (m *simMarket) Candles(_ context.Context, _ string, _ domain.Granularity, start, end time.Time, limit int) ([]domain.Candle, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []domain.Candle
	for _, c := range m.cs {
		if !c.Time.Before(start) && c.Time.Before(end) && c.Time.Add(time.Hour).Compare(m.now) <= 0 {
			out = append(out, c)
		}
	}
	if limit > 0 && len(out) > limit {
		out = out[len(out)-limit:]
	}
	return out, nil
}
func (m *simMarket) Subscribe(context.Context) <-chan domain.Tick { return make(chan domain.Tick) }

func (m *simMarket) Now() time.Time { m.mu.Lock(); defer m.mu.Unlock(); return m.now }

func (m *simMarket) move(at time.Time, px decimal.Decimal) {
	m.mu.Lock()
	m.now, m.price = at, px
	m.mu.Unlock()
}

// parityScenario is four days of hourly BTC-USD candles: a gap down
// through a stop on day 1, a stop hit inside a candle the same day, which
// leaves the day below its loss limit; a day that reaches its trade limit
// (protective orders count); a day with a SELL and nothing to sell and a
// BUY held overnight; a day that loses 6% to a gap at 01:00, before its
// first signal (its loss counts from 00:00 UTC).
func parityScenario() ([]domain.Candle, map[time.Time]string) {
	day0 := time.Date(2025, 3, 3, 0, 0, 0, 0, time.UTC)
	cs := make([]domain.Candle, 96)
	px := func(i int) string {
		switch {
		case i < 5:
			return "100"
		case i < 24:
			return "96"
		case i < 73:
			return "95"
		default:
			return "89" // day 4 gaps down at 01:00, before its first signal
		}
	}
	for i := range cs {
		p := px(i)
		cs[i] = domain.Candle{Time: day0.Add(time.Duration(i) * time.Hour), Open: d(p), High: d(p), Low: d(p), Close: d(p), Volume: d("1000")}
	}
	cs[5].Open, cs[5].High, cs[5].Low = d("96"), d("96.5"), d("95.5") // the gap down through the 98.00 stop
	cs[12].Low, cs[12].Close = d("94"), d("95")                       // the stop at 94.08 hit inside the candle
	cs[13].Open, cs[13].High, cs[13].Low, cs[13].Close = d("95"), d("96"), d("95"), d("96")
	ranged(cs) // the quiet hours trade a few cents either side, room for a fill at the bid or ask
	signals := map[time.Time]string{}
	for i, dec := range map[int]string{1: "BUY", 8: "BUY", 14: "BUY", // day 1: the last is refused by the daily loss limit
		25: "BUY", 28: "SELL", 30: "BUY", 33: "SELL", 36: "BUY", // day 2: the last is refused by the trade limit
		49: "SELL", 50: "BUY", // day 3: nothing to sell; a BUY held overnight
		74: "BUY"} { // day 4: down 6% at 01:00 by the gap through the stop: refused
		signals[cs[i].Time] = dec
	}
	return cs, signals
}

func parityPolicy() trading.Policy {
	p := trading.DefaultPolicy()
	p.StopLoss, p.StopLossPercent, p.TakeProfit = true, d("0.02"), false
	p.Limits.MaxPositionSize, p.Limits.MaxDrawdown, p.Limits.MaxDailyTrades = d("0.9"), d("0.9"), 6
	return p
}

func parityConfig() strategy.Config {
	c := strategy.Default(domain.StrategyTechnical, strategy.TechnicalName)
	c.MaxPositionSize, c.RiskMultiplier, c.Symbols, c.Timeframe = 1, 1, []string{"BTC-USD"}, string(domain.OneHour)
	return c
}

// The same scripted days through the live path (strategy engine, order
// gateway with its risk check, protective orders, the sandbox exchange, on
// a simulated clock) and through the backtest give the same fills, one by
// one, and the same refusals.
func TestLiveBacktestParity(t *testing.T) {
	cs, signals := parityScenario()
	liveFills, liveRefusals, liveTraded := runLive(t, cs, signals, parityPolicy())

	req := request(&script{at: signals}, cs, nil)
	req.Config, req.Policy, req.HalfSpread = parityConfig(), parityPolicy(), replay.LiveHalfSpread
	req.Warmup = 1
	res, err := backtest.Run(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	var btFills []string
	for _, f := range res.Fills {
		if f.Reason != "end_of_data" { // live has no end of the data
			btFills = append(btFills, fmt.Sprintf("%s %s %s x %s fee %s", f.Time.Format("Jan 2 15h"), f.Side, f.Price, f.Quantity, f.Fee))
		}
	}
	if strings.Join(btFills, "\n") != strings.Join(liveFills, "\n") {
		t.Fatalf("fills differ\nlive:\n%s\nbacktest:\n%s", strings.Join(liveFills, "\n"), strings.Join(btFills, "\n"))
	}
	if len(btFills) < 8 {
		t.Fatalf("only %d fills: the scenario is not exercised", len(btFills))
	}
	var btRefusals []string
	for why, n := range res.Signals.NotExecuted {
		for range n {
			btRefusals = append(btRefusals, why)
		}
	}
	sort.Strings(btRefusals)
	if strings.Join(btRefusals, "\n") != strings.Join(liveRefusals, "\n") || res.Signals.Traded != liveTraded {
		t.Fatalf("refusals differ\nlive (%d traded):\n%s\nbacktest (%d traded):\n%s", liveTraded, strings.Join(liveRefusals, "\n"), res.Signals.Traded, strings.Join(btRefusals, "\n"))
	}
	t.Logf("fills, the same on both paths:\n%s\nrefusals:\n%s", strings.Join(btFills, "\n"), strings.Join(btRefusals, "\n"))
	for _, want := range []string{"Daily loss limit reached", "Daily trade limit reached (6 trades today)", "No position to sell"} {
		if !strings.Contains(strings.Join(btRefusals, "\n"), want) {
			t.Errorf("the scenario lacks a refusal %q: %v", want, btRefusals)
		}
	}
}

// runLive drives the live path through the candles: at each open the
// engine evaluates the candle just closed and trades through the gateway,
// BUY fills get their protection, then the price walks open -> low -> high
// -> close, stopping at each resting order's price, as the backtest walks.
func runLive(t *testing.T, cs []domain.Candle, signals map[time.Time]string, policy trading.Policy) (fills, refusals []string, traded int) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	mkt := &simMarket{cs: cs, price: cs[0].Open, now: cs[0].Time}
	opt := sandbox.DefaultOptions(candles.Products())
	opt.Clock, opt.StartingUSD = mkt, d("10000")
	sb, err := sandbox.New(ctx, st, mkt, opt)
	if err != nil {
		t.Fatal(err)
	}
	gw, err := trading.New(ctx, trading.Deps{Exchange: sb, Account: sb.Account, Market: mkt, Store: st, Clock: mkt,
		Policy: func() trading.Policy { return policy }})
	if err != nil {
		t.Fatal(err)
	}
	eng, err := strategy.New(ctx, strategy.Deps{Store: st, Market: mkt, Exchange: sb, Gateway: gw, Account: sb.Account,
		Policy: func() trading.Policy { return policy }, AutoTrading: func() bool { return true }, Clock: mkt,
		Build: func(strategy.Config) (strategy.Strategy, error) { return &script{at: signals}, nil }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Configure(ctx, strategy.TechnicalName, parityConfig()); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.SetEnabled(ctx, strategy.TechnicalName, true); err != nil {
		t.Fatal(err)
	}
	tick := func(at time.Time, px decimal.Decimal) {
		mkt.move(at, px)
		if err := sb.OnTick(ctx, domain.Tick{Symbol: "BTC-USD", Price: px, Time: at}); err != nil {
			t.Fatal(err)
		}
	}
	gw.ProtectMissed(ctx) // the protection mark starts before the first fill
	for i, c := range cs {
		mkt.move(c.Time, c.Open)
		if err := gw.RecordPortfolio(ctx); err != nil { // the value at the open: 00:00 UTC starts the day
			t.Fatal(err)
		}
		tick(c.Time, c.Open)
		if i > 0 {
			for _, ev := range eng.Step(ctx) {
				switch {
				case ev.Decision == strategy.Hold:
				case ev.Executed:
					traded++
					gw.ProtectMissed(ctx) // what the gateway's update loop does for a BUY fill
				default:
					refusals = append(refusals, strings.TrimPrefix(ev.Reason, "Refused by risk: "))
				}
			}
		}
		at := c.Time
		for _, leg := range [][2]decimal.Decimal{{c.Open, c.Low}, {c.Low, c.High}, {c.High, c.Close}} {
			live, err := sb.LiveOrders(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var stops []decimal.Decimal
			for _, o := range live {
				if o.StopPrice != nil && o.StopPrice.LessThan(leg[0]) && o.StopPrice.GreaterThan(leg[1]) {
					stops = append(stops, *o.StopPrice)
				}
			}
			sort.Slice(stops, func(i, j int) bool { return stops[i].GreaterThan(stops[j]) })
			for _, px := range append(stops, leg[1]) {
				at = at.Add(time.Minute)
				tick(at, px)
			}
		}
	}
	fs, err := sb.Fills(ctx, domain.FillFilter{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	for i := len(fs) - 1; i >= 0; i-- { // oldest first
		f := fs[i]
		fills = append(fills, fmt.Sprintf("%s %s %s x %s fee %s", f.Time.Truncate(time.Hour).Format("Jan 2 15h"), f.Side, f.Price, f.Quantity, f.Fee))
	}
	sort.Strings(refusals)
	return fills, refusals, traded
}
