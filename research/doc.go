// Package research runs parameter sweeps: many backtests of one strategy
// over one period, each with other parameters, ranked by an objective.
//
// A sweep is a backtest ask (backtest.Ask: strategy, symbol, dates, capital,
// costs; its params are the base overrides every trial starts from) plus a
// search space:
//   - a grid, {"indicators.rsi_period": [7, 14, 21], "min_confidence": [0.5, 0.7]}:
//     every combination, the last name (sorted) varying fastest;
//   - or a random search, {"indicators.rsi_period": {"min": 5, "max": 30,
//     "step": 1}} with trials and seed: trials distinct points min+k*step
//     drawn with the seed's generator (PCG), so the same seed gives the same
//     trials (fewer when the space holds fewer).
//
// A parameter is a dotted path into the strategy configuration's own JSON
// shape: indicators.rsi_period=7 becomes the override
// {"indicators":{"rsi_period":7}}, merged into the base params; a top-level
// key is its own name. name and type cannot vary (a run of an instance stays
// one), nor timeframe and symbols (a sweep reads one series of candles).
// Every trial's overrides are checked at submission as its single backtest
// would check them (unknown keys, bounds), with field errors; a sweep has at
// most MaxTrials trials and never asks a live model (ai_mode live is refused).
//
// Run runs the trials on GOMAXPROCS workers. The candles are read once
// (backtest.Shared) and shared read-only; each trial is
// backtest.Service.Start with its overrides, so it is exactly the backtest
// POST /api/backtests gives for those params (the app tests compare), only
// not stored as a backtest: a trial keeps its metrics (the report less the
// equity curve, trades and fills), so memory holds one full result per
// worker, not per trial. The risk policy and the instance's configuration
// are read once per run too, so settings changed while a sweep runs do not
// split its trials; the configuration at submission is kept in the ask
// (strategy_config, set by the server), and a sweep resumed after it
// changed fails with that reason rather than mix two configurations.
//
// Trials are stored as they finish (domain.SweepStore); the sweep is a
// resumable job (jobs.HandleResumable), so a restart runs it again and
// skips the stored trials. The objective (total_return, sharpe, sortino,
// calmar, profit_factor; the report's definitions, docs/ANALYTICS.md) ranks
// the eligible trials: those whose objective is defined (calmar is N/A under
// 30 days, profit_factor without a losing trade) and with at least min_trades
// closed trades. The best is the highest, the earliest trial on a tie,
// among the trials that traded to the end: a trial a risk limit halted for
// good (its report's halted, which the trial carries) is flagged and is the
// best only when every eligible trial halted. Each trial and each fold's
// window is its own backtest, so its risk limits start afresh: the stitched
// out-of-sample curve's drawdown limit is reset at every fold's start.
//
// Walk-forward (walkforward.go). With walk_forward {mode, folds,
// in_sample_fraction} the period is cut into folds in whole days (Spans:
// consecutive out-of-sample windows of one length ending the period, each
// after an in-sample window that rolls or stays anchored at the start).
// RunWalkForward runs the trials over the whole period and over every
// fold's in-sample window, then each fold's chosen trial (Rank over its
// in-sample runs) out of sample and the best whole-period trial once more
// for its returns. Every run is Service.Start over its window, so its
// indicators warm up on the real candles before the window, exactly as a
// backtest of that window alone; windows with another end read their
// candles through a sibling of the sweep's shared source (same policy and
// pinned configuration). All runs are stored as the sweep's trials at the
// indices Layout gives, so a restart resumes any of them; only the first
// N are the sweep's trials. Report assembles the folds, the stitched
// out-of-sample curve, the efficiency, the parameters' stability and the
// deflated Sharpe ratio (docs/ANALYTICS.md) from the stored runs.
package research
