package trading_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/risk"
	"kestrel/sandbox"
	"kestrel/store/sqlite"
	"kestrel/trading"
)

// market is a hand-set price per symbol with a one-cent spread.
type market struct {
	mu sync.Mutex
	p  map[string]decimal.Decimal
}

func (m *market) set(sym, p string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.p[sym] = decimal.RequireFromString(p)
}
func (m *market) Symbols() []string { return []string{"BTC-USD", "ETH-USD"} }
func (m *market) Ticker(sym string) (domain.Ticker, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.p[sym]
	if !ok {
		return domain.Ticker{}, domain.Errorf(domain.ENotFound, "Unknown symbol: %s", sym)
	}
	c := decimal.New(1, -2)
	return domain.Ticker{Symbol: sym, Price: p, Bid: p.Sub(c), Ask: p.Add(c)}, nil
}
func (m *market) Stats(string) (domain.Stats24h, error) { return domain.Stats24h{}, nil }
func (m *market) Candles(context.Context, string, domain.Granularity, time.Time, time.Time, int) ([]domain.Candle, error) {
	return nil, nil
}
func (m *market) Subscribe(context.Context) <-chan domain.Tick { return make(chan domain.Tick) }

type clock struct{ t time.Time }

func (c *clock) Now() time.Time { return c.t }

type desk struct {
	svc   *trading.Service
	sb    *sandbox.Sandbox
	mkt   *market
	clk   *clock
	store *sqlite.Store
}

func newDesk(t *testing.T) *desk {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	d := &desk{mkt: &market{p: map[string]decimal.Decimal{}}, clk: &clock{time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC)}, store: st}
	d.mkt.set("BTC-USD", "50000")
	d.mkt.set("ETH-USD", "2500")
	if d.sb, err = sandbox.New(ctx, st, d.mkt, sandbox.Options{Clock: d.clk}); err != nil {
		t.Fatal(err)
	}
	limits := risk.DefaultLimits()
	limits.MaxPositionSize = decimal.NewFromInt(1)
	limits.MaxTradeAmount = decimal.NewFromInt(100_000)
	if d.svc, err = trading.New(ctx, trading.Deps{Exchange: d.sb, Market: d.mkt, Store: st, Clock: d.clk, Limits: func() risk.Limits { return limits }}); err != nil {
		t.Fatal(err)
	}
	return d
}

func amount(s string) trading.Amount {
	return trading.Amount{Set: true, Valid: true, D: decimal.RequireFromString(s)}
}

