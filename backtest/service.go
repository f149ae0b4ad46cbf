package backtest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"kestrel/ai"
	"kestrel/analytics/robust"
	"kestrel/domain"
	"kestrel/marketdata"
	market "kestrel/replay"
	"kestrel/strategy"
	"kestrel/trading"
)

// JobKind is the jobs runner's kind for a queued backtest (POST
// /api/backtests): its parameters are an Ask, its result the report's id.
const JobKind = "backtest"

// EngineVersion changes whenever the fill rules change, so a stored run says
// which rules produced it (2: every fill within its candle's low and high).
const EngineVersion = "2"

// Spec messages (section 5, Backtest).
const (
	MsgStrategy = "Please select a strategy"
	MsgSymbol   = "Please enter a trading symbol"
	MsgDates    = "Please select start and end dates"
	MsgOrder    = "Start date must be before end date"
	MsgCapital  = "Initial capital must be greater than 0"
	MsgShort    = "Backtest period must be at least 7 days"
	MsgLong     = "Backtest period cannot exceed 365 days"
)

// Ask is a backtest as the API and the screen ask for it.
type Ask struct {
	StrategyName   string          `json:"strategy_name"`
	Symbol         string          `json:"symbol"`
	StartDate      string          `json:"start_date"` // YYYY-MM-DD or RFC 3339
	EndDate        string          `json:"end_date"`
	InitialCapital decimal.Decimal `json:"initial_capital"`
	// Params overrides the strategy's configuration for this run only.
	Params json.RawMessage `json:"params,omitempty"`
	// SlippageBps is paid beyond the book on every market fill (0 to 1,000).
	SlippageBps decimal.Decimal `json:"slippage_bps"`
	// VolumeCap is the largest share of a candle's volume one order may take
	// (0 to 1; 0 or absent: no cap); the rest fills at the next opens.
	VolumeCap decimal.Decimal `json:"volume_cap"`
	// AIMode is how an AI-driven or hybrid strategy decides: builtin (empty
	// too), recorded or live (see AIModes).
	AIMode string `json:"ai_mode,omitempty"`
	// ConfirmLive runs a live-model backtest; without it a live ask only
	// returns the estimate (*ConfirmLive).
	ConfirmLive bool `json:"confirm_live,omitempty"`
	// StrategyVersion runs a stored version of the instance instead of the
	// one it runs now (0 or absent: the active one), e.g. a prompt saved
	// but not yet trusted with trading.
	StrategyVersion int `json:"strategy_version,omitempty"`
	// MonteCarlo, when set, adds the Monte Carlo of the run's closed
	// trades to the report (absent: none, and the report is as before).
	MonteCarlo *MonteCarloAsk `json:"monte_carlo,omitempty"`
}

// Assumptions are the run's fill model, shown in every report.
type Assumptions struct {
	TakerFee      decimal.Decimal `json:"taker_fee"`
	MakerFee      decimal.Decimal `json:"maker_fee"`
	SlippageBps   decimal.Decimal `json:"slippage_bps"`
	VolumeCap     string          `json:"volume_cap"`
	Fills         string          `json:"fills"`
	Timeframe     string          `json:"timeframe"`
	AIProvider    string          `json:"ai_provider,omitempty"`
	AIMode        string          `json:"ai_mode,omitempty"`
	EngineVersion string          `json:"engine_version"`
	Build         string          `json:"build"`
	CandlesHash   string          `json:"candles_hash"` // sha256 of the candles used, warm-up included
	Candles       int             `json:"candles"`
	Policy        PolicyUsed      `json:"policy"` // the risk and protective settings used
	// ReplayedAnswers is, in recorded mode, the sha256 of the answers
	// replayed, in order (a prompt with none counted too).
	ReplayedAnswers string `json:"replayed_answers_hash,omitempty"`
	// HalfSpread is the bid/ask distance from the price (a fraction), the
	// live market's: BUYs pay the ask, SELLs get the bid.
	HalfSpread decimal.Decimal `json:"half_spread"`
	Data       Data            `json:"data"`
}

