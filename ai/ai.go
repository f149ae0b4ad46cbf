package ai

import (
	"context"
	"net/http"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// Decisions a provider may answer.
const (
	Buy  = "BUY"
	Sell = "SELL"
	Hold = "HOLD"
)

// Provider names, as api.ai.provider spells them.
const (
	ProviderBuiltin   = "builtin"
	ProviderReplicate = "replicate"
	ProviderOpenAI    = "openai"
)

// Request is what the analyst is asked about one symbol.
type Request struct {
	Symbol      string
	Candles     []domain.Candle    // closed candles, oldest first (the last context_length)
	Indicators  map[string]float64 // e.g. rsi, sma_short, sma_long, macd, macd_signal, macd_hist, bb_upper, bb_middle, bb_lower
	Position    decimal.Decimal    // base quantity held
	AvgPrice    decimal.Decimal
	Price       decimal.Decimal // last price when the prompt was built
	Limits      string          // a one-line summary of the risk limits, for the prompt
	Model       string          // the configured model option (e.g. gpt-4.1-nano)
	Temperature float64
	MaxTokens   int
	// Timeframe is the candles' width (e.g. ONE_HOUR); prompts from v2 on state it.
	Timeframe string
	// PromptVersion picks the template (v1, v2, v3; empty: TemplateVersion,
	// or MemoryVersion for a request with memory), so
	// a strategy pinned to v1 keeps asking, and replaying, v1's prompts.
	PromptVersion string
	// PromptTemplate is the strategy's own template text (see
	// CheckTemplate); when set it replaces PromptVersion's, and decisions
	// name it custom:<hash of the text>.
	PromptTemplate string
	// Memory is the strategy's own recent closed trades (nil: trade memory
	// is off and the prompt has no memory section, exactly as before it
	// existed). With no template named, it renders with MemoryVersion.
	Memory *Memory
}

// Decision is the analyst's answer with its provenance.
type Decision struct {
	Decision   string  // BUY, SELL or HOLD
	Confidence float64 // 0-1
	Reasoning  string
	Provider   string
	// Model is the real model used (e.g. openai/gpt-4.1-nano), or
	// BuiltinLabel for the built-in analyst.
	Model                          string
	Latency                        time.Duration
	Calls                          int // model calls made (2 with the repair retry)
	PromptTokens, CompletionTokens int
	Cost                           *float64 // only when the provider reports it
	Prompt, Raw                    string
	// PromptHash identifies the messages sent (Rendered.Hash: Prompt's
	// SHA-256 while the system message is the shipped one); backtests
	// replay recorded decisions by it.
	PromptHash string
	// TemplateVersion is the template that rendered Prompt: v1, v2 or
	// custom:<the first 12 hex digits of the template text's SHA-256>.
	TemplateVersion string
}

// Provider asks one model host for decisions.
type Provider interface {
	// Name is builtin, replicate or openai.
	Name() string
	// ModelLabel is what the UI shows for a configured model option: the real
	// model that answers.
	ModelLabel(model string) string
	// Decide asks about one symbol. The error is a provider failure (network,
	// timeout, 401, 429, 5xx, failed prediction) or an *AnswerError when the
	// answer still failed to parse after one repair retry. The Decision
	// returned alongside an error still carries Prompt, Raw and Latency so the
	// failure can be recorded.
	Decide(ctx context.Context, r Request) (Decision, error)
}

// Config selects and configures a provider (the api.ai settings).
type Config struct {
	Provider string // builtin (or empty) | replicate | openai
	APIToken string
	BaseURL  string // openai: the endpoint, e.g. http://localhost:11434/v1
	// Model: for openai the model name sent as is (free text); for replicate
	// the default model option when a Request names none.
	Model string
	// Timeout bounds each model call, polling included (default 60 s).
	Timeout    time.Duration
	HTTPClient *http.Client // default: a plain client; deadlines come from the context
	// ReplicateBaseURL defaults to https://api.replicate.com (tests point it at a fake).
	ReplicateBaseURL string
}

// DefaultTimeout applies when Config.Timeout is zero.
const DefaultTimeout = 60 * time.Second

func (c Config) timeout() time.Duration {
	if c.Timeout <= 0 {
		return DefaultTimeout
	}
	return c.Timeout
}

func (c Config) client() *http.Client {
	if c.HTTPClient != nil {
		return c.HTTPClient
	}
	return http.DefaultClient
}
