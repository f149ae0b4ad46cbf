package backtest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/ai"
	"kestrel/domain"
	"kestrel/marketdata"
	"kestrel/strategy"
	"kestrel/trading"
)

// fineCounting is a candle history of stored 15-minute candles that counts
// the reads of ONE_MINUTE and FIVE_MINUTE candles (the ones cut from
// generated intra-candle paths, seconds of work for a year of them).
type fineCounting struct {
	from, to time.Time
	fine     int
}

func (h *fineCounting) Span(context.Context, string) (marketdata.Span, error) {
	return marketdata.Span{Symbol: "BTC-USD", From: h.from, To: h.to}, nil
}

func (h *fineCounting) Candles(_ context.Context, _ string, g domain.Granularity, from, to time.Time) (marketdata.Window, error) {
	w := g.Duration()
	if w < marketdata.Stored.Duration() {
		h.fine++
	}
	var out []domain.Candle
	px := decimal.NewFromInt(100)
	t := from.Truncate(w)
	if t.Before(h.from) {
		t = h.from
	}
	for ; t.Before(to) && t.Before(h.to); t = t.Add(w) {
		out = append(out, domain.Candle{Time: t, Open: px, High: px, Low: px, Close: px, Volume: decimal.NewFromInt(1)})
	}
	return marketdata.Window{Candles: out, Source: "test", Synthetic: w < marketdata.Stored.Duration()}, nil
}

type symbolsOnly struct{ domain.MarketData }

func (symbolsOnly) Symbols() []string { return []string{"BTC-USD"} }

type productsOnly struct{ domain.Exchange }

func (productsOnly) Products(context.Context) ([]domain.Product, error) {
	return []domain.Product{{Symbol: "BTC-USD", BaseCurrency: "BTC", QuoteCurrency: "USD", PriceIncrement: decimal.RequireFromString("0.01"),
		SizeIncrement: decimal.RequireFromString("0.00000001"), MinSize: decimal.RequireFromString("0.00000001")}}, nil
}

type strategiesOf map[string]strategy.Config

func (s strategiesOf) Get(name string) (strategy.Config, error) {
	c, ok := s[name]
	if !ok {
		return c, errors.New("unknown")
	}
	return c.Clone(), nil
}

type fixedClock time.Time

func (c fixedClock) Now() time.Time { return time.Time(c) }

// A live-model run's check and estimate on a ONE_MINUTE strategy count its
// evaluations without building the generated candles: that is the job's
// work, never the request's (POST /api/backtests checks in the request; the
// GET form answers the estimate in it).
func TestLiveEstimateDoesNotGenerateFineCandles(t *testing.T) {
	from := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	h := &fineCounting{from: from, to: from.AddDate(1, 0, 0)}
	aiCfg := strategy.Default(domain.StrategyAI, "ai_one")
	aiCfg.Timeframe, aiCfg.Symbols = string(domain.OneMinute), []string{"BTC-USD"}
	tech := strategy.Default(domain.StrategyTechnical, "tech_one")
	tech.Timeframe, tech.Symbols = string(domain.OneMinute), []string{"BTC-USD"}
	s := NewService(Deps{Strategies: strategiesOf{"ai_one": aiCfg, "tech_one": tech}, Market: symbolsOnly{}, History: h, Exchange: productsOnly{},
		Policy: func() trading.Policy { return trading.Policy{} }, Clock: fixedClock(h.to.Add(time.Hour)),
		AIProvider:    func() (ai.Provider, error) { return answering{}, nil },
		MaxModelCalls: func() int { return 1_000_000 }})
	ask := Ask{StrategyName: "ai_one", Symbol: "BTC-USD", StartDate: "2024-03-01", EndDate: "2024-12-31", InitialCapital: decimal.NewFromInt(10000), AIMode: AILive}
	confirmed := ask
	confirmed.ConfirmLive = true
	if _, err := s.Start(context.Background(), confirmed, RunOptions{Check: true}); err != nil {
		t.Fatal(err)
	}
	_, err := s.Start(context.Background(), ask, RunOptions{})
	var c *ConfirmLive
	if !errors.As(err, &c) {
		t.Fatalf("unconfirmed live run: %v", err)
	}
	days := int(time.Date(2024, 12, 31, 0, 0, 0, 0, time.UTC).Sub(time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)).Hours() / 24)
	if want := days*24*60 - 1; c.Estimate.ModelCalls != want { // one evaluation per candle but the last
		t.Fatalf("estimate %d model calls, want %d", c.Estimate.ModelCalls, want)
	}
	if h.fine != 0 {
		t.Fatalf("the check and the estimate built generated candles %d times", h.fine)
	}
	// Over the cap: refused, still without building them.
	s.d.MaxModelCalls = func() int { return 10 }
	if _, err := s.Start(context.Background(), confirmed, RunOptions{Check: true}); domain.ErrorCode(err) != domain.EInvalid || h.fine != 0 {
		t.Fatalf("over the cap: %v, %d builds", err, h.fine)
	}
	// Checking a technical run of a year of one-minute candles (what POST
	// /api/backtests does before it answers 202) builds none either.
	tenMonths := Ask{StrategyName: "tech_one", Symbol: "BTC-USD", StartDate: "2024-03-01", EndDate: "2024-12-31", InitialCapital: decimal.NewFromInt(10000)}
	if _, err := s.Start(context.Background(), tenMonths, RunOptions{Check: true}); err != nil || h.fine != 0 {
		t.Fatalf("technical check: %v, %d builds", err, h.fine)
	}
	// The run itself reads them (the counter sees it).
	run := Ask{StrategyName: "tech_one", Symbol: "BTC-USD", StartDate: "2024-03-01", EndDate: "2024-03-08", InitialCapital: decimal.NewFromInt(10000)}
	rep, err := s.Start(context.Background(), run, RunOptions{Discard: true})
	if err != nil || h.fine != 1 || !rep.Assumptions.Data.Synthetic {
		t.Fatalf("run: %v, %d builds, data %+v", err, h.fine, rep.Assumptions.Data)
	}
}
