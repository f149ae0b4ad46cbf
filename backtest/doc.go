// Package backtest runs a strategy over history through the same pure
// matching engine (exchange/paper), fees, sizing, protective orders and risk
// check as live trading, on a simulated clock, with no database and no
// goroutines.
//
// Data. The service reads the candles from the candle store by real market
// dates (package marketdata, Deps.History): a run on 2024-06-01 to
// 2024-08-31 is made of the candles that opened in those days (end dates
// are exclusive, at 00:00 UTC), with the indicators' warm-up before them,
// and nothing is looped or shifted, whatever market the app trades on. The
// default period (the spec's last three months) ends at 00:00 UTC of the day
// of the newest stored candle. A period the store does not hold whole is
// refused (400) with the symbol's coverage: "Market data for BTC-USD covers
// 2024-04-18 to 2026-05-07" (the first day with data to the last whole day).
// The report's assumptions.data pins what was read: the store's source, the
// real dates of the first candle's open and the last one's close (warm-up
// included), the number of candles and their hash, and synthetic: true when
// the timeframe is ONE_MINUTE or FIVE_MINUTE, whose candles are cut from
// generated paths inside the stored 15-minute candles rather than read (the
// backtest screen's banner says so). Generating a year of them takes
// seconds, so it is the run's work (a job's) only: a live run's check and
// estimate count its evaluations from the stored candles' open times
// (openTimes) without building them (synthetic_test.go).
//
// Warm-up. Before its first day a run reads the strategy's Config.Window
// candles, the same window the live engine fetches on every evaluation
// (and so after a restart or a change of configuration): long enough that
// a decision, and an AI prompt, does not depend on how long the indicator
// stream has run (strategy.Indicators.Warmup: 520 candles with the default
// indicators). A period near the start of the data warms up on what there
// is.
//
// Timeline, for each closed candle t of the strategy's timeframe:
//
//  1. the strategy sees candles up to and including t (never later: the
//     window it is given ends at t);
//  2. an accepted signal becomes a market order at the OPEN of candle t+1:
//     a BUY pays the ask, a SELL gets the bid (the live market's half-spread
//     around the price, replay.BidAsk: the same function quotes both), plus
//     the taker fee and the slippage (basis points beyond the bid/ask);
//     every fill, this one and those of step 3, stays within the candle's
//     low and high: nothing traded outside them, so a bid (or a bid less
//     slippage) under the low fills at the low, an ask over the high at the
//     high (paper.Quote's Floor and Ceiling: the engine caps them by
//     paper.CapSteps, and the fast path's ledger calls the same function);
//  3. during candle t+1 the resting orders (protective stop-losses and
//     take-profits) meet the price as it moves open -> low -> high -> close,
//     stopping at each resting order's price on the way: a stop triggers at
//     its stop price and fills at the bid there, a take-profit fills at its
//     limit once the bid reaches it (as in the live sandbox). Going to the low first
//     is the pessimistic order: when a stop and a take-profit could both
//     trigger inside one candle, the stop wins;
//  4. equity is marked at the close of t+1.
//
// A BUY sizes with the live engine's own function, strategy.BuyQuantity
// (portfolio value x max_position_size x risk_multiplier, within the risk
// limits, divided by the ask) and passes the same risk check (risk.Check) with the backtest's
// own account state, valued at the ask as the gateway values it; a SELL
// closes the position, first cancelling its protective orders. A position
// still open after the last candle is sold at the last close.
//
// The risk check's day is the UTC day, as live: its start value is the
// equity at the first open of each day (00:00 UTC), whether or not a
// signal comes that day, and its trade count, like the live gateway's,
// counts every order placed that day, protective stop-losses and
// take-profits included. The report stores the policy it ran with
// (assumptions.policy: every risk and protective setting) and the
// half-spread (assumptions.half_spread). parity_test.go runs one scripted
// multi-day scenario (a gap down through a stop, a stop day, a loss-limit
// day, a trade-limit day) through the live strategy engine, order gateway
// and sandbox on a simulated clock and through the backtest, and compares
// the fills one by one and the refusals.
//
// Signals are accounted for: signals.total = signals.traded + the sum of
// signals.not_executed, whose reasons include a confidence below the
// strategy's min_confidence and a stale AI answer (accounting_test.go
// checks the identity over random runs).
//
// A run the maximum drawdown limit stopped for good (it refused signals,
// the equity curve stayed at or beyond the limit from some point to the
// end, and no position opened after it) carries Halted: when, the signals
// it refused and the days left untraded, which the screen says first.
// The report's list entry carries its total return (stored beside it).
//
// Parameter overrides (params) change the instance's configuration for one
// run only: a key it does not have (or one of another kind's, e.g. model on
// a technical instance) is refused with 400, and name and type cannot be
// overridden.
//
// The report's statistics (docs/ANALYTICS.md): a trade at exactly zero net
// P&L is neither won nor lost; profit factor and win/loss ratio are null
// without a loss; Sharpe and Sortino annualise with the median candle
// spacing; CAGR and Calmar are null for runs shorter than MinAnnualised
// (30 days), with the reason; buy-and-hold pays the spread, slippage and
// taker fee on entry and exit.
//
// Worked example: capital 10,000, taker fee 0.6%, no slippage, no spread. The strategy
// says BUY at the close of candle 5; candle 6 opens at 100.00. Target
// 10,000 x 0.15 x 1.2 = 1,800, capped at 10% of value less a 0.5% margin
// (995): quantity floor(995 / 100 to 0.00000001) = 9.95, fee 5.97, cash
// 10,000 - 995 - 5.97 = 8,999.03. With a 2% stop-loss the stop rests at 98.00;
// if candle 7 trades down to 97.50, the stop fills at 98.00: proceeds 975.10
// less fee 5.8506, and the trade's P&L is 969.2494 - 1,000.97 = -31.7206.
//
// Fast path. A strategy that can decide without explaining
// (strategy.QuickDecider: the technical strategy) runs on a fast path with
// the same results, byte for byte: a candle with no signal waiting, no
// order working and no resting order's price inside its range cannot
// change the engine, so it is not shown to it and only marks equity, in
// exact fixed point (cash + held x close in 128-bit integers, the floats
// rounded as big.Rat rounds them); a SELL with nothing held, or a BUY the
// loss limits refuse while the account is flat, is booked without the
// engine. A run with a plain protective stop (no take-profit, trailing
// stop, slippage or volume cap) books its usual events in a ledger of
// integers (ledger.go), as the engine would: a BUY from a flat account that
// every check lets through, with its stop; a SELL that cancels the stop and
// sells at the bid; the stop triggering at the open or at its price on the
// way down. The engine is then behind, and the account is written back to it
// (paper.Engine.Load) the first time the general code needs it. Every other
// candle runs the general code; there, a flat account's BUY that the same
// checks, made in floats, find within every limit by far skips risk.Check
// (it cannot refuse it), and a candle that reaches no resting order's
// trigger is quoted at its close only (the quotes on the way would fill
// nothing). The engine itself does its decimal arithmetic in 64-bit
// integers when the figures fit (domain.Plus and the rest: the same values
// and shapes). Request.Reference turns the fast path off; fast_test.go
// compares the two, and tradebytrade_test.go and ledger_test.go compare
// them fill by fill and trade by trade. Prices
// are read on one grid of 8 decimals, whatever number of decimals each was
// written with (the store's 63857.3 next to 63877.97). Given fixed-point
// bars (Request.Bars, as kestrel backtest reads a file) instead of decimal
// candles, the fast path makes the decimals of a candle only when the
// engine or the day's start value reads it.
//
// Many runs over one period (a parameter sweep's trials, package research)
// share one Shared source: the candles are read from the store once and
// each run is given exactly the part its own read would return (its
// warm-up included), the store's span, the candle hash and the risk policy
// once; RunOptions.Discard returns the report without storing it. A run
// with a Shared source is otherwise Service.Start unchanged.
//
// AI-driven and hybrid strategies decide in one of three modes (ai_mode):
//
//   - builtin (the default): the built-in analyst, offline and free.
//   - recorded: the strategy renders the prompt it would send live (same
//     template version, candles, indicators, position, risk limits; the
//     price is the candle's close) and the model's own answer recorded with
//     the same prompt hash is replayed, never a hybrid's combined decision.
//     Recordings are the model answers of live evaluations and of earlier
//     live-model backtests (table ai_recordings), and AI-driven instances'
//     evaluations (whose decision is the model's), from
//     any strategy instance, user and model: strategies, and so their
//     decisions, belong to the platform rather than to one user, and the
//     prompt hash already pins the whole question. The newest usable answer
//     wins (a failed call is never replayed). A prompt with no recording
//     counts as HOLD, and the report says "N of M prompts had no recorded
//     decision" and which models the replayed answers came from. Live
//     strategy evaluations show the model the ticker's price when they ran,
//     not the candle's close, so their prompts rarely match a backtest's;
//     a live-model backtest's answers always do, so re-running it as
//     recorded gives the same result without calling the model. The
//     report pins what it replayed: assumptions.replayed_answers_hash is
//     the sha256 of the answers in order (a missing one counted too).
//     Prompt v2 states the candle width; an instance pinned to
//     prompt_version v1 renders v1 prompts, so v1 recordings still replay.
//     With trade memory on, the prompt's memory is the run's own closed
//     trades so far (memory.go, the live rule applied to the run's fills),
//     never live data: two runs of a backtest send the same prompts.
//   - live: the provider configured in the settings, once per evaluation;
//     operators only (it spends the platform's AI budget). Asked without
//     confirm_live, nothing runs: the answer is an estimate (model calls =
//     evaluations, twice that at most with repair retries) with a warning
//     when the period's real data lies before the model's training cutoff
//     (ai.TrainingCutoffs) or the cutoff is unknown. An estimate above the
//     cap on model calls per run (api.ai.backtestMaxModelCalls, 2,000 by
//     default) is refused before any call; while running, the run stops
//     with an error before a call once its calls (repair retries included)
//     have reached the cap, so the last question's repair retry is the only
//     call that can pass it. A failed call counts as HOLD and is reported.
//     Each usable answer is recorded for replay as it arrives (source
//     backtest:<id>), so a run that fails or is cancelled keeps what it paid
//     for. The report gives the calls made, the tokens, and the cost summed
//     over the answers whose provider reported one.
//
// Runs as jobs. POST /api/backtests validates the ask in the request
// (Service.Start with RunOptions.Check: field errors, a live run's estimate
// and cap) and queues a job (package jobs); the job runs Service.Start with
// the job's id as the report's id and a progress callback (Request.Progress:
// the share of the candles done, every candle on the general path, every
// 1,024 on the fast path) under a context its cancel ends. The spec's GET
// /api/strategy/backtest/{name} still runs in the request and so never runs
// a live model (it answers the estimate); its report is stored with its
// user (RunOptions.Owner, Source) and each user keeps only the newest few
// (RunOptions.Keep, settings system.quotas.requestBacktests).
//
// A hybrid asks the model only when its rules say BUY or SELL (with the
// rules at HOLD no answer could make it trade): the evaluation reads
// "Rules HOLD, model not asked" and the report counts ai.not_asked.
package backtest
