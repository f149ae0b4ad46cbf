package strategy

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"sync"
	"time"

	"kestrel/domain"
	"kestrel/events"
	"kestrel/trading"
)

// Gateway is the order gateway as the engine uses it.
type Gateway interface {
	Place(ctx context.Context, req domain.OrderRequest) (domain.Order, bool, error)
	Halt() trading.HaltState
}

// Deps wires the engine.
type Deps struct {
	Store    domain.StrategyStore
	Market   domain.MarketData
	Exchange domain.Exchange // read only: fills and products
	Gateway  Gateway
	Account  func(ctx context.Context) (domain.Account, error)
	Policy   func() trading.Policy
	// AutoTrading reports trading.automation.autoTrading.
	AutoTrading func() bool
	// MarketStale says why the market data cannot be trusted now ("" when
	// it is fresh); automation does not trade until it is. Nil: never stale.
	MarketStale func() string
	Clock       domain.Clock
	Bus         *events.Bus
	Alert       trading.AlertFunc
	// Build makes the strategy of a configuration (technical, AI, hybrid).
	// Nil builds technical strategies only.
	Build func(Config) (Strategy, error)
	// LiveProvider names api.ai.provider, so a shadow model equal to the
	// live one is refused when saved. Nil: not checked.
	LiveProvider func() string
	// NoDefaults runs the store's instances only: the default instances
	// are not created (a promoted version's engine runs that one alone).
	NoDefaults bool
}

// Engine runs the strategy instances.
type Engine struct {
	d       Deps
	mu      sync.Mutex
	inst    map[string]*instance
	shadows sync.WaitGroup // shadow decisions still being recorded
}

type instance struct {
	cfg      Config
	strat    Strategy
	buildErr error
	last     map[string]time.Time // per symbol: open time of the last candle evaluated
	failures int                  // consecutive failed evaluations (AI provider errors)
	// missed is, per symbol, a closed candle whose candles could not be
	// read yet: retried on every step until the next candle closes, then
	// stored as an evaluation that says why it was not evaluated.
	missed map[string]missedCandle
}

// New loads the instances from the store, creating the defaults on a new platform.
func New(ctx context.Context, d Deps) (*Engine, error) {
	if d.Build == nil {
		d.Build = BuildTechnical
	}
	if d.Alert == nil {
		d.Alert = func(context.Context, string, string, string) {}
	}
	e := &Engine{d: d, inst: map[string]*instance{}}
	recs, err := d.Store.Strategies(ctx)
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, r := range recs {
		c, err := fromRecord(r)
		if err != nil {
			return nil, err
		}
		if c.Version == 0 { // stored before versions: its configuration becomes version 1
			if c, err = e.commit(ctx, c, Meta{Note: "Configuration before versions"}); err != nil {
				return nil, err
			}
		}
		e.adopt(c)
		have[r.Name] = true
	}
	for _, c := range Defaults() {
		if !have[c.Name] && !d.NoDefaults {
			if _, err := e.commit(ctx, c, Meta{Note: "Default configuration"}); err != nil {
				return nil, err
			}
		}
	}
	return e, nil
}

// BuildTechnical builds technical strategies and refuses the others.
func BuildTechnical(c Config) (Strategy, error) {
	if c.Type == domain.StrategyTechnical && c.Indicators != nil {
		return NewTechnical(*c.Indicators), nil
	}
	return nil, fmt.Errorf("no AI provider is configured for %s", c.Name)
}

// adopt makes c the running configuration of its instance.
func (e *Engine) adopt(c Config) *instance {
	in := e.inst[c.Name]
	if in == nil {
		in = &instance{last: map[string]time.Time{}, missed: map[string]missedCandle{}}
		e.inst[c.Name] = in
	}
	in.cfg = c
	in.strat, in.buildErr = e.d.Build(c)
	in.failures = 0
	return in
}

