package strategy

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"kestrel/ai"
	"kestrel/domain"
)

// Indicators are the technical strategy's indicator periods and thresholds.
type Indicators struct {
	RSIPeriod       int     `json:"rsi_period"`
	RSIOversold     float64 `json:"rsi_oversold"`
	RSIOverbought   float64 `json:"rsi_overbought"`
	SMAShort        int     `json:"sma_short"`
	SMALong         int     `json:"sma_long"`
	MACDFast        int     `json:"macd_fast"`
	MACDSlow        int     `json:"macd_slow"`
	MACDSignal      int     `json:"macd_signal"`
	BollingerPeriod int     `json:"bollinger_period"`
	BollingerStd    float64 `json:"bollinger_std"`
}

// AIParams are the AI strategy's model settings.
type AIParams struct {
	Model         string         `json:"model"`
	MaxTokens     int            `json:"max_tokens"`
	Temperature   float64        `json:"temperature"`
	ContextLength int            `json:"context_length"`
	Parameters    map[string]any `json:"parameters"`
	// PromptVersion pins the prompt template (v1, v2, v3; empty: the
	// current, ai.TemplateVersion, or ai.MemoryVersion with memory on). v1 does not state the candle width; an instance
	// pinned to it asks, and replays, the prompts its v1 recordings hold.
	PromptVersion string `json:"prompt_version,omitempty"`
	// PromptTemplate is the instance's own prompt template (empty: the
	// shipped one PromptVersion names). It is saved, like every setting,
	// as a new version, so prompt edits are versioned, diffed and rolled
	// back with the rest of the configuration.
	PromptTemplate string `json:"prompt_template,omitempty"`
	// Memory shows the model the instance's own recent closed trades in
	// the symbol (nil or trades 0: off, the default, so the prompts of an
	// instance that never turns it on stay as they were).
	Memory *MemoryParams `json:"memory,omitempty"`
	// ShadowModels are asked the same prompt at each decision; their
	// answers are recorded beside the live model's and never traded.
	ShadowModels []ShadowModel `json:"shadow_models,omitempty"`
}

// MemoryParams size the prompt's trade memory.
type MemoryParams struct {
	// Trades is how many of the last closed trades to show (0: off).
	Trades int `json:"trades"`
	// MaxTokens is the section's budget, estimated at 4 characters a
	// token (ai.EstimateTokens): the oldest trades go first to fit it.
	MaxTokens int `json:"max_tokens"`
}

// Trade memory bounds and default (docs: AI Configuration, docs/FEATURES.md).
const (
	MaxMemoryTrades     = 50
	MinMemoryTokens     = 100
	MaxMemoryTokens     = 4000
	DefaultMemoryTokens = 600
)

// MemoryTrades is how many closed trades the instance's prompt remembers
// (0: memory off, or an instance that asks no model).
func (c Config) MemoryTrades() int {
	if c.AIParams == nil || c.Memory == nil {
		return 0
	}
	return c.Memory.Trades
}

// PromptIdentity is the template an AI configuration renders with, as
// decisions record it: v1, v2 or custom:<hash>; "" for a technical one.
func (c Config) PromptIdentity() string {
	if c.AIParams == nil {
		return ""
	}
	r := ai.Request{PromptVersion: c.PromptVersion, PromptTemplate: c.PromptTemplate}
	if c.MemoryTrades() > 0 {
		r.Memory = &ai.Memory{}
	}
	return ai.PromptVersion(r)
}

// Config is one strategy instance's configuration, in the spec's shape:
// technical strategies carry indicators, AI strategies the model fields,
// hybrid strategies both.
type Config struct {
	Name            string      `json:"name"`
	Type            string      `json:"type"`
	Enabled         bool        `json:"enabled"`
	MinConfidence   float64     `json:"min_confidence"`
	MaxPositionSize float64     `json:"max_position_size"`
	RiskMultiplier  float64     `json:"risk_multiplier"`
	Symbols         []string    `json:"symbols"`
	Timeframe       string      `json:"timeframe"` // the candle width evaluated, e.g. ONE_HOUR
	Indicators      *Indicators `json:"indicators,omitempty"`
	*AIParams
	// Version is the number of the saved version this configuration is
	// (see versions.go); set by the engine, never by a client.
	Version int `json:"version,omitempty"`
}

// The built-in instances.
const (
	TechnicalName = "technical_strategy"
	AIName        = "ai_strategy"
	HybridName    = "hybrid_strategy"
)

// DefaultIndicators are the spec's technical defaults (section 9).
func DefaultIndicators() *Indicators {
	return &Indicators{RSIPeriod: 14, RSIOversold: 30, RSIOverbought: 70, SMAShort: 10, SMALong: 20,
		MACDFast: 12, MACDSlow: 26, MACDSignal: 9, BollingerPeriod: 20, BollingerStd: 2}
}

