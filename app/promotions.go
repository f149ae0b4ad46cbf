package app

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"kestrel/domain"
	"kestrel/events"
	"kestrel/exchange/coinbase"
	"kestrel/exchange/sandbox"
	"kestrel/promotion"
	"kestrel/research"
	"kestrel/strategy"
	"kestrel/trading"
)

// stages runs the paper stages of promoted versions (docs/PROMOTION.md):
// each its own sandbox over its paper account's ledger, matched on the
// market the paper venue uses, its own gateway (its own emergency stop,
// day count and peaks) and its own engine running the promoted version
// alone with automation on. They run while the trading engine runs: on a
// cluster, on the leader, rebuilt from the database when it takes over.
type stages struct {
	a     *App
	clock domain.Clock

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

var _ promotion.Runner = (*stages)(nil)

// stageGateway is a paper stage's gateway as its engine sees it: halted
// when its own emergency stop is on, and when the platform's is (the Stop
// button stops every automated strategy, paper stages included).
type stageGateway struct {
	*trading.Service
	main *trading.Service
}

func (g stageGateway) Halt() trading.HaltState {
	if h := g.main.Halt(); h.Active {
		return h
	}
	return g.Service.Halt()
}

// Start builds a stage and runs it (at once when the engine runs, else
// when it starts).
func (s *stages) Start(ctx context.Context, p domain.Promotion) error {
	if s.a.cluster != nil && !s.a.cluster.elector.Leading() {
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

func (s *stages) build(ctx context.Context, p domain.Promotion) (*stage, error) {
	a := s.a
	cfg, err := a.Strategies.ConfigAt(ctx, p.Strategy, p.Version)
	if err != nil {
		return nil, err
	}
	cfg.Enabled, cfg.Version = true, p.Version
	raw, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	rec := domain.StrategyRecord{Name: cfg.Name, Type: cfg.Type, Enabled: true, Config: raw, ActiveVersion: p.Version, CreatedAt: now, UpdatedAt: now}
	opt := a.sandboxOpt
	opt.StartingUSD, opt.NotifyEvent = p.StartingUSD, nil // funded once, on its first start; no notifications of its fills
	sb, err := sandbox.New(ctx, a.Store.LedgerFor(p.Account), a.paperPrices(), opt)
	if err != nil {
		return nil, fmt.Errorf("paper account %s: %w", p.Account, err)
	}
	bus := events.NewBus() // its updates and signals are its own, not the main screens'
	book, err := newStageBook(ctx, a.Store, p.ID)
	if err != nil {
		return nil, err
	}
	gw, err := trading.New(ctx, trading.Deps{Exchange: sb, Account: sb.Account, Market: a.Live, Store: book,
		Clock: s.clock, Bus: bus, Policy: a.policy})
	if err != nil {
		return nil, err
	}
	eng, err := strategy.New(ctx, strategy.Deps{Store: promotion.NewPinned(a.Store, p.Account, rec), Market: a.Live, Exchange: sb,
		Gateway: stageGateway{Service: gw, main: a.Trading},
		Account: sb.Account, Policy: a.policy, AutoTrading: func() bool { return true },
		MarketStale: func() string { return a.marketWatch().Stale(a.Live.LastTickAge()) },
		Clock:       s.clock, Bus: bus, NoDefaults: true,
		Build: strategy.Builder(strategy.AIDeps{Provider: a.aiProvider, Price: a.lastPrice, Limits: a.limitsSummary, Spend: a.Spend})})
	if err != nil {
		return nil, err
	}
	return &stage{p: p, sb: sb, gw: gw, eng: eng}, nil
}

// paperPrices is the market paper stages match on: the paper venue's (the
// replay, or Coinbase's live market when the settings choose it), or, when
// the venue is Coinbase itself, Coinbase's live market, whose ticks they
// receive.
func (a *App) paperPrices() sandbox.Prices {
	v := a.current()
	switch {
	case v == nil:
		return a.Market
	case v.prices != nil:
		return v.prices
	}
	if feed, ok := v.market.(*coinbase.Feed); ok {
		return livePrices{feed}
	}
	return a.Market
}

// launch runs a stage's matching, gateway and engine under ctx. Callers hold s.mu.
func (s *stages) launch(ctx context.Context, st *stage) {
	ctx, st.cancel = context.WithCancel(ctx)
	st.done = make(chan struct{})
	st.sb.SetPrices(s.a.paperPrices())
	ticks := s.a.Live.Subscribe(ctx)
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

// reset forgets every stage (their loops have stopped): a cluster instance
// that stops leading rebuilds them from the database when it leads again.
func (s *stages) reset() {
	s.mu.Lock()
	s.run = map[string]*stage{}
	s.mu.Unlock()
}

// runAll runs every stage while the engine runs (a loop of runEngine and
// of a cluster leader's lead).
func (s *stages) runAll(ctx context.Context) {
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
func (s *stages) Stop(ctx context.Context, p domain.Promotion) error {
	s.mu.Lock()
	st, ok := s.run[p.ID]
	s.mu.Unlock()
	if !ok {
		return nil
	}
	if _, err := st.eng.SetEnabled(ctx, p.Strategy, false); err != nil {
		return err
	}
	live, err := s.a.Store.LedgerFor(p.Account).LedgerLiveOrders(ctx) // pending and open
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
func (s *stages) ClosePositions(ctx context.Context, p domain.Promotion) ([]domain.Order, error) {
	s.mu.Lock()
	_, running := s.run[p.ID]
	s.mu.Unlock()
	if running {
		return nil, domain.Errorf(domain.EConflict, "The paper stage is running: demote it first")
	}
	ledger := s.a.Store.LedgerFor(p.Account)
	ps, err := ledger.LedgerPositions(ctx)
	if err != nil {
		return nil, err
	}
	opt := s.a.sandboxOpt
	opt.StartingUSD, opt.NotifyEvent = p.StartingUSD, nil
	sb, err := sandbox.New(ctx, ledger, s.a.paperPrices(), opt)
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

// promotionEvidence finds the newest finished walk-forward sweep of a
// strategy run on one of versions, and what it showed out of sample.
func (a *App) promotionEvidence(ctx context.Context, name string, versions []int) (promotion.Evidence, bool, error) {
	js, err := a.Store.Jobs(ctx, research.SweepJobKind, domain.JobCompleted, 1000)
	if err != nil {
		return promotion.Evidence{}, false, err
	}
	for _, j := range js { // newest first
		var ask research.Ask
		if json.Unmarshal(j.Params, &ask) != nil || ask.WalkForward == nil || ask.StrategyName != name || !contains(versions, ask.StrategyVersion) {
			continue
		}
		ws, f := research.Windows(ask, 0)
		if f != nil {
			continue
		}
		runs, err := a.Store.SweepTrials(ctx, j.ID)
		if err != nil {
			return promotion.Evidence{}, false, err
		}
		names, _ := research.Size(ask)
		rep := research.Report(ask, names, ws, runs)
		return evidenceOf(j.ID, ask.StrategyVersion, rep), true, nil
	}
	return promotion.Evidence{}, false, nil
}

// evidenceOf sums the folds' out-of-sample trades and averages their Sharpe ratios.
func evidenceOf(id string, version int, rep research.WalkForwardReport) promotion.Evidence {
	ev := promotion.Evidence{SweepID: id, Version: version}
	var sharpe float64
	for _, f := range rep.Folds {
		var m struct {
			TotalTrades int     `json:"total_trades"`
			SharpeRatio float64 `json:"sharpe_ratio"`
		}
		if len(f.OutOfSample) == 0 || json.Unmarshal(f.OutOfSample, &m) != nil {
			continue
		}
		ev.Folds++
		ev.Trades += m.TotalTrades
		sharpe += m.SharpeRatio
	}
	if ev.Folds > 0 {
		ev.Sharpe = sharpe / float64(ev.Folds)
	}
	return ev
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}
