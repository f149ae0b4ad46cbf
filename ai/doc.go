// Package ai asks a model provider for a trading decision about one symbol.
//
// Three providers sit behind one interface: the built-in rules analyst
// (offline, deterministic, the default), Replicate (the spec's model host) and
// any OpenAI-compatible chat-completions endpoint (Ollama, llama.cpp server,
// vLLM, OpenAI). The hosted providers render the versioned prompt template in
// prompts/, send it, and parse the answer as
// {"decision":"BUY|SELL|HOLD","confidence":0..1,"reasoning":"..."}; a bad
// answer gets one repair retry and is then an *AnswerError. Every Decision
// carries its provenance (provider, model, latency, tokens, prompt, raw answer
// and the prompt's hash) so it can be recorded, and replayed by a backtest.
//
// Templates are versioned files that never change once shipped: v1, and v2
// (v1 plus the candles' width, e.g. "50 closed 1-hour candles (ONE_HOUR)"),
// the default. A request names its version (Request.PromptVersion), so an
// instance pinned to v1 still renders v1's exact text and its recorded
// answers still match by hash.
//
// A strategy may instead carry its own template (Request.PromptTemplate,
// checked by CheckTemplate and bounded so that it cannot run long on the
// server); its decisions name it custom:<hash of the text>. A system
// message of its own is hashed with the prompt, so recorded answers are
// replayed only for the messages they were given to.
//
// The package knows nothing of strategies, orders or the exchange.
package ai
