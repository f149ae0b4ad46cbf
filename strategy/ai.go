package strategy

import (
	"context"
	"errors"
	"fmt"

	"github.com/shopspring/decimal"

	"kestrel/ai"
	"kestrel/ai/spend"
	"kestrel/domain"
)

// StaleMove is how far the price may move (a fraction) between building a
// prompt and the model's answer; beyond it the answer is recorded as stale
// and not executed: it judged a market that is gone.
var StaleMove = decimal.RequireFromString("0.01")

// AIDeps is what AI-driven and hybrid strategies need besides their config.
type AIDeps struct {
	// Provider returns the configured provider (api.ai.*), read on every
	// decision so a settings change applies at once.
	Provider func() (ai.Provider, error)
	// Price is the symbol's last price now.
	Price func(symbol string) (decimal.Decimal, error)
	// Limits summarises the risk limits in one line for the prompt.
	Limits func() string
	// Spend prices each call and pauses a provider whose monthly budget
	// is spent; nil: no prices, no budget.
	Spend *spend.Book
	// Shadow makes a shadow model's provider (api.ai's credentials only for
	// the same host); nil: shadow models are not asked.
	Shadow func(ShadowModel) (ai.Provider, error)
}

// BudgetPaused is the error of a decision not asked because its provider's
// monthly budget is spent: recorded as "paused: budget", not a failure.
type BudgetPaused struct {
	Provider, Why string
}

func (e *BudgetPaused) Error() string { return "paused: budget: " + e.Why }

// Builder makes the strategy of any kind.
func Builder(d AIDeps) func(Config) (Strategy, error) {
	return func(c Config) (Strategy, error) {
		switch c.Type {
		case domain.StrategyTechnical:
			return BuildTechnical(c)
		case domain.StrategyAI:
			if c.AIParams == nil {
				return nil, fmt.Errorf("%s has no model settings", c.Name)
			}
			return &aiStrategy{d: d, params: *c.AIParams, timeframe: c.Timeframe, ind: NewTechnical(indicatorsOr(c)).(*technical)}, nil
		case domain.StrategyHybrid:
			if c.AIParams == nil || c.Indicators == nil {
				return nil, fmt.Errorf("%s needs both indicators and model settings", c.Name)
			}
			return &hybrid{tech: NewTechnical(*c.Indicators),
				ai: &aiStrategy{d: d, params: *c.AIParams, timeframe: c.Timeframe, ind: NewTechnical(*c.Indicators).(*technical)}}, nil
		}
		return nil, fmt.Errorf("unknown strategy type %q", c.Type)
	}
}

func indicatorsOr(c Config) Indicators {
	if c.Indicators != nil {
		return *c.Indicators
	}
	return *DefaultIndicators()
}

// aiStrategy asks a model. The indicators it shows the model are the
// technical strategy's, computed the same streaming way.
type aiStrategy struct {
	d         AIDeps
	params    AIParams
	timeframe string // the candles' width, stated by prompts from v2 on
	ind       *technical
}

// Evaluate implements Strategy. A provider failure or an answer that does
// not parse is an error (recorded as a failed decision); the provenance is
// kept either way.
func (s *aiStrategy) Evaluate(ctx context.Context, in Input) (Signal, error) {
	if len(in.Candles) == 0 {
		return Signal{}, fmt.Errorf("no closed candles for %s", in.Symbol)
	}
	req := s.request(in)
	vals, price := req.Indicators, req.Price
	p, err := s.d.Provider()
	if err != nil {
		return Signal{Indicators: vals}, fmt.Errorf("AI provider: %w", err)
	}
	if s.d.Spend != nil {
		why, err := s.d.Spend.Paused(ctx, p.Name())
		if err != nil {
			return Signal{Indicators: vals}, fmt.Errorf("AI budget: %w", err)
		}
		if why != "" {
			zero := decimal.Zero // no call, no cost
			return Signal{Indicators: vals, AI: &AIProvenance{Provider: p.Name(), Model: p.ModelLabel(s.params.Model), Cost: &zero}},
				&BudgetPaused{Provider: p.Name(), Why: why}
		}
	}
	shadows := s.startShadows(ctx, req) // the same prompt, at the same time
	d, err := p.Decide(ctx, req)
	prov := &AIProvenance{Provider: d.Provider, Model: d.Model, PromptHash: d.PromptHash, Prompt: d.Prompt, Raw: d.Raw, Latency: d.Latency,
		InputTokens: d.PromptTokens, OutputTokens: d.CompletionTokens, TemplateVersion: d.TemplateVersion}
	if prov.Provider == "" {
		prov.Provider = p.Name()
	}
	if s.d.Spend != nil {
		prov.Cost = s.d.Spend.Cost(prov.Provider, []string{d.Model, s.params.Model}, d.PromptTokens, d.CompletionTokens)
	}
	if err != nil {
		var ae *ai.AnswerError
		if errors.As(err, &ae) {
			return Signal{Indicators: vals, AI: prov, Shadows: shadows}, fmt.Errorf("malformed answer: %w", err)
		}
		return Signal{Indicators: vals, AI: prov, Shadows: shadows}, err
	}
	prov.Answer = &AIAnswer{Decision: d.Decision, Confidence: d.Confidence, Reasoning: d.Reasoning}
	sig := Signal{Decision: d.Decision, Confidence: d.Confidence, Reasoning: d.Reasoning, Indicators: vals, AI: prov, Shadows: shadows}
	if s.d.Price != nil && price.IsPositive() {
		if now, err := s.d.Price(in.Symbol); err == nil {
			if move := now.Sub(price).Abs().Div(price); move.GreaterThan(StaleMove) {
				sig.Stale = fmt.Sprintf("Stale answer: the price moved %s%% while the model answered (limit %s%%)",
					move.Mul(decimal.NewFromInt(100)).StringFixed(2), StaleMove.Mul(decimal.NewFromInt(100)).String())
			}
		}
	}
	return sig, nil
}