// Data says which market history a run read: the store's source, the real
// dates of the candles (warm-up included: from the first one's open to the
// last one's close), how many and their hash (the same as CandlesHash), and
// whether they were cut from generated intra-candle paths (ONE_MINUTE and
// FIVE_MINUTE timeframes) rather than read from the data.
type Data struct {
	Source    string    `json:"source"`
	From      time.Time `json:"from"`
	To        time.Time `json:"to"`
	Candles   int       `json:"candles"`
	Hash      string    `json:"hash"`
	Synthetic bool      `json:"synthetic"`
}

// History is the candle store read by real market dates (package marketdata).
type History interface {
	Candles(ctx context.Context, symbol string, g domain.Granularity, from, to time.Time) (marketdata.Window, error)
	Span(ctx context.Context, symbol string) (marketdata.Span, error)
}

// Report is a stored run: its id, what was asked, the assumptions and the result.
type Report struct {
	ID          string      `json:"id"`
	CreatedAt   time.Time   `json:"created_at"`
	Ask         Ask         `json:"request"`
	Config      any         `json:"config"` // the strategy configuration used, overrides applied
	Assumptions Assumptions `json:"assumptions"`
	AI          *AIRun      `json:"ai,omitempty"` // AI-driven and hybrid runs
	Result

	// StrategyVersion is the version of the instance's configuration the
	// overrides were applied to (0: a configuration outside the versions).
	StrategyVersion int `json:"strategy_version"`

	// CurvePoints counts the whole equity curve's points: one per candle.
	// A stored report's curve keeps at most MaxCurvePoints of them
	// (thinCurve); more here than in equity_curve says it was thinned.
	CurvePoints int `json:"equity_curve_points"`

	// MonteCarlo is the Monte Carlo of the closed trades, when the ask
	// has monte_carlo.
	MonteCarlo *robust.MonteCarlo `json:"monte_carlo,omitempty"`
}

// Deps wire the service.
type Deps struct {
	Strategies interface {
		Get(name string) (strategy.Config, error)
	}
	Market domain.MarketData // the symbols
	// History is where the candles come from, by real market dates.
	History  History
	Exchange domain.Exchange // products
	Store    domain.BacktestStore
	Policy   func() trading.Policy
	TakerFee decimal.Decimal
	MakerFee decimal.Decimal
	Clock    domain.Clock
	Build    string // the binary's version
	// AIProvider is the configured provider (api.ai.*), asked only by a
	// confirmed live run.
	AIProvider func() (ai.Provider, error)
	// Limits summarises the risk limits for prompts, as live strategies do,
	// so a backtest's prompts can match the recorded ones.
	Limits func() string
	// Decisions finds recorded AI decisions by prompt hash and records a
	// live run's answers.
	Decisions interface {
		RecordedDecision(ctx context.Context, promptHash string) (domain.Evaluation, bool, error)
		SaveAIRecordings(ctx context.Context, rs []domain.AIRecording) error
	}
	// MaxModelCalls is the most model calls one live run may make
	// (api.ai.backtestMaxModelCalls; nil or 0: DefaultMaxModelCalls).
	MaxModelCalls func() int
	// Versions reads a stored version of an instance (not_found when it
	// has none); nil: runs of a stored version are refused.
	Versions func(ctx context.Context, name string, version int) (strategy.Config, error)
}

// DefaultMaxModelCalls caps a live run's model calls when no setting does.
const DefaultMaxModelCalls = 2000

// RunOptions are how a run is carried out (by the jobs runner, or at once).
type RunOptions struct {
	// ID is the report's id (the job's); empty: a new one.
	ID string
	// Progress hears the share of the candles done (0..1).
	Progress func(float64)
	// Check only validates the ask (and, for a live run, estimates it and
	// checks the cap on model calls) and runs nothing; the report is empty.
	Check bool
	// Shared, when set, serves the candles (a sweep's trials read them once).
	Shared *Shared
	// Discard returns the report without storing it (a sweep keeps only
	// each trial's metrics).
	Discard bool
	// AnyLength runs a period shorter than the spec's 7-day minimum for a
	// person's backtest: a drift report's window is whatever the paper
	// stage ran.
	AnyLength bool
	// Decision hears every evaluation of the run (Request.Decision).
	Decision func(candle time.Time, decision string, confidence float64)
	// Owner and Source are stored with the report (the user id, and
	// domain.BacktestFromJob or BacktestFromRequest; "": a job's); Keep,
	// above 0, bounds the owner's reports of that source to the newest Keep
	// (domain.BacktestRecord.Keep).
	Owner, Source string
	Keep          int
}

