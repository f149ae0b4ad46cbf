package trading_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/candles"
	"kestrel/domain"
	"kestrel/exchange/sandbox"
	"kestrel/store/sqlite"
	"kestrel/trading"
)

// market is a hand-set price per symbol with a one-cent spread.
type fakeMarket struct {
	mu sync.Mutex
	p  map[string]decimal.Decimal
}

func (m *fakeMarket) set(sym, p string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.p[sym] = decimal.RequireFromString(p)
}
func (m *fakeMarket) Symbols() []string { return []string{"BTC-USD", "ETH-USD"} }
func (m *fakeMarket) Ticker(sym string) (domain.Ticker, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.p[sym]
	if !ok {
		return domain.Ticker{}, domain.Errorf(domain.ENotFound, "Unknown symbol: %s", sym)
	}
	c := decimal.New(1, -2)
	return domain.Ticker{Symbol: sym, Price: p, Bid: p.Sub(c), Ask: p.Add(c)}, nil
}
func (m *fakeMarket) Stats(string) (domain.Stats24h, error) { return domain.Stats24h{}, nil }
func (m *fakeMarket) Candles(context.Context, string, domain.Granularity, time.Time, time.Time, int) ([]domain.Candle, error) {
	return nil, nil
}
func (m *fakeMarket) Subscribe(context.Context) <-chan domain.Tick { return make(chan domain.Tick) }

type clock struct{ t time.Time }

func (c *clock) Now() time.Time { return c.t }

type desk struct {
	policy trading.Policy
	svc    *trading.Service
	sb     *sandbox.Sandbox
	mkt    *fakeMarket
	clk    *clock
	store  *sqlite.Store
}

func newDesk(t *testing.T) *desk {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	d := &desk{mkt: &fakeMarket{p: map[string]decimal.Decimal{}}, clk: &clock{time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC)}, store: st}
	d.mkt.set("BTC-USD", "50000")
	d.mkt.set("ETH-USD", "2500")
	opt := sandbox.DefaultOptions(candles.Products()[:2]) // BTC-USD, ETH-USD
	opt.Clock = d.clk
	if d.sb, err = sandbox.New(ctx, st, d.mkt, opt); err != nil {
		t.Fatal(err)
	}
	d.policy = trading.DefaultPolicy()
	d.policy.Limits.MaxPositionSize = decimal.NewFromInt(1)
	d.policy.Limits.MaxTradeAmount = decimal.NewFromInt(100_000)
	d.svc = d.gateway(t, nil)
	return d
}

// gateway is a gateway on the desk's exchange (a restart makes a new one).
func (d *desk) gateway(t *testing.T, alert trading.AlertFunc) *trading.Service {
	t.Helper()
	svc, err := trading.New(context.Background(), trading.Deps{Exchange: d.sb, Account: d.sb.Account, Market: d.mkt, Store: d.store,
		Clock: d.clk, Policy: func() trading.Policy { return d.policy }, Alert: alert})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }
func decp(s string) *decimal.Decimal {
	v := dec(s)
	return &v
}

func market(sym string, side domain.Side, qty string) domain.OrderRequest {
	return domain.OrderRequest{Symbol: sym, Side: side, Type: domain.Market, Quantity: dec(qty), UserID: "u1"}
}

func limit(sym string, side domain.Side, qty, px string) domain.OrderRequest {
	return domain.OrderRequest{Symbol: sym, Side: side, Type: domain.Limit, Quantity: dec(qty), Price: decp(px), UserID: "u1"}
}

func stop(sym string, side domain.Side, qty, px string) domain.OrderRequest {
	return domain.OrderRequest{Symbol: sym, Side: side, Type: domain.StopLoss, Quantity: dec(qty), StopPrice: decp(px), UserID: "u1"}
}

