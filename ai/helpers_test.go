package ai

import (
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

var t0 = time.Date(2025, 1, 2, 0, 0, 0, 0, time.UTC)

// candles makes hourly candles closing at the given prices, with highs and
// lows 1 either side.
func candles(closes ...float64) []domain.Candle {
	out := make([]domain.Candle, len(closes))
	for i, c := range closes {
		p := decimal.NewFromFloat(c)
		out[i] = domain.Candle{Time: t0.Add(time.Duration(i) * time.Hour), Open: p, Close: p,
			High: p.Add(decimal.NewFromInt(1)), Low: p.Sub(decimal.NewFromInt(1)), Volume: decimal.NewFromInt(10)}
	}
	return out
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// sampleRequest is a bullish BTC-USD request with nothing held.
func sampleRequest() Request {
	return Request{Symbol: "BTC-USD", Candles: candles(100, 101, 102, 103),
		Indicators: map[string]float64{"rsi": 55, "sma_short": 102, "sma_long": 100, "macd_hist": 0.4,
			"bb_upper": 110, "bb_middle": 100, "bb_lower": 90},
		Price: dec("103"), Limits: "max position 10% of the portfolio, stop loss 2%",
		Model: "gpt-4.1-nano", Temperature: 0.3, MaxTokens: 500}
}