// Service validates, runs and stores backtests.
type Service struct{ d Deps }

// NewService returns a backtest service.
func NewService(d Deps) *Service { return &Service{d: d} }

// Defaults fill what an ask leaves out: BTC-USD, the last three months
// (the spec's default period) ending with the newest whole day of market
// data the store has, capital 10,000.
func (s *Service) Defaults(ctx context.Context, a Ask) (Ask, error) {
	if a.Symbol == "" {
		a.Symbol = "BTC-USD"
	}
	sym := strings.ToUpper(strings.TrimSpace(a.Symbol))
	if a.EndDate == "" && a.StartDate == "" && contains(s.d.Market.Symbols(), sym) { // an unknown symbol is validate's to refuse
		span, err := s.d.History.Span(ctx, sym)
		if domain.ErrorCode(err) == domain.ENotFound {
			return a, noData(sym)
		}
		if err != nil {
			return a, err
		}
		end := span.LastDay().AddDate(0, 0, 1) // end dates are exclusive
		a.EndDate, a.StartDate = end.Format(time.DateOnly), end.AddDate(0, -3, 0).Format(time.DateOnly)
	}
	if a.InitialCapital.IsZero() {
		a.InitialCapital = decimal.NewFromInt(10000)
	}
	return a, nil
}

// Run validates the ask, runs it and stores the report.
func (s *Service) Run(ctx context.Context, a Ask) (Report, error) {
	return s.Start(ctx, a, RunOptions{})
}

