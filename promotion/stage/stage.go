// Package stage runs the paper stages of promoted versions
// (docs/PROMOTION.md): each its own sandbox over its paper account's
// ledger, matched on the market the paper venue uses, its own gateway (its
// own emergency stop, day count and peaks) and its own engine running the
// promoted version alone with automation on. They run while the trading
// engine runs: on a cluster, on the leader, rebuilt from the database when
// it takes over. Package promotion decides when a stage starts and stops;
// this package is what runs.
package stage

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"kestrel/domain"
	"kestrel/events"
	"kestrel/exchange/sandbox"
	"kestrel/promotion"
	"kestrel/strategy"
	"kestrel/trading"
)

// Store is what the stages read and keep: the promoted versions' records
// (read), the stages' paper ledgers and their gateways' values.
type Store interface {
	domain.KVStore
	domain.StrategyStore
	domain.LedgerAccounts
}

// Deps wires the runner.
type Deps struct {
	Store Store
	// Config is a strategy's configuration at a version.
	Config func(ctx context.Context, name string, version int) (strategy.Config, error)
	// Market is the live market the stages' gateways and engines read.
	Market domain.MarketData
	// Prices is the market the stages' paper orders match on now.
	Prices func() sandbox.Prices
	// Sandbox is the paper venue's options; each stage funds its own account.
	Sandbox sandbox.Options
	// Main is the platform's gateway: its emergency stop halts the stages too.
	Main        *trading.Service
	Policy      func() trading.Policy
	MarketStale func() string
	Build       func(strategy.Config) (strategy.Strategy, error)
	// Leading says whether this instance runs the trading engine (nil: one process).
	Leading func() bool
	Clock   domain.Clock
}

// Runner runs the paper stages.
type Runner struct {
	d Deps

	mu     sync.Mutex
	engCtx context.Context // the running engine's context (nil: not running)
	run    map[string]*stage
}

type stage struct {
	p      domain.Promotion
	sb     *sandbox.Sandbox
	gw     *trading.Service
	eng    *strategy.Engine
	cancel context.CancelFunc
	done   chan struct{}
}

var _ promotion.Runner = (*Runner)(nil)

// New returns a runner with no stage.
func New(d Deps) *Runner { return &Runner{d: d, run: map[string]*stage{}} }

// gateway is a paper stage's gateway as its engine sees it: halted
// when its own emergency stop is on, and when the platform's is (the Stop
// button stops every automated strategy, paper stages included).
type gateway struct {
	*trading.Service
	main *trading.Service
}

func (g gateway) Halt() trading.HaltState {
	if h := g.main.Halt(); h.Active {
		return h
	}
	return g.Service.Halt()
}