// request is what the model is asked: the last context_length candles, the
// indicators, the position, the price now and the risk limits.
func (s *aiStrategy) request(in Input) ai.Request {
	vals := s.ind.signal(in.Symbol, in.Candles).Indicators
	price := in.Candles[len(in.Candles)-1].Close
	if s.d.Price != nil {
		if px, err := s.d.Price(in.Symbol); err == nil {
			price = px
		}
	}
	cs := in.Candles
	if n := s.params.ContextLength; n > 0 && len(cs) > n {
		cs = cs[len(cs)-n:]
	}
	limits := ""
	if s.d.Limits != nil {
		limits = s.d.Limits()
	}
	r := ai.Request{Symbol: in.Symbol, Candles: cs, Indicators: vals, Position: in.Position.Quantity, AvgPrice: in.Position.AvgPrice(),
		Price: price, Limits: limits, Model: s.params.Model, Temperature: s.params.Temperature, MaxTokens: s.params.MaxTokens,
		Timeframe: s.timeframe, PromptVersion: s.params.PromptVersion, PromptTemplate: s.params.PromptTemplate}
	if m := s.params.Memory; m != nil && m.Trades > 0 {
		trades := in.Memory[max(0, len(in.Memory)-m.Trades):]
		r.Memory = &ai.Memory{Trades: trades, MaxTokens: m.MaxTokens}
	}
	return r
}

// Prompt renders the messages the model would be sent now (the AI screen's preview).
func (s *aiStrategy) Prompt(in Input) (ai.Rendered, error) { return ai.Render(s.request(in)) }

// Prompt implements Prompter for the hybrid's AI half.
func (h *hybrid) Prompt(in Input) (ai.Rendered, error) { return h.ai.Prompt(in) }

// Prompter is a strategy that asks a model and can show its prompt.
type Prompter interface {
	Prompt(in Input) (ai.Rendered, error)
}

// MsgRulesHold begins a hybrid's evaluation when the rules say HOLD.
const MsgRulesHold = "Rules HOLD, model not asked"

// hybrid acts only when the technical rules and the AI agree; its
// confidence is the lower of the two. The model is asked only when the
// rules say BUY or SELL.
type hybrid struct {
	tech Strategy
	ai   *aiStrategy
}

// Evaluate implements Strategy.
func (h *hybrid) Evaluate(ctx context.Context, in Input) (Signal, error) {
	t, err := h.tech.Evaluate(ctx, in)
	if err != nil {
		return Signal{}, err
	}
	if t.Decision == Hold {
		// The hybrid trades only when both agree on BUY or SELL: with the
		// rules at HOLD no answer could change that, so nothing is paid for.
		return Signal{Decision: Hold, Confidence: t.Confidence, Indicators: t.Indicators,
			Reasoning: MsgRulesHold + ". Technical: " + t.Reasoning}, nil
	}
	a, err := h.ai.Evaluate(ctx, in)
	if err != nil {
		a.Indicators = t.Indicators
		return a, err
	}
	out := Signal{Indicators: t.Indicators, AI: a.AI, Stale: a.Stale, Shadows: a.Shadows}
	if t.Decision == a.Decision && t.Decision != Hold {
		out.Decision, out.Confidence = t.Decision, min(t.Confidence, a.Confidence)
		out.Reasoning = fmt.Sprintf("Technical and AI agree on %s. Technical: %s. AI: %s", t.Decision, t.Reasoning, a.Reasoning)
		return out, nil
	}
	out.Decision, out.Confidence = Hold, 0.5
	out.Reasoning = fmt.Sprintf("No agreement (technical %s, AI %s). Technical: %s. AI: %s", t.Decision, a.Decision, t.Reasoning, a.Reasoning)
	return out, nil
}