func (d *desk) place(t *testing.T, req domain.OrderRequest) domain.Order {
	t.Helper()
	o, _, err := d.svc.Place(context.Background(), req)
	if err != nil {
		t.Fatalf("place %s %s %s: %v", req.Side, req.Quantity, req.Symbol, err)
	}
	return o
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

	d.place(t, market("BTC-USD", domain.Buy, "1"))
	d.place(t, domain.OrderRequest{Symbol: "eth-usd", Side: "buy", Type: domain.Market, Quantity: dec("4"), UserID: "u1"})
	// A buy stop within the leverage cap that the market gaps through is
	// checked against the balance at trigger: it cannot be paid, so it is
	// rejected, a failed trade.
	d.place(t, stop("ETH-USD", domain.Buy, "15", "2600"))
	d.mkt.set("ETH-USD", "2700")
	if err := d.sb.OnTick(ctx, domain.Tick{Symbol: "ETH-USD", Price: decimal.RequireFromString("2700")}); err != nil {
		t.Fatal(err)
	}
	// A resting limit is pending, not a trade.
	d.place(t, limit("BTC-USD", domain.Buy, "0.1", "40000"))
	d.mkt.set("BTC-USD", "55000")

	p, err := d.svc.Performance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Two buys filled, one stop was rejected: no round trip has closed, so
	// there is no trade to win or lose yet (filled orders are not wins).
	if p.TotalTrades != 0 || p.SuccessfulTrades != 0 || p.FailedTrades != 0 || p.WinRate != 0 || p.PendingOrders != 1 || p.ActivePositions != 2 {
		t.Fatalf("performance %+v", p)
	}
	// 1 BTC at 55,000 and 4 ETH at 2,700.
	if !p.TotalExposure.Equal(decimal.RequireFromString("65800")) {
		t.Fatalf("exposure %s", p.TotalExposure)
	}
	// Cash: 100,000 - 50,000.01 x 1.006 - 2,500.01 x 4 x 1.006; holdings 65,800.
	wantValue := decimal.RequireFromString("100000").
		Sub(decimal.RequireFromString("50000.01").Mul(decimal.RequireFromString("1.006"))).
		Sub(decimal.RequireFromString("10000.04").Mul(decimal.RequireFromString("1.006"))).
		Add(decimal.RequireFromString("65800"))
	if !p.PortfolioValue.Equal(wantValue.Round(2)) {
		t.Fatalf("portfolio value %s, want %s", p.PortfolioValue, wantValue.Round(2))
	}
	if !p.DailyPnL.Equal(wantValue.Sub(decimal.NewFromInt(100_000)).Round(2)) {
		t.Fatalf("daily P&L %s", p.DailyPnL)
	}

	pf, err := d.svc.Portfolio(ctx)
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

	// The history lists the two fills only: the rejected stop and the
	// resting limit are orders, not trades.
	trades, total, err := d.svc.History(ctx, "", 10, 0)
	if err != nil || total != 2 || len(trades) != 2 {
		t.Fatalf("history %+v %d %v", trades, total, err)
	}
	for _, tr := range trades {
		if tr.Status != "executed" || tr.Side != domain.Buy || tr.OrderType != domain.Market || tr.Price.IsZero() || tr.RealizedPnL != nil {
			t.Fatalf("history row %+v, want an executed market BUY fill at its price", tr)
		}
	}
}

func TestStopCancelsAndPersistsAcrossRestart(t *testing.T) {
	ctx := context.Background()
	d := newDesk(t)
	var alerts []string
	d.svc = d.gateway(t, func(_ context.Context, severity, title, _ string) { alerts = append(alerts, severity+": "+title) })
	d.place(t, limit("BTC-USD", domain.Buy, "0.01", "40000"))
	cancelled, err := d.svc.Stop(ctx, "ops@example.com", "")
	if err != nil || len(cancelled) != 1 || cancelled[0].Status != domain.StatusCancelled {
		t.Fatalf("stop: %+v %v", cancelled, err)
	}
	if len(alerts) != 1 || alerts[0] != "critical: Emergency stop active" {
		t.Fatalf("alerts %v", alerts)
	}
	again := d.gateway(t, nil)
	if !again.Halt().Active || again.Halt().By != "ops@example.com" {
		t.Fatalf("halt after restart: %+v", again.Halt())
	}
	_, _, err = again.Place(ctx, market("BTC-USD", domain.Buy, "0.01"))
	if domain.ErrorCode(err) != domain.ERejected {
		t.Fatalf("trade while halted: %v", err)
	}
	if err := again.Resume(ctx, "ops@example.com"); err != nil || again.Halt().Active {
		t.Fatalf("resume: %v", err)
	}
}