// Start builds a stage and runs it (at once when the engine runs, else
// when it starts).
func (s *Runner) Start(ctx context.Context, p domain.Promotion) error {
	if s.d.Leading != nil && !s.d.Leading() {
		// Promotion requests are forwarded to the leader (cluster.LeaderOnly).
		return domain.Errorf(domain.EUnavailable, "Paper stages run on the instance leading the trading engine, and this one does not lead; retry")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.run[p.ID]; ok {
		return nil
	}
	st, err := s.build(ctx, p)
	if err != nil {
		return err
	}
	s.run[p.ID] = st
	if s.engCtx != nil && s.engCtx.Err() == nil {
		s.launch(s.engCtx, st)
	}
	return nil
}

func (s *Runner) build(ctx context.Context, p domain.Promotion) (*stage, error) {
	d := s.d
	cfg, err := d.Config(ctx, p.Strategy, p.Version)
	if err != nil {
		return nil, err
	}
	cfg.Enabled, cfg.Version = true, p.Version
	raw, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	now := d.Clock.Now()
	rec := domain.StrategyRecord{Name: cfg.Name, Type: cfg.Type, Enabled: true, Config: raw, ActiveVersion: p.Version, CreatedAt: now, UpdatedAt: now}
	opt := d.Sandbox
	opt.StartingUSD, opt.NotifyEvent = p.StartingUSD, nil // funded once, on its first start; no notifications of its fills
	sb, err := sandbox.New(ctx, d.Store.LedgerFor(p.Account), d.Prices(), opt)
	if err != nil {
		return nil, fmt.Errorf("paper account %s: %w", p.Account, err)
	}
	bus := events.NewBus() // its updates and signals are its own, not the main screens'
	book, err := OpenBook(ctx, d.Store, p.ID)
	if err != nil {
		return nil, err
	}
	gw, err := trading.New(ctx, trading.Deps{Exchange: sb, Account: sb.Account, Market: d.Market, Store: book,
		Clock: d.Clock, Bus: bus, Policy: d.Policy})
	if err != nil {
		return nil, err
	}
	eng, err := strategy.New(ctx, strategy.Deps{Store: promotion.NewPinned(d.Store, p.Account, rec), Market: d.Market, Exchange: sb,
		Gateway: gateway{Service: gw, main: d.Main},
		Account: sb.Account, Policy: d.Policy, AutoTrading: func() bool { return true },
		MarketStale: d.MarketStale,
		Clock:       d.Clock, Bus: bus, NoDefaults: true,
		Build: d.Build})
	if err != nil {
		return nil, err
	}
	return &stage{p: p, sb: sb, gw: gw, eng: eng}, nil
}

// launch runs a stage's matching, gateway and engine under ctx. Callers hold s.mu.
func (s *Runner) launch(ctx context.Context, st *stage) {
	ctx, st.cancel = context.WithCancel(ctx)
	st.done = make(chan struct{})
	st.sb.SetPrices(s.d.Prices())
	ticks := s.d.Market.Subscribe(ctx)
	var wg sync.WaitGroup
	for _, loop := range []func(context.Context){
		func(ctx context.Context) {
			st.sb.Run(ctx, ticks, func(err error) {
				slog.Error("paper stage matching", "promotion", st.p.ID, "err", err, "component", "promotion")
			})
		},
		st.gw.Run, st.eng.Run,
		// Its value every minute: its daily loss and drawdown limits measure from it.
		func(ctx context.Context) { st.gw.RecordEvery(ctx, time.Minute) },
	} {
		wg.Add(1)
		go func() { defer wg.Done(); loop(ctx) }()
	}
	go func() { wg.Wait(); close(st.done) }()
}

// Reset forgets every stage (their loops have stopped): a cluster instance
// that stops leading rebuilds them from the database when it leads again.
func (s *Runner) Reset() {
	s.mu.Lock()
	s.run = map[string]*stage{}
	s.mu.Unlock()
}

// Run runs every stage while the engine runs (a loop of the engine and
// of a cluster leader's lead), until ctx ends.
func (s *Runner) Run(ctx context.Context) {
	s.mu.Lock()
	s.engCtx = ctx
	for _, st := range s.run {
		s.launch(ctx, st)
	}
	s.mu.Unlock()
	<-ctx.Done()
	s.mu.Lock()
	s.engCtx = nil
	for _, st := range s.run {
		if st.done != nil {
			<-st.done
		}
	}
	s.mu.Unlock()
}

// Stop ends a stage: its engine stops placing orders at once, its resting
// orders are cancelled (once it stops nothing would match them) and it
// stops running. Its fills, balances and positions stay in its paper account.
func (s *Runner) Stop(ctx context.Context, p domain.Promotion) error {
	s.mu.Lock()
	st, ok := s.run[p.ID]
	s.mu.Unlock()
	if !ok {
		return nil
	}
	if _, err := st.eng.SetEnabled(ctx, p.Strategy, false); err != nil {
		return err
	}
	live, err := s.d.Store.LedgerFor(p.Account).LedgerLiveOrders(ctx) // pending and open
	if err != nil {
		return err
	}
	for _, o := range live {
		if _, err := st.sb.CancelOrder(ctx, o.ID); err != nil && domain.ErrorCode(err) != domain.EConflict {
			return fmt.Errorf("cancel %s: %w", o.ID, err)
		}
	}
	s.mu.Lock()
	delete(s.run, p.ID)
	s.mu.Unlock()
	if st.cancel != nil {
		st.cancel()
		<-st.done
	}
	return nil
}

// ClosePositions sells, at market, every position an ended paper stage's
// account holds, through a sandbox of its own over that account (the stage
// no longer runs; nothing else writes its books).
func (s *Runner) ClosePositions(ctx context.Context, p domain.Promotion) ([]domain.Order, error) {
	s.mu.Lock()
	_, running := s.run[p.ID]
	s.mu.Unlock()
	if running {
		return nil, domain.Errorf(domain.EConflict, "The paper stage is running: demote it first")
	}
	ledger := s.d.Store.LedgerFor(p.Account)
	ps, err := ledger.LedgerPositions(ctx)
	if err != nil {
		return nil, err
	}
	opt := s.d.Sandbox
	opt.StartingUSD, opt.NotifyEvent = p.StartingUSD, nil
	sb, err := sandbox.New(ctx, ledger, s.d.Prices(), opt)
	if err != nil {
		return nil, err
	}
	out := []domain.Order{}
	for _, pos := range ps {
		if !pos.Quantity.IsPositive() {
			continue
		}
		o, err := sb.PlaceOrder(ctx, domain.OrderRequest{Symbol: pos.Symbol, Side: domain.Sell, Type: domain.Market, Quantity: pos.Quantity,
			Strategy: p.Strategy, StrategyVersion: p.Version, UserID: domain.StrategyUser + p.Strategy})
		if err != nil {
			return out, fmt.Errorf("close %s: %w", pos.Symbol, err)
		}
		out = append(out, o)
	}
	return out, nil
}