// DefaultAI are the spec's AI defaults (section 9).
func DefaultAI() *AIParams {
	return &AIParams{Model: "gpt-4.1-nano", MaxTokens: 500, Temperature: 0.3, ContextLength: 50, Parameters: map[string]any{}}
}

// Default returns the default configuration of a kind, named name.
func Default(kind, name string) Config {
	c := Config{Name: name, Type: kind, Symbols: []string{"BTC-USD", "ETH-USD"}, Timeframe: string(domain.OneHour)}
	switch kind {
	case domain.StrategyTechnical:
		c.MinConfidence, c.MaxPositionSize, c.RiskMultiplier = 0.6, 0.15, 1.2
		c.Indicators = DefaultIndicators()
	case domain.StrategyAI:
		c.MinConfidence, c.MaxPositionSize, c.RiskMultiplier = 0.7, 0.1, 1
		c.AIParams = DefaultAI()
	case domain.StrategyHybrid:
		c.MinConfidence, c.MaxPositionSize, c.RiskMultiplier = 0.7, 0.1, 1
		c.Indicators, c.AIParams = DefaultIndicators(), DefaultAI()
	}
	return c
}

// Defaults are the instances that exist on a new platform (all disabled).
func Defaults() []Config {
	return []Config{Default(domain.StrategyTechnical, TechnicalName), Default(domain.StrategyAI, AIName), Default(domain.StrategyHybrid, HybridName)}
}

// Kinds lists the strategy types that can be created.
var Kinds = []string{domain.StrategyTechnical, domain.StrategyAI, domain.StrategyHybrid}

// Spec messages (section 5).
const (
	MsgMinConfidence = "Minimum confidence must be between 0 and 1"
	MsgMaxPosition   = "Maximum position size must be between 0 and 1"
	MsgSymbols       = "Please add at least one trading symbol"
	MsgRSIPeriod     = "RSI period must be between 2 and 50"
	MsgSMAOrder      = "Short SMA period must be less than long SMA period"
	MsgMACDOrder     = "MACD fast period must be less than slow period"
)