// Start validates the ask and, unless o.Check, runs it and stores the report.
func (s *Service) Start(ctx context.Context, a Ask, o RunOptions) (Report, error) {
	a.StrategyName, a.Symbol = strings.TrimSpace(a.StrategyName), strings.ToUpper(strings.TrimSpace(a.Symbol))
	start, end, err := s.validate(a, o.AnyLength)
	if err != nil {
		return Report{}, err
	}
	var hist History = s.d.History
	if o.Shared != nil {
		hist = o.Shared
	}
	if err := s.covered(ctx, hist, a.Symbol, start, end); err != nil {
		return Report{}, err
	}
	get := s.d.Strategies.Get
	if o.Shared != nil {
		get = func(name string) (strategy.Config, error) { return o.Shared.config(s.d.Strategies.Get, name) }
	}
	cfg, err := get(a.StrategyName)
	if err != nil {
		return Report{}, domain.FieldErrors(map[string]string{"strategy_name": "Unknown strategy: " + a.StrategyName}, "strategy_name")
	}
	if cfg, err = s.version(ctx, cfg, a.StrategyVersion); err != nil {
		return Report{}, err
	}
	if cfg, err = applyParams(cfg, a.Params, s.d.Market.Symbols()); err != nil {
		return Report{}, err
	}
	mode := a.AIMode
	if mode == "" {
		mode = AIBuiltin
	}
	if cfg.AIParams == nil && mode != AIBuiltin {
		return Report{}, domain.FieldErrors(map[string]string{"ai_mode": "AI mode applies only to AI-driven and hybrid strategies"}, "ai_mode")
	}
	var aiRun *AIRun
	var prov ai.Provider
	if cfg.AIParams != nil {
		aiRun, prov, err = s.provider(mode, cfg.AIParams.Model)
		if err != nil {
			return Report{}, err
		}
	}
	build := strategy.Builder(strategy.AIDeps{Provider: func() (ai.Provider, error) { return prov, nil }, Limits: s.d.Limits})
	strat, err := build(cfg)
	if err != nil {
		return Report{}, domain.Errorf(domain.EInvalid, "%v", err)
	}
	product, err := s.product(ctx, a.Symbol)
	if err != nil {
		return Report{}, err
	}
	g := domain.Granularity(cfg.Timeframe)
	warm := cfg.Window() // the live engine's window: the same warm-up
	w := g.Duration()
	if o.Check && o.Shared != nil {
		o.Shared.widen(a.Symbol, g, start.Add(-time.Duration(warm)*w), end) // so the runs after read once
	}
	if o.Check && mode != AILive {
		return Report{}, nil
	}
	if aiRun != nil && mode == AILive {
		// The estimate needs only when the candles open, not the candles:
		// a ONE_MINUTE or FIVE_MINUTE run's candles are cut from generated
		// paths, the run's own work (a job's), never the request's.
		opens, err := openTimes(ctx, hist, a.Symbol, g, start.Add(-time.Duration(warm)*w), end)
		if err != nil {
			return Report{}, err
		}
		opens = closedOpens(opens, w, s.now())
		warmup := 0
		for warmup < len(opens) && opens[warmup].Before(start) {
			warmup++
		}
		if len(opens)-warmup < 2 {
			return Report{}, domain.Errorf(domain.EInvalid, "No candles for %s in this period", a.Symbol)
		}
		cut, warns := cutoffWarnings(aiRun.Provider, aiRun.Model, opens[warmup])
		aiRun.Warnings = warns
		est := s.estimate(a, aiRun, len(opens)-warmup-1, cut, cfg.Type == domain.StrategyHybrid)
		if est.ModelCalls > aiRun.CallCap {
			return Report{}, domain.FieldErrors(map[string]string{"ai_mode": fmt.Sprintf(
				"This run would ask the model %d times (once per evaluation), more than the cap of %d model calls per run (setting api.ai.backtestMaxModelCalls): shorten the period, choose a longer timeframe or raise the cap",
				est.ModelCalls, aiRun.CallCap)}, "ai_mode")
		}
		if !a.ConfirmLive {
			return Report{}, &ConfirmLive{Estimate: est}
		}
	}
	if o.Check {
		return Report{}, nil
	}
	win, err := hist.Candles(ctx, a.Symbol, g, start.Add(-time.Duration(warm)*w), end)
	if err != nil {
		return Report{}, err
	}
	cs := closedOnly(win.Candles, w, s.now())
	warmup := 0
	for warmup < len(cs) && cs[warmup].Time.Before(start) {
		warmup++
	}
	if len(cs)-warmup < 2 {
		return Report{}, domain.Errorf(domain.EInvalid, "No candles for %s in this period", a.Symbol)
	}
	id := o.ID
	if id == "" {
		id = uuid.NewString()
	}
	if aiRun != nil && mode == AILive && s.d.Decisions != nil {
		aiRun.save = func(ctx context.Context, d ai.Decision) error {
			return s.d.Decisions.SaveAIRecordings(ctx, []domain.AIRecording{recording(d, "backtest:"+id, s.now())})
		}
	}
	policy := s.d.Policy()
	hash := hashCandles
	if o.Shared != nil {
		policy, hash = o.Shared.policy, o.Shared.hash
	}
	res, err := Run(ctx, Request{Strategy: strat, Config: cfg, Symbol: a.Symbol, Product: product, Candles: cs, Warmup: warmup,
		Capital: a.InitialCapital, TakerFee: s.d.TakerFee, MakerFee: s.d.MakerFee, SlippageBps: a.SlippageBps, VolumeCap: a.VolumeCap, Policy: policy,
		HalfSpread: market.LiveHalfSpread, Progress: o.Progress, Decision: o.Decision})
	if err != nil {
		return Report{}, err
	}
	rep := Report{ID: id, CreatedAt: s.now(), Ask: a, Config: cfg, Result: res,
		Assumptions: Assumptions{TakerFee: s.d.TakerFee, MakerFee: s.d.MakerFee, SlippageBps: a.SlippageBps, VolumeCap: volumeCap(a.VolumeCap), HalfSpread: market.LiveHalfSpread,
			Fills:     "signals fill at the next candle's open; stops and take-profits at their price on the candle's path, stop first; every fill within its candle's low and high",
			Timeframe: cfg.Timeframe, EngineVersion: EngineVersion, Build: s.d.Build, CandlesHash: hash(cs), Candles: len(cs),
			Policy: policyUsed(policy)}}
	rep.StrategyVersion = cfg.Version
	rep.Assumptions.Data = Data{Source: win.Source, From: cs[0].Time, To: cs[len(cs)-1].Time.Add(w), Candles: len(cs),
		Hash: rep.Assumptions.CandlesHash, Synthetic: win.Synthetic}
	if aiRun != nil {
		if cfg.Type == domain.StrategyHybrid {
			aiRun.NotAsked = len(cs) - warmup - 1 - aiRun.Prompts // one evaluation per candle but the last
		}
		aiRun.TemplateVersion = cfg.PromptIdentity()
		aiRun.summarise()
		rep.AI, rep.Assumptions.AIMode, rep.Assumptions.AIProvider = aiRun, mode, aiRun.Model
		if mode == AIRecorded {
			rep.Assumptions.ReplayedAnswers = aiRun.replayed.sum()
		}
	}
	if a.MonteCarlo != nil {
		rep.MonteCarlo = MonteCarlo(rep.Result, *a.MonteCarlo)
	}
	if o.Discard {
		return rep, nil // a sweep's trial: research reads the whole curve
	}
	rep.CurvePoints = len(rep.EquityCurve)
	var haltAt time.Time
	if rep.Halted != nil {
		haltAt = rep.Halted.At
	}
	rep.EquityCurve = thinCurve(rep.EquityCurve, haltAt)
	if err := s.save(ctx, rep, o); err != nil {
		return Report{}, err
	}
	return rep, nil
}

