package strategy

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"kestrel/ai"
	"kestrel/analytics"
	"kestrel/domain"
	"kestrel/events"
)

// maxFailures is how many failed evaluations in a row pause an instance.
const maxFailures = 3

// capMargin keeps strategy orders 0.5% inside the risk caps.
var capMargin = decimal.RequireFromString("0.995")

// evaluate asks the strategy, decides whether to trade (trade=false for a
// test analysis), stores the evaluation and publishes it.
func (e *Engine) evaluate(ctx context.Context, j job, symbol string, candles []domain.Candle, trade bool) domain.Evaluation {
	now := e.d.Clock.Now()
	last := candles[len(candles)-1]
	ev := domain.Evaluation{ID: uuid.NewString(), Time: now, Strategy: j.cfg.Name, StrategyVersion: j.cfg.Version, Symbol: symbol, CandleTime: last.Time, Decision: Hold}
	pos, mem, err := e.ownState(ctx, j.cfg, symbol)
	var sig Signal
	if err != nil {
		err = fmt.Errorf("trade memory: %w", err)
	} else {
		sig, err = e.signal(ctx, j, Input{Symbol: symbol, Candles: candles, Position: pos, Now: now, Memory: mem})
	}
	if sig.AI != nil {
		ev.Provider, ev.Model, ev.PromptHash, ev.Prompt, ev.Raw = sig.AI.Provider, sig.AI.Model, sig.AI.PromptHash, sig.AI.Prompt, sig.AI.Raw
		ev.TemplateVersion = sig.AI.TemplateVersion
		ev.LatencyMS = sig.AI.Latency.Milliseconds()
		ev.InputTokens, ev.OutputTokens, ev.Cost = sig.AI.InputTokens, sig.AI.OutputTokens, sig.AI.Cost
	}
	var paused *BudgetPaused
	switch {
	case errors.As(err, &paused):
		// Not a failure of the strategy: it resumes when the month (or the
		// budget) changes, without counting toward the failure pause.
		ev.Error, ev.Reason = err.Error(), err.Error()
		e.d.Alert(ctx, "high", "AI budget reached: "+paused.Provider, "AI decisions on "+paused.Provider+" are paused: "+paused.Why+
			". Raise api.ai.monthlyBudget or wait for the next month.")
	case err != nil:
		ev.Error, ev.Reason = err.Error(), "Evaluation failed: "+err.Error()
		e.failed(ctx, j)
	default:
		e.mu.Lock()
		j.in.failures = 0
		e.mu.Unlock()
		ev.Decision, ev.Confidence, ev.Reasoning, ev.Indicators = sig.Decision, sig.Confidence, sig.Reasoning, sig.Indicators
		if trade {
			ev.Executed, ev.OrderID, ev.Reason = e.execute(ctx, j.cfg, symbol, sig, pos, last.Time)
		} else {
			ev.Reason = "Test analysis: not executed"
		}
	}
	if err := e.d.Store.AppendEvaluation(ctx, ev); err != nil {
		slog.Error("store strategy evaluation", "strategy", ev.Strategy, "err", err)
	}
	e.recordAnswer(ctx, ev, sig.AI)
	e.recordShadows(ctx, ev, sig, last.Close)
	if e.d.Bus != nil {
		e.d.Bus.Publish(events.TopicSignal, ev, time.Now())
	}
	return ev
}

func (e *Engine) signal(ctx context.Context, j job, in Input) (Signal, error) {
	if j.buildErr != nil {
		return Signal{}, j.buildErr
	}
	return j.strat.Evaluate(ctx, in)
}

// failed counts a failed evaluation; after maxFailures in a row the
// instance pauses itself and raises a high alert.
func (e *Engine) failed(ctx context.Context, j job) {
	e.mu.Lock()
	j.in.failures++
	pause := j.in.failures >= maxFailures && j.in.cfg.Enabled
	e.mu.Unlock()
	if !pause {
		return
	}
	if _, err := e.SetEnabled(ctx, j.cfg.Name, false); err != nil {
		slog.Error("pause failing strategy", "strategy", j.cfg.Name, "err", err)
	}
	e.d.Alert(ctx, "high", pausedTitle+j.cfg.Name, fmt.Sprintf("%s failed %d evaluations in a row and was disabled; fix the cause, then resolve this alert or enable it again", j.cfg.Name, maxFailures))
}

