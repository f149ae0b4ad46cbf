// Package strategy runs automated strategies live: each instance sees the
// closed candles of its timeframe for each of its symbols, its own position
// and the clock, and returns a signal {decision BUY|SELL|HOLD, confidence
// 0-1, reasoning}. Strategies never see the exchange: the Engine turns an
// accepted signal into a market order through the order gateway (so the risk
// check applies), with the order's strategy set to the instance's name.
//
// A signal is executed only when automation is on
// (trading.automation.autoTrading), the strategy is enabled, there is no
// emergency stop, its confidence is at least the strategy's min_confidence,
// and the risk check accepts the order. Every evaluation is stored, HOLD
// too, with what the strategy saw and, when it did not trade, why not. A
// candle whose candles cannot be read is tried again on every step; once a
// later candle has closed it is stored as "Not evaluated" with the reason,
// never skipped silently. The model's own answer (decision, confidence,
// reasoning) is also recorded by prompt hash (ai_recordings), so backtests
// in recorded mode replay what the model said, not a hybrid's combination.
//
// Shadow models (shadow.go, shadowrecord.go, leaderboard.go): an AI
// instance's shadow_models are asked the live model's request in their own
// goroutines while the live model answers; the evaluation is stored and
// executed without waiting for them, and their answers (or failures,
// timeouts, budget pauses) are stored afterwards in shadow_decisions beside
// the live model's own answer, never traded. Leaderboard scores each
// model's calls on paper (analytics.PaperTrade; docs/ANALYTICS.md).
//
// Sizing: a BUY aims for a position worth
//
//	portfolio value x max_position_size x risk_multiplier
//
// in the symbol, capped by the risk limits (maximum position size share of
// the portfolio, maximum trade amount, each less a 0.5% margin so a price
// tick before the risk check cannot push the order over), and buys what is
// missing; below the minimum trade amount it does not trade. A SELL closes the strategy's own
// position in the symbol (what its fills bought less what they sold): a
// long-only spot account never goes short.
//
// Versions (versions.go): every saved configuration is an immutable,
// numbered version; saving stores a new one and activates it, and Activate
// makes an older one run again without rewriting anything. The running
// version's number is on every evaluation and order.
//
// Kinds: technical (rules below), ai_driven (a model through package ai) and
// hybrid (acts only when the technical and AI decisions agree; its
// confidence is the lower of the two; with the rules at HOLD the model is
// not asked: "Rules HOLD, model not asked"). AI prompts (template v2) state
// the candle width; an instance's prompt_version "v1" keeps the v1 text.
// An instance may carry its own template (prompt_template, checked on save
// by ai.CheckTemplate): it is part of the configuration, so every prompt
// edit is a strategy version, and each decision records the version and the
// template (template_version: v2, custom:<hash>). PromptVersions lists an
// instance's prompt history from its versions.
//
// Trade memory (memory.go): with memory.trades above 0 the prompt (v3, or a
// custom template reading .Memory) lists the instance's last closed round
// trips in the symbol with the reasoning of the decisions that opened them
// (TradeMemory, one rule for both): live and paper trading read its fills and
// executed evaluations from the store, a backtest its own fills and answers,
// so a backtest's prompts repeat run to run. Memory off renders v2 unchanged.
//
// Technical rules, each voting BUY, SELL or nothing on the latest closed candle:
//   - RSI (Wilder) below rsi_oversold votes BUY, above rsi_overbought SELL;
//   - the short SMA crossing above the long SMA votes BUY, below SELL;
//   - the MACD line crossing above its signal line votes BUY, below SELL;
//   - a close at or below the lower Bollinger band votes BUY, at or above
//     the upper band SELL.
//
// The side with more votes wins (a tie or no vote is HOLD). Confidence is
// 0.4 + 0.2 x (votes for) - 0.2 x (votes against), within 0-1: one rule
// alone gives 0.6, two 0.8, three or more 1.0. HOLD carries 0.5.
//
// Warm-up: each evaluation is shown Config.Window closed candles (the
// indicators' Warmup: 520 with the defaults; an AI instance's context
// length when longer), the same window a backtest reads before its first
// day. An instance streams its indicators from candle to candle, and one
// started fresh (after a restart or a change of configuration) warms up on
// that window; the warm-up settles the exponential averages and the SMAs
// depend on their window alone, so both decide, and render AI prompts,
// alike on every candle (warmup_test.go: a year of shipped hourly candles).
package strategy