func (s *Service) now() time.Time { return s.d.Clock.Now().UTC() }

func noData(symbol string) error {
	return domain.FieldErrors(map[string]string{"symbol": "No market data is stored for " + symbol}, "symbol")
}

// covered refuses a period the candle store does not hold for symbol, with
// its coverage: a run is never made of other dates than those asked for.
func (s *Service) covered(ctx context.Context, hist History, symbol string, start, end time.Time) error {
	span, err := hist.Span(ctx, symbol)
	if domain.ErrorCode(err) == domain.ENotFound {
		return noData(symbol)
	}
	if err != nil {
		return err
	}
	if span.Covers(start, end) {
		return nil
	}
	field := "end_date"
	if start.Before(span.FirstDay()) {
		field = "start_date"
	}
	return domain.FieldErrors(map[string]string{field: span.Message()}, field)
}

// validate checks an ask with the spec's messages and returns its period.
func (s *Service) validate(a Ask, anyLength bool) (time.Time, time.Time, error) {
	f := map[string]string{}
	if a.StrategyName == "" {
		f["strategy_name"] = MsgStrategy
	}
	if a.Symbol == "" {
		f["symbol"] = MsgSymbol
	} else if !contains(s.d.Market.Symbols(), a.Symbol) {
		f["symbol"] = "Unknown symbol: " + a.Symbol
	}
	start, e1 := parseDate(a.StartDate)
	end, e2 := parseDate(a.EndDate)
	switch {
	case a.StartDate == "" || a.EndDate == "":
		f["start_date"] = MsgDates
	case e1 != nil:
		f["start_date"] = "Start date must be a date (YYYY-MM-DD)"
	case e2 != nil:
		f["end_date"] = "End date must be a date (YYYY-MM-DD)"
	case !start.Before(end):
		f["start_date"] = MsgOrder
	case end.Sub(start) < 7*24*time.Hour && !anyLength:
		f["end_date"] = MsgShort
	case end.Sub(start) > 365*24*time.Hour:
		f["end_date"] = MsgLong
	}
	if !a.InitialCapital.IsPositive() {
		f["initial_capital"] = MsgCapital
	}
	if a.SlippageBps.IsNegative() || a.SlippageBps.GreaterThan(decimal.NewFromInt(1000)) {
		f["slippage_bps"] = "Slippage must be between 0 and 1000 basis points"
	}
	if a.VolumeCap.IsNegative() || a.VolumeCap.GreaterThan(decimal.NewFromInt(1)) {
		f["volume_cap"] = "Volume cap must be a share of the candle's volume between 0 and 1"
	}
	if a.AIMode != "" && !contains(AIModes, a.AIMode) {
		f["ai_mode"] = "AI mode must be builtin, recorded or live"
	}
	a.MonteCarlo.check(f)
	if len(f) > 0 {
		return start, end, domain.FieldErrors(f, append([]string{"strategy_name", "symbol", "start_date", "end_date", "initial_capital", "slippage_bps", "volume_cap", "ai_mode"}, monteCarloFields...)...)
	}
	return start, end, nil
}