// save stores the instance's record (its running configuration, whether
// it runs, and the version it is) and makes c the running configuration.
func (e *Engine) save(ctx context.Context, c Config) error {
	raw, err := json.Marshal(c)
	if err != nil {
		return err
	}
	now := e.d.Clock.Now()
	rec := domain.StrategyRecord{Name: c.Name, Type: c.Type, Enabled: c.Enabled, Config: raw, ActiveVersion: c.Version, CreatedAt: now, UpdatedAt: now}
	if err := e.d.Store.SaveStrategy(ctx, rec); err != nil {
		return err
	}
	e.adopt(c)
	return nil
}

// fromRecord is a stored instance's running configuration.
func fromRecord(r domain.StrategyRecord) (Config, error) {
	var c Config
	if err := json.Unmarshal(r.Config, &c); err != nil {
		return c, fmt.Errorf("strategy %s: %w", r.Name, err)
	}
	c.Name, c.Type, c.Enabled, c.Version = r.Name, r.Type, r.Enabled, r.ActiveVersion
	return c, nil
}

// List returns every instance's configuration, by name.
func (e *Engine) List() []Config {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]Config, 0, len(e.inst))
	for _, in := range e.inst {
		out = append(out, in.cfg.Clone())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Get returns one instance's configuration, or not_found.
func (e *Engine) Get(name string) (Config, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	in, ok := e.inst[name]
	if !ok {
		return Config{}, domain.Errorf(domain.ENotFound, "Strategy not found: %s", name)
	}
	return in.cfg.Clone(), nil
}

// SetEnabled turns an instance on or off at once.
func (e *Engine) SetEnabled(ctx context.Context, name string, on bool) (Config, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	in, ok := e.inst[name]
	if !ok {
		return Config{}, domain.Errorf(domain.ENotFound, "Strategy not found: %s", name)
	}
	c := in.cfg.Clone()
	c.Enabled = on // running or not is not a new version
	if err := e.save(ctx, c); err != nil {
		return Config{}, err
	}
	return c, nil
}

// Configure replaces an instance's configuration (its name and type stay)
// by saving it as a new version, derived from the running one, and
// activating it.
func (e *Engine) Configure(ctx context.Context, name string, c Config) (Config, error) {
	return e.ConfigureAs(ctx, name, c, Meta{})
}

// ConfigureAs is Configure saying who saved it and why (m.Parent is set
// to the running version).
func (e *Engine) ConfigureAs(ctx context.Context, name string, c Config, m Meta) (Config, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	in, ok := e.inst[name]
	if !ok {
		return Config{}, domain.Errorf(domain.ENotFound, "Strategy not found: %s", name)
	}
	c.Name, c.Type, m.Parent = name, in.cfg.Type, in.cfg.Version
	c.Normalize()
	if err := c.ValidateFor(e.d.Market.Symbols(), e.liveProvider()); err != nil {
		return Config{}, err
	}
	return e.commit(ctx, c, m)
}

// Create makes a new named instance of a kind; omitted settings take the
// kind's defaults.
func (e *Engine) Create(ctx context.Context, name, kind string, overlay json.RawMessage) (Config, error) {
	return e.CreateAs(ctx, name, kind, overlay, "")
}

// CreateAs is Create saying who created it (the author of version 1).
func (e *Engine) CreateAs(ctx context.Context, name, kind string, overlay json.RawMessage, by string) (Config, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !validName(name) {
		return Config{}, domain.FieldErrors(map[string]string{"name": "Name must be 1 to 64 letters, digits, _ or - (and not ai-analyze)"}, "name")
	}
	if _, dup := e.inst[name]; dup {
		return Config{}, domain.Errorf(domain.EConflict, "A strategy named %s already exists", name)
	}
	if !slices.Contains(Kinds, kind) {
		return Config{}, domain.FieldErrors(map[string]string{"type": "Type must be technical, ai_driven or hybrid"}, "type")
	}
	c := Default(kind, name)
	if len(overlay) > 0 {
		if err := json.Unmarshal(overlay, &c); err != nil {
			return Config{}, domain.Errorf(domain.EInvalid, "Invalid configuration: %v", err)
		}
	}
	c.Name, c.Type = name, kind
	c.Normalize()
	if err := c.ValidateFor(e.d.Market.Symbols(), e.liveProvider()); err != nil {
		return Config{}, err
	}
	return e.commit(ctx, c, Meta{By: by, Note: "Created"})
}

// Run evaluates every enabled instance on each closed candle of its
// timeframe until ctx ends, looking once a second.
func (e *Engine) Run(ctx context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		e.Step(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Step evaluates every enabled (instance, symbol) whose next candle has
// closed since it last looked, and returns the evaluations it stored.
func (e *Engine) Step(ctx context.Context) []domain.Evaluation {
	e.mu.Lock()
	var due []job
	for _, in := range e.inst {
		if in.cfg.Enabled {
			due = append(due, job{in: in, cfg: in.cfg, strat: in.strat, buildErr: in.buildErr})
		}
	}
	e.mu.Unlock()
	sort.Slice(due, func(i, j int) bool { return due[i].cfg.Name < due[j].cfg.Name })
	var out []domain.Evaluation
	for _, j := range due {
		for _, sym := range j.cfg.Symbols {
			if ev, ok := e.stepOne(ctx, j, sym); ok {
				out = append(out, ev)
			}
		}
	}
	return out
}

// job is an instance as it stood when a step began (the API may change the
// instance meanwhile; the next step sees the change). Only the step
// goroutine touches an instance's last map.
type job struct {
	in       *instance
	cfg      Config
	strat    Strategy
	buildErr error
}

// stepOne evaluates in on symbol's latest closed candle if it is new.
func (e *Engine) stepOne(ctx context.Context, j job, symbol string) (domain.Evaluation, bool) {
	in := j.in
	g := domain.Granularity(j.cfg.Timeframe)
	width := g.Duration()
	t, err := e.d.Market.Ticker(symbol)
	if err != nil || width == 0 {
		return domain.Evaluation{}, false
	}
	closed := t.Time.Truncate(width).Add(-width) // open time of the newest closed candle
	if last, seen := in.last[symbol]; seen && !closed.After(last) {
		return domain.Evaluation{}, false
	}
	if _, seen := in.last[symbol]; !seen {
		if prev, err := e.d.Store.Evaluations(ctx, domain.EvaluationFilter{Strategy: j.cfg.Name, Symbol: symbol, Limit: 1}); err == nil && len(prev) == 1 && !closed.After(prev[0].CandleTime) {
			in.last[symbol] = prev[0].CandleTime // evaluated before a restart
			return domain.Evaluation{}, false
		}
	}
	e.giveUp(ctx, j, symbol, closed)
	n := e.window(j.cfg)
	candles, err := e.d.Market.Candles(ctx, symbol, g, closed.Add(-time.Duration(n-1)*width), closed.Add(width), n)
	if err != nil || len(candles) == 0 || !candles[len(candles)-1].Time.Equal(closed) {
		slog.Warn("strategy candles", "strategy", j.cfg.Name, "symbol", symbol, "err", err, "count", len(candles))
		in.missed[symbol] = missedCandle{at: closed, why: candlesUnavailable(err, len(candles))}
		return domain.Evaluation{}, false // not marked: the next step tries again
	}
	delete(in.missed, symbol)
	in.last[symbol] = closed
	return e.evaluate(ctx, j, symbol, candles, true), true
}

// liveProvider is api.ai.provider ("" when the engine is not told).
func (e *Engine) liveProvider() string {
	if e.d.LiveProvider == nil {
		return ""
	}
	return e.d.LiveProvider()
}

// window is how many closed candles an instance is shown (Config.Window,
// as a backtest's warm-up).
func (e *Engine) window(c Config) int { return c.Window() }

// validName keeps names usable in URLs (/strategy/{name}/enable) and clear
// of the routes that share that shape.
func validName(name string) bool {
	if name == "" || len(name) > 64 || name == "ai-analyze" {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}