func TestPerformanceAndPortfolioFromFills(t *testing.T) {
	ctx := context.Background()
	d := newDesk(t)
	// The day starts at 100,000; a week ago the account was worth 90,000.
	if err := d.store.AppendPortfolioPoint(ctx, domain.PortfolioPoint{Time: d.clk.t.Add(-7*24*time.Hour - time.Hour), Value: decimal.NewFromInt(90_000), Cash: decimal.NewFromInt(90_000)}); err != nil {
		t.Fatal(err)
	}
	d.clk.t = time.Date(2026, 5, 4, 0, 0, 0, 0, time.UTC)
	if err := d.svc.RecordPortfolio(ctx); err != nil {
		t.Fatal(err)
	}
	d.clk.t = time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC)

	if _, err := d.svc.Execute(ctx, "u1", trading.ExecuteRequest{Symbol: "BTC-USD", Action: "BUY", Quantity: amount("1")}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.svc.Execute(ctx, "u1", trading.ExecuteRequest{Symbol: "eth-usd", Action: "buy", Quantity: amount("4")}); err != nil {
		t.Fatal(err)
	}
	// A buy stop that cannot be paid when it triggers is rejected: a failed trade.
	if _, err := d.svc.PlaceStopLoss(ctx, "u1", trading.StopLossRequest{Symbol: "ETH-USD", Side: "BUY", Quantity: amount("30"), StopPrice: amount("2600")}); err != nil {
		t.Fatal(err)
	}
	d.mkt.set("ETH-USD", "2600")
	if err := d.sb.OnTick(ctx, domain.Tick{Symbol: "ETH-USD", Price: decimal.RequireFromString("2600")}); err != nil {
		t.Fatal(err)
	}
	// A resting limit is pending, not a trade.
	if _, err := d.svc.PlaceLimit(ctx, "u1", trading.LimitRequest{Symbol: "BTC-USD", Side: "BUY", Quantity: amount("0.1"), Price: amount("40000")}); err != nil {
		t.Fatal(err)
	}
	d.mkt.set("BTC-USD", "55000")

	p, err := d.svc.Performance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if p.TotalTrades != 3 || p.SuccessfulTrades != 2 || p.FailedTrades != 1 || p.WinRate != 66.7 || p.PendingOrders != 1 || p.ActivePositions != 2 {
		t.Fatalf("performance %+v", p)
	}
	// 1 BTC at 55,000 and 4 ETH at 2,600.
	if !p.TotalExposure.Equal(decimal.RequireFromString("65400")) {
		t.Fatalf("exposure %s", p.TotalExposure)
	}
	// Cash: 100,000 - 50,000.01 x 1.006 - 2,500.01 x 4 x 1.006; holdings 65,400.
	wantValue := decimal.RequireFromString("100000").
		Sub(decimal.RequireFromString("50000.01").Mul(decimal.RequireFromString("1.006"))).
		Sub(decimal.RequireFromString("10000.04").Mul(decimal.RequireFromString("1.006"))).
		Add(decimal.RequireFromString("65400"))
	if !p.PortfolioValue.Equal(wantValue.Round(2)) {
		t.Fatalf("portfolio value %s, want %s", p.PortfolioValue, wantValue.Round(2))
	}
	if !p.DailyPnL.Equal(wantValue.Sub(decimal.NewFromInt(100_000)).Round(2)) {
		t.Fatalf("daily P&L %s", p.DailyPnL)
	}

	pf, err := d.svc.Portfolio(ctx, d.sb.RealizedPnL)
	if err != nil {
		t.Fatal(err)
	}
	if pf.PositionsCount != 2 || pf.Positions[0].Symbol != "BTC-USD" || pf.Diversification.Symbols != 2 {
		t.Fatalf("portfolio %+v", pf)
	}
	if want := decimal.NewFromInt(55_000).Div(wantValue).Mul(decimal.NewFromInt(100)).Round(2); !pf.Diversification.LargestPositionPercentage.Equal(want) {
		t.Fatalf("largest position %s%%, want %s%%", pf.Diversification.LargestPositionPercentage, want)
	}
	if !pf.WeeklyPnL.Equal(wantValue.Sub(decimal.NewFromInt(90_000)).Round(2)) {
		t.Fatalf("weekly P&L %s", pf.WeeklyPnL)
	}

	trades, total, err := d.svc.History(ctx, "", 10, 0)
	if err != nil || total != 4 {
		t.Fatalf("history %d %v", total, err)
	}
	statuses := map[string]int{}
	for _, tr := range trades {
		statuses[tr.Status]++
	}
	if statuses["executed"] != 2 || statuses["failed"] != 1 || statuses["pending"] != 1 {
		t.Fatalf("history statuses %v", statuses)
	}
}

func TestStopCancelsAndPersistsAcrossRestart(t *testing.T) {
	ctx := context.Background()
	d := newDesk(t)
	var alerts []string
	svc, err := trading.New(ctx, trading.Deps{Exchange: d.sb, Market: d.mkt, Store: d.store, Clock: d.clk,
		Alert: func(_ context.Context, severity, title, _ string) { alerts = append(alerts, severity+": "+title) }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.PlaceLimit(ctx, "u1", trading.LimitRequest{Symbol: "BTC-USD", Side: "BUY", Quantity: amount("0.01"), Price: amount("40000")}); err != nil {
		t.Fatal(err)
	}
	cancelled, err := svc.Stop(ctx, "ops@example.com", "")
	if err != nil || len(cancelled) != 1 || cancelled[0].Status != domain.StatusCancelled {
		t.Fatalf("stop: %+v %v", cancelled, err)
	}
	if len(alerts) != 1 || alerts[0] != "critical: Emergency stop active" {
		t.Fatalf("alerts %v", alerts)
	}
	again, err := trading.New(ctx, trading.Deps{Exchange: d.sb, Market: d.mkt, Store: d.store, Clock: d.clk})
	if err != nil || !again.Halt().Active || again.Halt().By != "ops@example.com" {
		t.Fatalf("halt after restart: %+v %v", again.Halt(), err)
	}
	_, err = again.Execute(ctx, "u1", trading.ExecuteRequest{Symbol: "BTC-USD", Action: "BUY", Quantity: amount("0.01")})
	if domain.ErrorCode(err) != domain.ERejected {
		t.Fatalf("trade while halted: %v", err)
	}
	if err := again.Resume(ctx, "ops@example.com"); err != nil || again.Halt().Active {
		t.Fatalf("resume: %v", err)
	}
}