func parseDate(s string) (time.Time, error) {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t.UTC(), nil
	}
	return time.Parse(time.RFC3339, s)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (s *Service) product(ctx context.Context, symbol string) (domain.Product, error) {
	ps, err := s.d.Exchange.Products(ctx)
	if err != nil {
		return domain.Product{}, err
	}
	for _, p := range ps {
		if p.Symbol == symbol {
			return p, nil
		}
	}
	return domain.Product{}, domain.Errorf(domain.ENotFound, "Unknown symbol: %s", symbol)
}

// closedOnly drops a candle still open at now (the live one).
func closedOnly(cs []domain.Candle, w time.Duration, now time.Time) []domain.Candle {
	for len(cs) > 0 && cs[len(cs)-1].Time.Add(w).After(now) {
		cs = cs[:len(cs)-1]
	}
	return cs
}

// openTimes are the open times of the candles hist.Candles returns for the
// same window, without building them: a width below the stored one (whose
// candles are cut from generated intra-candle paths, every stored candle
// giving Stored/w of them) is counted from the stored candles' opens.
func openTimes(ctx context.Context, hist History, symbol string, g domain.Granularity, from, to time.Time) ([]time.Time, error) {
	w := g.Duration()
	read := g
	if w > 0 && w < marketdata.Stored.Duration() {
		read = marketdata.Stored
	}
	win, err := hist.Candles(ctx, symbol, read, from, to)
	if err != nil {
		return nil, err
	}
	per := 1
	if read != g {
		per = int(marketdata.Stored.Duration() / w)
	}
	first := from.Truncate(w)
	out := make([]time.Time, 0, len(win.Candles)*per)
	for _, c := range win.Candles {
		for k := range per {
			if t := c.Time.Add(time.Duration(k) * w); !t.Before(first) && t.Before(to) {
				out = append(out, t)
			}
		}
	}
	return out, nil
}

// closedOpens is closedOnly for open times.
func closedOpens(ts []time.Time, w time.Duration, now time.Time) []time.Time {
	for len(ts) > 0 && ts[len(ts)-1].Add(w).After(now) {
		ts = ts[:len(ts)-1]
	}
	return ts
}