// pausedTitle begins the title of the alert raised when an instance pauses itself.
const pausedTitle = "Strategy paused: "

// PausedStrategy is the instance a "Strategy paused" alert title names.
func PausedStrategy(alertTitle string) (string, bool) {
	return strings.CutPrefix(alertTitle, pausedTitle)
}

// ResumePaused re-enables the instance a resolved "Strategy paused" alert
// names; other alerts are ignored. It reports whether it resumed one.
func (e *Engine) ResumePaused(ctx context.Context, alertTitle string) bool {
	name, ok := strings.CutPrefix(alertTitle, pausedTitle)
	if !ok {
		return false
	}
	if _, err := e.SetEnabled(ctx, name, true); err != nil {
		slog.Warn("resume paused strategy", "strategy", name, "err", err)
		return false
	}
	return true
}

// execute turns an accepted signal into an order through the gateway, or
// says why not.
func (e *Engine) execute(ctx context.Context, c Config, symbol string, sig Signal, pos domain.PositionBook, candle time.Time) (bool, string, string) {
	switch {
	case sig.Decision == Hold:
		return false, "", "Hold: nothing to trade"
	case sig.Stale != "":
		return false, "", sig.Stale
	case !e.d.AutoTrading():
		return false, "", "Automation is off (Settings > Trading > Auto trading)"
	case e.d.MarketStale != nil && e.d.MarketStale() != "":
		return false, "", e.d.MarketStale()
	case e.d.Gateway.Halt().Active:
		return false, "", "Trading is halted (emergency stop)"
	case sig.Confidence < c.MinConfidence:
		return false, "", fmt.Sprintf("Confidence %.2f is below the minimum %.2f", sig.Confidence, c.MinConfidence)
	}
	qty, why := e.size(ctx, c, symbol, sig.Decision, pos)
	if why != "" {
		return false, "", why
	}
	req := domain.OrderRequest{ClientOrderID: fmt.Sprintf("%.40s:%s:%d", c.Name, symbol, candle.Unix()), Symbol: symbol,
		Side: domain.Side(sig.Decision), Type: domain.Market, Quantity: qty, Strategy: c.Name, StrategyVersion: c.Version, UserID: domain.StrategyUser + c.Name}
	o, _, err := e.d.Gateway.Place(ctx, req)
	if err != nil {
		if domain.ErrorCode(err) == domain.ERejected {
			return false, "", "Refused by risk: " + domain.ErrorMessage(err)
		}
		return false, "", "Order failed: " + domain.ErrorMessage(err)
	}
	return true, o.ID, ""
}

// size is the order quantity for a decision (see the package doc).
func (e *Engine) size(ctx context.Context, c Config, symbol, decision string, pos domain.PositionBook) (decimal.Decimal, string) {
	t, err := e.d.Market.Ticker(symbol)
	if err != nil || !t.Price.IsPositive() {
		return decimal.Zero, "No price for " + symbol
	}
	step := e.sizeStep(ctx, symbol)
	if decision == Sell {
		if !pos.Quantity.IsPositive() {
			return decimal.Zero, "No position to sell (a spot account never goes short)"
		}
		return pos.Quantity.Div(step).Floor().Mul(step), ""
	}
	acct, err := e.d.Account(ctx)
	if err != nil {
		return decimal.Zero, "Account unavailable: " + err.Error()
	}
	value := analytics.Value(acct, e.prices(acct)).Total
	ask := t.Ask
	if !ask.IsPositive() {
		ask = t.Price
	}
	held := pos.Quantity.Mul(t.Price)
	qty, target, atTarget := BuyQuantity(c, e.d.Policy().Limits, value, held, ask, step)
	if atTarget {
		return decimal.Zero, fmt.Sprintf("Position already at its target size ($%s of $%s)", held.StringFixed(2), target.StringFixed(2))
	}
	if !qty.IsPositive() {
		return decimal.Zero, "Order size rounds to zero"
	}
	return qty, ""
}

func (e *Engine) sizeStep(ctx context.Context, symbol string) decimal.Decimal {
	if ps, err := e.d.Exchange.Products(ctx); err == nil {
		for _, p := range ps {
			if p.Symbol == symbol && p.SizeIncrement.IsPositive() {
				return p.SizeIncrement
			}
		}
	}
	return decimal.New(1, -8)
}

