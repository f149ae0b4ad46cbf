package strategy_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/candles"
	"kestrel/domain"
	"kestrel/exchange/sandbox"
	"kestrel/store/sqlite"
	"kestrel/strategy"
	"kestrel/trading"
)

// market is a hand-made hourly market: a series of closes per symbol; the
// ticker is at the last close, one minute into the next hour.
type market struct {
	mu     sync.Mutex
	closes map[string][]float64
	start  time.Time
	fail   error // Candles answers it while set
}

func (m *market) Symbols() []string { return []string{"BTC-USD", "ETH-USD"} }
func (m *market) now(sym string) time.Time {
	return m.start.Add(time.Duration(len(m.closes[sym]))*time.Hour + time.Minute)
}
func (m *market) Ticker(sym string) (domain.Ticker, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	cs := m.closes[sym]
	if len(cs) == 0 {
		return domain.Ticker{}, domain.Errorf(domain.ENotFound, "no price")
	}
	p := decimal.NewFromFloat(cs[len(cs)-1]).Round(2)
	c := decimal.New(1, -2)
	return domain.Ticker{Symbol: sym, Price: p, Bid: p.Sub(c), Ask: p.Add(c), Time: m.now(sym)}, nil
}
func (m *market) Stats(string) (domain.Stats24h, error) { return domain.Stats24h{}, nil }
func (m *market) Candles(_ context.Context, sym string, g domain.Granularity, start, end time.Time, limit int) ([]domain.Candle, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail != nil {
		return nil, m.fail
	}
	var out []domain.Candle
	for i, x := range m.closes[sym] {
		t := m.start.Add(time.Duration(i) * time.Hour)
		if t.Before(start) || !t.Before(end) {
			continue
		}
		p := decimal.NewFromFloat(x).Round(2)
		out = append(out, domain.Candle{Time: t, Open: p, High: p, Low: p, Close: p, Volume: decimal.NewFromInt(1)})
	}
	if limit > 0 && len(out) > limit {
		out = out[len(out)-limit:]
	}
	return out, nil
}
func (m *market) Subscribe(context.Context) <-chan domain.Tick { return make(chan domain.Tick) }

func (m *market) push(sym string, xs ...float64) {
	m.mu.Lock()
	m.closes[sym] = append(m.closes[sym], xs...)
	m.mu.Unlock()
}

type clock struct{ t time.Time }

func (c *clock) Now() time.Time { return c.t }

type rig struct {
	eng   *strategy.Engine
	store *sqlite.Store
	mkt   *market
	sb    *sandbox.Sandbox
	gw    *trading.Service
	auto  bool
	stale string // what MarketStale answers
	build func(strategy.Config) (strategy.Strategy, error)
}

// flat then falling: RSI ends deeply oversold (a BUY vote from RSI alone).
func falling() []float64 {
	var xs []float64
	for i := 0; i < 60; i++ {
		xs = append(xs, 50000)
	}
	for i := 0; i < 15; i++ {
		xs = append(xs, 50000-float64(i+1)*300)
	}
	return xs
}

