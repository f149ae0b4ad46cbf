package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/shopspring/decimal"

	"kestrel/ai"
	"kestrel/backtest"
	"kestrel/candles"
	"kestrel/domain"
	"kestrel/replay"
	"kestrel/strategy"
	"kestrel/trading"
)

// strategyKinds are the product's strategies the CLI runs with their
// default settings (the spec's defaults), through the server's backtest
// engine: the same fills, fees, sizing, protective orders and risk check.
var strategyKinds = map[string]string{
	"technical": domain.StrategyTechnical,
	"ai":        domain.StrategyAI,
	"hybrid":    domain.StrategyHybrid,
}

// runStrategyBacktest runs technical, ai or hybrid over bars. AI decisions
// come from the built-in analyst (offline, deterministic).
func runStrategyBacktest(o *backtestOptions, bars []candles.Bar, name string, stdout io.Writer) error {
	// The engine is given the bars as they are: the fast path makes
	// decimals of the few candles it shows the engine, not of all of them.
	res, warm, err := strategyRun(context.Background(), o, defaultConfig(o), nil, bars)
	if err != nil {
		return err
	}
	fee := decimal.New(o.params.FeeRate, -8)
	w := bufio.NewWriter(stdout)
	if o.json {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		err = enc.Encode(res)
	} else {
		_, err = fmt.Fprintf(w, `%s (default settings) on %s, %s candles from %s to %s (%d candles after %d to warm up)
capital %s, fee %s per fill, slippage %d bps; protective stop-loss %s

trades         %d (%d winning, %d losing)
final equity   %s
total return   %.2f%%
buy and hold   %.2f%% (first open to last close, paying the spread, slippage and fees as a trade does)
max drawdown   %.2f%%
sharpe         %.2f
fees paid      %s
`, o.strategy, name, o.width(), res.StartDate.Format("2006-01-02 15:04"), res.EndDate.Format("2006-01-02 15:04"), res.Candles, warm,
			res.InitialEquity, fee, o.params.SlippageBps, trading.DefaultPolicy().StopLossPercent.Mul(decimal.NewFromInt(100)).String()+"%",
			res.TotalTrades, res.WinningTrades, res.LosingTrades, res.FinalEquity.StringFixed(2), res.TotalReturn*100, res.BuyAndHold*100,
			res.MaxDrawdown*100, res.SharpeRatio, res.FeesPaid.StringFixed(2))
	}
	if err != nil {
		return err
	}
	return w.Flush()
}

// defaultConfig is the strategy's default settings on the flags' timeframe.
func defaultConfig(o *backtestOptions) strategy.Config {
	cfg := strategy.Default(strategyKinds[o.strategy], o.strategy)
	cfg.Timeframe = string(o.granularity)
	return cfg
}

// strategyRun backtests cfg over cs (or, when cs is nil, bars) as kestrel
// backtest --strategy does, returning the result and the candles used to
// warm up.
func strategyRun(ctx context.Context, o *backtestOptions, cfg strategy.Config, cs []domain.Candle, bars []candles.Bar) (backtest.Result, int, error) {
	build := strategy.Builder(strategy.AIDeps{Provider: func() (ai.Provider, error) { return ai.Builtin{}, nil }})
	strat, err := build(cfg)
	if err != nil {
		return backtest.Result{}, 0, badInput(err)
	}
	warm := cfg.Window() // the live engine's warm-up
	n := len(cs)
	if cs == nil {
		n = len(bars)
	}
	if warm >= n-1 {
		return backtest.Result{}, 0, badInput(fmt.Errorf("%d candles are not enough: %s needs %d to warm up", n, o.strategy, warm))
	}
	symbol := o.symbol
	if o.csv != "" {
		symbol = "BTC-USD" // a file has no symbol: it trades on BTC-USD's increments
	}
	product := candles.Products()[0]
	for _, p := range candles.Products() {
		if p.Symbol == symbol {
			product = p
		}
	}
	fee := decimal.New(o.params.FeeRate, -8)
	res, err := backtest.Run(ctx, backtest.Request{Strategy: strat, Config: cfg, Symbol: symbol, Product: product,
		Candles: cs, Bars: bars, Warmup: warm, Capital: decimal.New(o.params.Capital, -8), TakerFee: fee, MakerFee: fee,
		SlippageBps: decimal.NewFromInt(o.params.SlippageBps), Policy: trading.DefaultPolicy(), HalfSpread: replay.LiveHalfSpread})
	if err != nil {
		return backtest.Result{}, 0, badInput(err)
	}
	return res, warm, nil
}