func (e *Engine) prices(acct domain.Account) analytics.Prices {
	out := analytics.Prices{}
	for _, b := range acct.Balances {
		if t, err := e.d.Market.Ticker(analytics.Pair(b.Currency)); err == nil {
			out[analytics.Pair(b.Currency)] = t.Price
		}
	}
	return out
}

// Analyze evaluates an instance on symbol's latest closed candle now and
// records it without trading (the Test AI action).
func (e *Engine) Analyze(ctx context.Context, name, symbol string) (domain.Evaluation, error) {
	e.mu.Lock()
	in, ok := e.inst[name]
	var j job
	if ok {
		j = job{in: in, cfg: in.cfg, strat: in.strat, buildErr: in.buildErr}
	}
	e.mu.Unlock()
	if !ok {
		return domain.Evaluation{}, domain.Errorf(domain.ENotFound, "Strategy not found: %s", name)
	}
	candles, err := e.closedCandles(ctx, j.cfg, symbol)
	if err != nil {
		return domain.Evaluation{}, err
	}
	ev := e.evaluate(ctx, j, symbol, candles, false)
	if strings.HasPrefix(ev.Error, "paused: budget") {
		return ev, domain.Errorf(domain.EConflict, "%s", ev.Error)
	}
	if ev.Error != "" {
		return ev, domain.Errorf(domain.EUnavailable, "%s", ev.Error)
	}
	return ev, nil
}

// Prompt renders the messages an AI-driven or hybrid instance would send
// for symbol now, without asking the model: with its own template, or
// with draft when given (an unsaved edit; its errors are *ai.TemplateError).
func (e *Engine) Prompt(ctx context.Context, name, symbol string, draft *string) (ai.Rendered, error) {
	e.mu.Lock()
	in, ok := e.inst[name]
	var j job
	if ok {
		j = job{in: in, cfg: in.cfg, strat: in.strat, buildErr: in.buildErr}
	}
	e.mu.Unlock()
	if !ok {
		return ai.Rendered{}, domain.Errorf(domain.ENotFound, "Strategy not found: %s", name)
	}
	if j.cfg.AIParams == nil {
		return ai.Rendered{}, domain.Errorf(domain.EConflict, "%s does not ask a model", name)
	}
	strat := j.strat
	if draft != nil {
		c := j.cfg.Clone()
		c.PromptTemplate, c.PromptVersion = *draft, ""
		c.Normalize()
		if c.PromptTemplate != "" {
			if err := ai.CheckTemplate(c.PromptTemplate); err != nil {
				return ai.Rendered{}, err
			}
		}
		var err error
		if strat, err = e.d.Build(c); err != nil {
			return ai.Rendered{}, err
		}
	}
	p, isAI := strat.(Prompter)
	if !isAI {
		return ai.Rendered{}, domain.Errorf(domain.EConflict, "%s does not ask a model", name)
	}
	candles, err := e.closedCandles(ctx, j.cfg, symbol)
	if err != nil {
		return ai.Rendered{}, err
	}
	pos, mem, err := e.ownState(ctx, j.cfg, symbol)
	if err != nil {
		return ai.Rendered{}, fmt.Errorf("trade memory: %w", err)
	}
	return p.Prompt(Input{Symbol: symbol, Candles: candles, Position: pos, Now: e.d.Clock.Now(), Memory: mem})
}

// closedCandles is the window of closed candles an instance sees for symbol now.
func (e *Engine) closedCandles(ctx context.Context, c Config, symbol string) ([]domain.Candle, error) {
	g := domain.Granularity(c.Timeframe)
	width := g.Duration()
	t, err := e.d.Market.Ticker(symbol)
	if err != nil {
		return nil, err
	}
	closed := t.Time.Truncate(width).Add(-width)
	n := e.window(c)
	candles, err := e.d.Market.Candles(ctx, symbol, g, closed.Add(-time.Duration(n-1)*width), closed.Add(width), n)
	if err != nil {
		return nil, err
	}
	if len(candles) == 0 {
		return nil, domain.Errorf(domain.EUnavailable, "No closed candles for %s yet", symbol)
	}
	return candles, nil
}
