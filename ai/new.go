package ai

import (
	"context"
	"errors"
	"fmt"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// New returns the provider cfg selects. It fails for an unknown provider, a
// bad OpenAI-compatible base URL or an unknown Replicate model option; a
// missing Replicate token fails each call instead, with a clear reason.
func New(cfg Config) (Provider, error) {
	switch cfg.Provider {
	case "", ProviderBuiltin:
		return Builtin{}, nil
	case ProviderReplicate:
		return newReplicate(cfg)
	case ProviderOpenAI:
		return newOpenAI(cfg)
	}
	return nil, fmt.Errorf("unknown AI provider %q (want builtin, replicate or openai)", cfg.Provider)
}

// Test asks the provider a tiny real question for the settings connection
// test (the built-in analyst answers a sample request). A nil error means the
// provider answered with a usable decision; otherwise the error is the reason.
func Test(ctx context.Context, cfg Config) error {
	p, err := New(cfg)
	if err != nil {
		return err
	}
	_, err = p.Decide(ctx, testRequest(cfg.Model))
	var bad *AnswerError
	if errors.As(err, &bad) {
		return fmt.Errorf("the model answered, but not with the JSON decision the analyst needs: %w", err)
	}
	return err
}

// testRequest is a small, fixed question: three flat candles, no position.
func testRequest(model string) Request {
	r := Request{Symbol: "BTC-USD", Model: model, Temperature: 0, MaxTokens: 100,
		Price: decimal.NewFromInt(100), Limits: "connection test: no trade will be placed",
		Indicators: map[string]float64{"rsi": 50}}
	for range 3 {
		r.Candles = append(r.Candles, flatCandle(r.Price))
	}
	return r
}

func flatCandle(p decimal.Decimal) domain.Candle {
	return domain.Candle{Open: p, High: p, Low: p, Close: p, Volume: decimal.NewFromInt(1)}
}