// hashCandles identifies the data a run used.
func hashCandles(cs []domain.Candle) string {
	h := sha256.New()
	for _, c := range cs {
		fmt.Fprintf(h, "%d,%s,%s,%s,%s,%s\n", c.Time.Unix(), c.Open, c.High, c.Low, c.Close, c.Volume)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (s *Service) save(ctx context.Context, r Report, o RunOptions) error {
	req, err := json.Marshal(r.Ask)
	if err != nil {
		return err
	}
	full, err := json.Marshal(r)
	if err != nil {
		return err
	}
	ret := r.TotalReturn
	return s.d.Store.SaveBacktest(ctx, domain.BacktestRecord{ID: r.ID, CreatedAt: r.CreatedAt, Strategy: r.StrategyName, Symbol: r.Symbol,
		Status: r.Status, Request: req, Result: full, TotalReturn: &ret, Owner: o.Owner, Source: o.Source, Keep: o.Keep})
}

// List returns stored runs, newest first (without their results).
func (s *Service) List(ctx context.Context, limit int) ([]domain.BacktestRecord, error) {
	return s.d.Store.Backtests(ctx, limit)
}

// Get returns one stored report.
func (s *Service) Get(ctx context.Context, id string) (json.RawMessage, error) {
	b, err := s.d.Store.Backtest(ctx, id)
	if err != nil {
		return nil, err
	}
	return b.Result, nil
}

func volumeCap(c decimal.Decimal) string {
	if !c.IsPositive() {
		return "none"
	}
	return c.Mul(decimal.NewFromInt(100)).String() + "% of each candle's volume; the rest fills at the next opens"
}

// provider is the AI a run of this mode asks, counting what it is asked.
func (s *Service) provider(mode, option string) (*AIRun, ai.Provider, error) {
	run := &AIRun{Mode: mode}
	switch mode {
	case AIRecorded:
		if s.d.Decisions == nil {
			return nil, nil, domain.Errorf(domain.EUnavailable, "Recorded decisions are not available")
		}
		run.Provider, run.Models = AIRecorded, map[string]int{} // the models are counted per answer
		return run, replay{find: s.d.Decisions.RecordedDecision, run: run}, nil
	case AILive:
		var p ai.Provider
		var err error = domain.Errorf(domain.EUnavailable, "No AI provider is configured")
		if s.d.AIProvider != nil {
			p, err = s.d.AIProvider()
		}
		if err != nil {
			return nil, nil, domain.FieldErrors(map[string]string{"ai_mode": "The configured AI provider cannot be used: " + err.Error()}, "ai_mode")
		}
		run.Provider, run.Model, run.CallCap = p.Name(), p.ModelLabel(option), s.maxModelCalls()
		return run, counted{Provider: p, run: run}, nil
	}
	run.Provider, run.Model = ai.ProviderBuiltin, ai.BuiltinLabel
	return run, counted{Provider: ai.Builtin{}, run: run}, nil
}

func (s *Service) maxModelCalls() int {
	if s.d.MaxModelCalls != nil {
		if n := s.d.MaxModelCalls(); n > 0 {
			return n
		}
	}
	return DefaultMaxModelCalls
}

// estimate describes a live run before it runs.
func (s *Service) estimate(a Ask, run *AIRun, calls int, cutoff string, hybrid bool) Estimate {
	e := Estimate{Status: "confirmation_required", Strategy: a.StrategyName, Symbol: a.Symbol, Provider: run.Provider, Model: run.Model,
		ModelCalls: calls, MaxModelCalls: 2 * calls, CallCap: run.CallCap, TrainingCutoff: cutoff, Warnings: run.Warnings}
	if e.Warnings == nil {
		e.Warnings = []string{}
	}
	e.Message = fmt.Sprintf("This run asks %s (%s) %d times, once per evaluation (up to %d with repair retries; it stops at the cap of %d calls). Send confirm_live: true to run it.",
		run.Provider, run.Model, calls, 2*calls, run.CallCap)
	if hybrid {
		e.Message = fmt.Sprintf("This run asks %s (%s) at most %d times, once per evaluation where the rules say BUY or SELL (up to %d with repair retries; it stops at the cap of %d calls). Send confirm_live: true to run it.",
			run.Provider, run.Model, calls, 2*calls, run.CallCap)
	}
	return e
}

// version is the configuration of stored version n of cur's instance
// (cur itself when n is 0 or the active one).
func (s *Service) version(ctx context.Context, cur strategy.Config, n int) (strategy.Config, error) {
	switch {
	case n == 0 || n == cur.Version:
		return cur, nil
	case n < 0:
		return cur, domain.FieldErrors(map[string]string{"strategy_version": "Strategy version must be a positive whole number"}, "strategy_version")
	case s.d.Versions == nil:
		return cur, domain.FieldErrors(map[string]string{"strategy_version": "Stored versions cannot be run here"}, "strategy_version")
	}
	c, err := s.d.Versions(ctx, cur.Name, n)
	if domain.ErrorCode(err) == domain.ENotFound {
		return cur, domain.FieldErrors(map[string]string{"strategy_version": fmt.Sprintf("%s has no version %d", cur.Name, n)}, "strategy_version")
	}
	if err != nil {
		return cur, err
	}
	return c, nil
}