func newRig(t *testing.T, build ...func(strategy.Config) (strategy.Strategy, error)) *rig {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r := &rig{store: st, auto: true,
		mkt: &market{closes: map[string][]float64{}, start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}}
	if len(build) > 0 {
		r.build = build[0]
	}
	r.mkt.push("BTC-USD", falling()...)
	r.mkt.push("ETH-USD", 3000)
	clk := &clock{time.Date(2026, 1, 4, 3, 1, 0, 0, time.UTC)}
	opt := sandbox.DefaultOptions(candles.Products())
	opt.Clock = clk
	if r.sb, err = sandbox.New(ctx, st, r.mkt, opt); err != nil {
		t.Fatal(err)
	}
	policy := trading.DefaultPolicy()
	policy.StopLoss = false
	r.gw, err = trading.New(ctx, trading.Deps{Exchange: r.sb, Account: r.sb.Account, Market: r.mkt, Store: st, Clock: clk,
		Policy: func() trading.Policy { return policy }})
	if err != nil {
		t.Fatal(err)
	}
	r.eng, err = strategy.New(ctx, strategy.Deps{Store: r.store, Market: r.mkt, Exchange: r.sb, Gateway: r.gw, Account: r.sb.Account,
		Policy: func() trading.Policy { return policy }, AutoTrading: func() bool { return r.auto }, Clock: clk,
		MarketStale: func() string { return r.stale },
		Build: func(c strategy.Config) (strategy.Strategy, error) {
			if r.build != nil {
				return r.build(c)
			}
			return strategy.BuildTechnical(c)
		}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func (r *rig) enable(t *testing.T, name string, symbols ...string) {
	t.Helper()
	c, err := r.eng.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	c.Symbols = symbols
	if _, err := r.eng.Configure(context.Background(), name, c); err != nil {
		t.Fatal(err)
	}
	if _, err := r.eng.SetEnabled(context.Background(), name, true); err != nil {
		t.Fatal(err)
	}
}

func TestDefaultsExistDisabled(t *testing.T) {
	r := newRig(t)
	got := r.eng.List()
	if len(got) != 3 || got[0].Name != "ai_strategy" || got[1].Name != "hybrid_strategy" || got[2].Name != "technical_strategy" {
		t.Fatalf("instances %+v", got)
	}
	for _, c := range got {
		if c.Enabled {
			t.Errorf("%s enabled by default", c.Name)
		}
	}
	tech := got[2]
	if tech.MinConfidence != 0.6 || tech.MaxPositionSize != 0.15 || tech.RiskMultiplier != 1.2 || tech.Indicators.RSIPeriod != 14 {
		t.Fatalf("technical defaults %+v", tech)
	}
}

func TestTechnicalBuysThroughTheGatewayWithItsName(t *testing.T) {
	r := newRig(t)
	r.enable(t, strategy.TechnicalName, "BTC-USD")
	evs := r.eng.Step(context.Background())
	if len(evs) != 1 {
		t.Fatalf("evaluations %d, want 1", len(evs))
	}
	ev := evs[0]
	if ev.Decision != "BUY" || !ev.Executed || ev.OrderID == "" || !strings.Contains(ev.Reasoning, "RSI") || ev.Indicators["rsi"] >= 30 {
		t.Fatalf("evaluation %+v", ev)
	}
	o, err := r.sb.Order(context.Background(), ev.OrderID)
	if err != nil || o.Strategy != strategy.TechnicalName || o.Side != domain.Buy {
		t.Fatalf("order %+v %v", o, err)
	}
	// Sized at 100,000 x 0.15 x 1.2 = 18,000, capped by the 10% position limit
	// (10,000) and the maximum trade amount (10,000).
	notional := o.FilledQuantity.Mul(*o.AvgFillPrice)
	if notional.GreaterThan(decimal.NewFromInt(10000)) || notional.LessThan(decimal.NewFromInt(9900)) || notional.GreaterThan(decimal.NewFromInt(9950)) {
		t.Fatalf("order notional %s, want 99.5%% of the 10,000 cap or a little under", notional)
	}
	// The same candle is not evaluated twice.
	if again := r.eng.Step(context.Background()); len(again) != 0 {
		t.Fatalf("evaluated the same candle again: %+v", again)
	}
}

func TestNotExecutedSaysWhy(t *testing.T) {
	cases := []struct {
		name string
		set  func(r *rig)
		want string
	}{
		{"automation off", func(r *rig) { r.auto = false }, "Automation is off"},
		{"halted", func(r *rig) { r.gw.Stop(context.Background(), "ops", "") }, "Trading is halted"},
		{"market stale", func(r *rig) { r.stale = "Automation paused: no market data for 45s" }, "Automation paused: no market data for 45s"},
		{"below confidence", func(r *rig) {
			c, _ := r.eng.Get(strategy.TechnicalName)
			c.MinConfidence = 0.9
			r.eng.Configure(context.Background(), strategy.TechnicalName, c)
		}, "Confidence 0.60 is below the minimum 0.90"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			r.enable(t, strategy.TechnicalName, "BTC-USD")
			tc.set(r)
			evs := r.eng.Step(context.Background())
			if len(evs) != 1 || evs[0].Executed || !strings.Contains(evs[0].Reason, tc.want) {
				t.Fatalf("evaluations %+v, want not executed: %q", evs, tc.want)
			}
			stored, _ := r.store.Evaluations(context.Background(), domain.EvaluationFilter{})
			if len(stored) != 1 || stored[0].Reason != evs[0].Reason {
				t.Fatalf("stored %+v", stored)
			}
		})
	}
}

func TestHoldIsStoredToo(t *testing.T) {
	r := newRig(t)
	r.enable(t, strategy.TechnicalName, "ETH-USD") // one flat candle: no rule triggers
	evs := r.eng.Step(context.Background())
	if len(evs) != 1 || evs[0].Decision != "HOLD" || evs[0].Executed {
		t.Fatalf("evaluations %+v", evs)
	}
}

func TestSellWithoutAPositionNeverGoesShort(t *testing.T) {
	r := newRig(t)
	r.build = func(c strategy.Config) (strategy.Strategy, error) { return fixed{strategy.Sell, 0.9}, nil }
	r.enable(t, strategy.TechnicalName, "BTC-USD")
	evs := r.eng.Step(context.Background())
	if len(evs) != 1 || evs[0].Executed || !strings.Contains(evs[0].Reason, "No position to sell") {
		t.Fatalf("evaluations %+v", evs)
	}
}

func TestRefusedByRiskIsRecorded(t *testing.T) {
	r := newRig(t)
	r.enable(t, strategy.TechnicalName, "BTC-USD")
	// Someone else's position already fills the 10% limit for BTC.
	if _, _, err := r.gw.Place(context.Background(), domain.OrderRequest{Symbol: "BTC-USD", Side: domain.Buy, Type: domain.Market,
		Quantity: decimal.RequireFromString("0.2"), UserID: "u"}); err != nil {
		t.Fatal(err)
	}
	evs := r.eng.Step(context.Background())
	if len(evs) != 1 || evs[0].Executed || !strings.HasPrefix(evs[0].Reason, "Refused by risk: ") {
		t.Fatalf("evaluations %+v", evs)
	}
}

func TestThreeFailuresPauseTheStrategy(t *testing.T) {
	r := newRig(t)
	r.build = func(c strategy.Config) (strategy.Strategy, error) { return broken{}, nil }
	r.enable(t, strategy.TechnicalName, "BTC-USD")
	for i := 0; i < 3; i++ {
		r.mkt.push("BTC-USD", 45000) // a new candle each round
		evs := r.eng.Step(context.Background())
		if len(evs) != 1 || evs[0].Error == "" {
			t.Fatalf("round %d: %+v", i, evs)
		}
	}
	if c, _ := r.eng.Get(strategy.TechnicalName); c.Enabled {
		t.Fatal("still enabled after three failures")
	}
	// Resolving the alert it raised resumes it; other alerts do not.
	if r.eng.ResumePaused(context.Background(), "Order refused by risk check") {
		t.Fatal("resumed on an unrelated alert")
	}
	if !r.eng.ResumePaused(context.Background(), "Strategy paused: "+strategy.TechnicalName) {
		t.Fatal("not resumed")
	}
	if c, _ := r.eng.Get(strategy.TechnicalName); !c.Enabled {
		t.Fatal("still paused after its alert was resolved")
	}
}

func TestConfigValidationUsesTheSpecMessages(t *testing.T) {
	r := newRig(t)
	c, _ := r.eng.Get(strategy.TechnicalName)
	c.Indicators.SMAShort, c.Indicators.SMALong = 20, 20
	c.MinConfidence = 1.5
	c.Symbols = []string{" ", ""}
	_, err := r.eng.Configure(context.Background(), strategy.TechnicalName, c)
	var de *domain.Error
	if !errors.As(err, &de) {
		t.Fatalf("error %v", err)
	}
	want := map[string]string{"min_confidence": strategy.MsgMinConfidence, "symbols": strategy.MsgSymbols, "indicators.sma_short": strategy.MsgSMAOrder}
	for f, m := range want {
		if de.Fields[f] != m {
			t.Errorf("%s: %q, want %q", f, de.Fields[f], m)
		}
	}
}

type fixed struct {
	decision string
	conf     float64
}

func (f fixed) Evaluate(context.Context, strategy.Input) (strategy.Signal, error) {
	return strategy.Signal{Decision: f.decision, Confidence: f.conf, Reasoning: "fixed"}, nil
}

type broken struct{}

func (broken) Evaluate(context.Context, strategy.Input) (strategy.Signal, error) {
	return strategy.Signal{}, errors.New("provider answered 503")
}

func TestStrategyNamesStayURLSafe(t *testing.T) {
	r := newRig(t)
	for _, name := range []string{"", "a/b", "ai-analyze", "has space", strings.Repeat("x", 65)} {
		if _, err := r.eng.Create(context.Background(), name, "technical", nil); domain.ErrorCode(err) != domain.EInvalid {
			t.Errorf("%q: %v, want invalid", name, err)
		}
	}
	if _, err := r.eng.Create(context.Background(), "fast-rsi_2", "technical", nil); err != nil {
		t.Fatal(err)
	}
}