// Normalize trims and upper-cases symbols and drops blanks and repeats, as
// the screens do with comma-separated entry.
func (c *Config) Normalize() {
	var out []string
	for _, s := range c.Symbols {
		s = strings.ToUpper(strings.TrimSpace(s))
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	c.Symbols = out
	if c.Timeframe == "" {
		c.Timeframe = string(domain.OneHour)
	}
	// A kind keeps only the parameters it uses: AI keys decoded over a
	// technical instance (or indicators over an AI one) would otherwise be
	// stored without ever being validated.
	switch c.Type {
	case domain.StrategyTechnical:
		c.AIParams = nil
	case domain.StrategyAI:
		c.Indicators = nil
	}
	if c.AIParams != nil {
		// A browser's textarea may send CRLF; blank means the default.
		t := strings.ReplaceAll(c.PromptTemplate, "\r\n", "\n")
		if strings.TrimSpace(t) == "" {
			t = ""
		}
		c.PromptTemplate = t
		if m := c.Memory; m != nil && m.Trades > 0 && m.MaxTokens == 0 {
			m.MaxTokens = DefaultMemoryTokens
		}
		c.normalizeShadows()
	}
}

// Validate returns field errors with the spec's messages (nil when valid).
// known lists the tradable symbols.
func (c Config) Validate(known []string) error { return c.ValidateFor(known, "") }

// ValidateFor is Validate knowing the live model's provider (api.ai.provider),
// so a shadow model equal to the live one is refused.
func (c Config) ValidateFor(known []string, liveProvider string) error {
	v := fields{}
	if c.MinConfidence < 0 || c.MinConfidence > 1 {
		v.add("min_confidence", MsgMinConfidence)
	}
	if c.MaxPositionSize <= 0 || c.MaxPositionSize > 1 {
		v.add("max_position_size", MsgMaxPosition)
	}
	v.between("risk_multiplier", c.RiskMultiplier, 0.1, 3, "Risk multiplier")
	if len(c.Symbols) == 0 {
		v.add("symbols", MsgSymbols)
	}
	for _, s := range c.Symbols {
		if !slices.Contains(known, s) {
			v.add("symbols", "Unknown symbol: "+s)
		}
	}
	if domain.Granularity(c.Timeframe).Duration() == 0 {
		v.add("timeframe", "Unsupported timeframe: "+c.Timeframe)
	}
	if c.Type == domain.StrategyTechnical || c.Type == domain.StrategyHybrid {
		c.validateIndicators(&v)
	}
	if c.Type == domain.StrategyAI || c.Type == domain.StrategyHybrid {
		c.validateAI(&v)
		if c.AIParams != nil {
			c.validateShadows(&v, liveProvider)
		}
	}
	return v.err()
}

func (c Config) validateIndicators(v *fields) {
	in := c.Indicators
	if in == nil {
		v.add("indicators", "Indicators are required for a technical strategy")
		return
	}
	if in.RSIPeriod < 2 || in.RSIPeriod > 50 {
		v.add("indicators.rsi_period", MsgRSIPeriod)
	}
	v.between("indicators.rsi_oversold", in.RSIOversold, 10, 40, "RSI oversold")
	v.between("indicators.rsi_overbought", in.RSIOverbought, 60, 90, "RSI overbought")
	v.between("indicators.sma_short", float64(in.SMAShort), 5, 50, "Short SMA period")
	v.between("indicators.sma_long", float64(in.SMALong), 10, 200, "Long SMA period")
	if in.SMAShort >= in.SMALong {
		v.add("indicators.sma_short", MsgSMAOrder)
	}
	v.between("indicators.macd_fast", float64(in.MACDFast), 5, 20, "MACD fast period")
	v.between("indicators.macd_slow", float64(in.MACDSlow), 20, 50, "MACD slow period")
	v.between("indicators.macd_signal", float64(in.MACDSignal), 5, 15, "MACD signal period")
	if in.MACDFast >= in.MACDSlow {
		v.add("indicators.macd_fast", MsgMACDOrder)
	}
	v.between("indicators.bollinger_period", float64(in.BollingerPeriod), 5, 100, "Bollinger period")
	v.between("indicators.bollinger_std", in.BollingerStd, 0.5, 5, "Bollinger width")
}

func (c Config) validateAI(v *fields) {
	a := c.AIParams
	if a == nil {
		v.add("model", "Model settings are required for an AI strategy")
		return
	}
	if strings.TrimSpace(a.Model) == "" {
		v.add("model", "Model is required")
	}
	v.between("max_tokens", float64(a.MaxTokens), 100, 2000, "Max tokens")
	v.between("temperature", a.Temperature, 0, 1, "Temperature")
	v.between("context_length", float64(a.ContextLength), 10, 200, "Context length")
	if a.PromptVersion != "" && !slices.Contains(ai.TemplateVersions, a.PromptVersion) {
		v.add("prompt_version", "Prompt version must be one of "+strings.Join(ai.TemplateVersions, ", "))
	}
	if m := a.Memory; m != nil {
		v.between("memory.trades", float64(m.Trades), 0, MaxMemoryTrades, "Memory trades")
		if m.Trades > 0 || m.MaxTokens != 0 {
			v.between("memory.max_tokens", float64(m.MaxTokens), MinMemoryTokens, MaxMemoryTokens, "Memory token budget")
		}
		if m.Trades > 0 && (a.PromptVersion == "v1" || a.PromptVersion == "v2") {
			v.add("prompt_version", "Prompt "+a.PromptVersion+" has no trade memory section: choose v3 (or no version) to use memory")
		}
	}
	if a.PromptTemplate != "" {
		if a.PromptVersion != "" {
			v.add("prompt_template", "Choose either a prompt version or a custom template, not both")
		} else if err := ai.CheckTemplate(a.PromptTemplate); err != nil {
			v.add("prompt_template", err.Error())
		}
	}
}

// fields gathers field errors in the order they are found.
type fields struct {
	m     map[string]string
	order []string
}

func (f *fields) add(field, msg string) {
	if f.m == nil {
		f.m = map[string]string{}
	}
	if _, dup := f.m[field]; !dup {
		f.m[field] = msg
		f.order = append(f.order, field)
	}
}

func (f *fields) between(field string, x, lo, hi float64, what string) {
	if x < lo || x > hi {
		f.add(field, fmt.Sprintf("%s must be between %s and %s", what, num(lo), num(hi)))
	}
}

func (f *fields) err() error {
	if len(f.m) == 0 {
		return nil
	}
	return domain.FieldErrors(f.m, f.order...)
}

func num(x float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.4f", x), "0"), ".")
}

// Clone is a deep copy: callers may decode into it without touching the
// running configuration.
func (c Config) Clone() Config {
	c.Symbols = slices.Clone(c.Symbols)
	if c.Indicators != nil {
		in := *c.Indicators
		c.Indicators = &in
	}
	if c.AIParams != nil {
		a := *c.AIParams
		a.Parameters = maps.Clone(a.Parameters)
		if a.Memory != nil {
			m := *a.Memory
			a.Memory = &m
		}
		a.ShadowModels = slices.Clone(a.ShadowModels)
		c.AIParams = &a
	}
	return c
}
