package strategy

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"kestrel/ai"
	"kestrel/domain"
	"kestrel/indicators"

	"github.com/shopspring/decimal"
)

// Input is what a strategy sees on one evaluation.
type Input struct {
	Symbol   string
	Candles  []domain.Candle // closed candles of its timeframe, oldest first; the last is the one evaluated
	Position domain.PositionBook
	Now      time.Time
	// Memory is the strategy's own last closed round trips in Symbol,
	// oldest first, at most Config.MemoryTrades (TradeMemory): read from
	// the store live and on paper, made from the run's own fills in a
	// backtest. Only an AI prompt with memory on shows them.
	Memory []ai.Trade
}

// Signal is a strategy's decision with what it saw.
type Signal struct {
	Decision   string // BUY, SELL or HOLD
	Confidence float64
	Reasoning  string
	Indicators map[string]float64
	AI         *AIProvenance // set by AI-driven decisions
	// Stale says why an answer is too old to act on (the price moved while
	// the model answered); the signal is recorded, not executed.
	Stale string
	// Shadows are the shadow models asked the same prompt (nil: none);
	// the engine records their answers once they are in, never trades them.
	Shadows *ShadowRun
}

// AIProvenance records where an AI decision came from.
type AIProvenance struct {
	Provider, Model, PromptHash, Prompt, Raw string
	// TemplateVersion is the template that rendered Prompt (v2,
	// custom:<hash>, ...; "" when no prompt was rendered).
	TemplateVersion string
	Latency         time.Duration
	// Tokens the call used (the provider's report) and their cost (nil:
	// the model has no price).
	InputTokens, OutputTokens int
	Cost                      *decimal.Decimal
	// Answer is the model's own answer (a hybrid's signal combines it
	// with the rules); nil when the model gave none.
	Answer *AIAnswer
}

// AIAnswer is what the model itself answered.
type AIAnswer struct {
	Decision   string
	Confidence float64
	Reasoning  string
}

// Strategy decides on the latest closed candle. It never sees the exchange.
type Strategy interface {
	Evaluate(ctx context.Context, in Input) (Signal, error)
}

// Decisions.
const (
	Buy  = "BUY"
	Sell = "SELL"
	Hold = "HOLD"
)

// technical applies the rules of the package doc. It keeps streaming
// indicator state per symbol, so each new candle costs O(1); candles it has
// already seen are skipped, and a gap (or a first call) warms it up again
// from the window it is given.
type technical struct {
	in Indicators
	// mu guards the streams: the engine loop, the Test AI action and the
	// prompt preview may feed the same instance at once.
	mu      sync.Mutex
	symbols map[string]*stream
	// the symbol seen last and its stream: a backtest asks about one
	// symbol on every candle
	lastSym    string
	lastStream *stream
}

// NewTechnical returns the technical strategy for these indicator settings.
func NewTechnical(in Indicators) Strategy {
	return &technical{in: in, symbols: map[string]*stream{}}
}

// stream is one symbol's indicator state after its last candle.
type stream struct {
	last               time.Time
	rsi                *indicators.RSI
	short, long        *indicators.SMA // nil: the Bollinger middle (newStream)
	macd               *indicators.MACD
	bb                 *indicators.Bollinger
	close              float64
	rsiV               float64
	shortV, longV      float64
	macdV, sigV, histV float64
	mid, upper, lower  float64
	prevShort, prevLng float64
	prevMACD, prevSig  float64
}

func (t *technical) newStream() *stream {
	in := t.in
	s := &stream{rsi: indicators.NewRSI(in.RSIPeriod), macd: indicators.NewMACD(in.MACDFast, in.MACDSlow, in.MACDSignal),
		bb:        indicators.NewBollinger(in.BollingerPeriod, in.BollingerStd),
		prevShort: math.NaN(), prevLng: math.NaN(), prevMACD: math.NaN(), prevSig: math.NaN()}
	// An SMA as long as the Bollinger period is the bands' middle (the
	// same values summed in the same order): it is not computed twice.
	if in.SMAShort != in.BollingerPeriod {
		s.short = indicators.NewSMA(in.SMAShort)
	}
	if in.SMALong != in.BollingerPeriod {
		s.long = indicators.NewSMA(in.SMALong)
	}
	return s
}

func (s *stream) update(c domain.Candle) {
	s.push(Float(c.Close))
	s.last = c.Time
}

// push moves the indicators on by one close.
func (s *stream) push(x float64) {
	s.prevShort, s.prevLng, s.prevMACD, s.prevSig = s.shortV, s.longV, s.macdV, s.sigV
	s.close = x
	s.rsiV = s.rsi.Update(x)
	s.macdV, s.sigV, s.histV = s.macd.Update(x)
	s.mid, s.upper, s.lower = s.bb.Update(x)
	s.shortV, s.longV = s.mid, s.mid
	if s.short != nil {
		s.shortV = s.short.Update(x)
	}
	if s.long != nil {
		s.longV = s.long.Update(x)
	}
}

// Settle is the weight the state before a warm-up may keep in an
// exponentially smoothed reading (the EMAs of MACD, Wilder's RSI averages)
// at its end. A fresh stream and one that has run for months differ only by
// that state, so their readings agree to about this relative amount: far
// below what moves a decision or a prompt's rounded value (shipped-history
// test: TestFreshStreamAgreesWithLongRunning). The SMAs and Bollinger bands
// depend on their window alone and need only its length.
const Settle = 1e-12

// settling is how many values an exponential smoothing by alpha needs for
// its starting state's weight, (1-alpha)^n, to fall below Settle.
func settling(alpha float64) int {
	return int(math.Ceil(math.Log(Settle) / math.Log1p(-alpha)))
}

// Warmup is how many candles before the evaluated one settle the
// indicators, so that a decision does not depend on how long the stream has
// run: RSI's first average (period changes) then its Wilder smoothing
// (alpha 1/period) settling; MACD's slow EMA seeded (slow closes) and
// settled (alpha 2/(slow+1)), then its signal EMA seeded and settled on
// that line; the longest window; and one candle more for the crossings'
// previous readings. With the defaults (RSI 14, MACD 12/26/9) it is 520.
// The live engine shows a strategy this many candles (Config.Window) and a
// backtest reads this many before its first day.
func (in Indicators) Warmup() int {
	rsi := in.RSIPeriod + 1 + settling(1/float64(in.RSIPeriod))
	macd := in.MACDSlow + settling(2/float64(in.MACDSlow+1)) + in.MACDSignal + settling(2/float64(in.MACDSignal+1))
	return max(rsi, macd, in.SMAShort, in.SMALong, in.BollingerPeriod) + 1
}

// Window is how many closed candles an instance is shown on each
// evaluation, live (the engine fetches them after a restart or a change of
// configuration) and in a backtest (the warm-up read before its first day):
// the indicators' Warmup (an AI-driven instance's too: its prompt shows the
// default indicators), and an AI instance's context length when longer.
func (c Config) Window() int {
	n := 2
	if c.Indicators != nil || c.AIParams != nil {
		n = indicatorsOr(c).Warmup()
	}
	if c.AIParams != nil {
		n = max(n, c.ContextLength)
	}
	return n
}

// feed must be called with t.mu held.
func (t *technical) feed(symbol string, cs []domain.Candle) *stream {
	s := t.lastStream
	if s == nil || symbol != t.lastSym {
		s = t.symbols[symbol]
	}
	// The candles after the stream's last one are new. Looking from the end
	// costs O(new candles); if the last one is not in the window (a gap, or
	// a first call), the stream warms up again from the whole window.
	from := 0
	if s != nil {
		i := len(cs) - 1
		for i >= 0 && cs[i].Time.After(s.last) {
			i--
		}
		if i >= 0 && cs[i].Time.Equal(s.last) {
			from = i + 1
		} else {
			s = nil
		}
	}
	if s == nil {
		s = t.newStream()
		t.symbols[symbol] = s
	}
	for _, c := range cs[from:] {
		s.update(c)
	}
	t.lastSym, t.lastStream = symbol, s
	return s
}

// Evaluate implements Strategy.
func (t *technical) Evaluate(ctx context.Context, in Input) (Signal, error) {
	if len(in.Candles) == 0 {
		return Signal{}, fmt.Errorf("no closed candles for %s", in.Symbol)
	}
	return t.signal(in.Symbol, in.Candles), nil
}

// signal feeds the candles and judges the stream under the lock.
func (t *technical) signal(symbol string, cs []domain.Candle) Signal {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.judge(t.feed(symbol, cs))
}

// QuickDecider decides as Evaluate does without explaining why (no reasoning
// text, no indicator map): the same decision and confidence for the same
// candles, for backtests' fast path.
type QuickDecider interface {
	QuickDecide(symbol string, candles []domain.Candle) (decision string, confidence float64)
}

// QuickDecide implements QuickDecider.
func (t *technical) QuickDecide(symbol string, cs []domain.Candle) (string, float64) {
	if len(cs) == 0 {
		return Hold, 0
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.quick(t.feed(symbol, cs))
}

// Replayer is a strategy a backtest can replay on a private stream.
type Replayer interface {
	Replay() *Replay
}

// Replay is a private copy of the technical strategy's state for one
// backtest: fed every close of the run in order from its first candle, it
// decides as Evaluate does on each window ending there (Evaluate warms a
// new stream up from the window's start, the run's first candle, and then
// streams). Being private it needs no lock, no symbol lookup and no time
// comparison per candle; it is not safe for concurrent use.
type Replay struct {
	t *technical
	s *stream
}

// Replay implements Replayer.
func (t *technical) Replay() *Replay { return &Replay{t: t, s: t.newStream()} }

// Next feeds the next close, Float(candle.Close), and returns the decision
// and confidence Evaluate gives on the candles fed so far.
func (r *Replay) Next(close float64) (decision string, confidence float64) {
	r.s.push(close)
	return r.t.quick(r.s)
}

// Feed feeds a close without deciding (the warm-up).
func (r *Replay) Feed(close float64) { r.s.push(close) }

// quick is judge's decision and confidence without the explanation.
func (t *technical) quick(s *stream) (string, float64) {
	buy, sell := 0, 0
	for _, v := range t.rules(s) {
		if v > 0 {
			buy++
		} else if v < 0 {
			sell++
		}
	}
	switch {
	case buy > sell:
		return Buy, confidences[buy][sell]
	case sell > buy:
		return Sell, confidences[sell][buy]
	}
	return Hold, 0.5
}

// confidences[for][against] is round2(confidence(for, against)), computed
// once (four rules vote).
var confidences = func() (c [5][5]float64) {
	for f := range c {
		for a := range c[f] {
			c[f][a] = round2(confidence(f, a))
		}
	}
	return
}()

// rules are the votes of the four rules (RSI, SMA cross, MACD cross,
// Bollinger) on the stream's latest values: +1 BUY, -1 SELL, 0 none. A rule
// whose reading is not there yet does not vote.
func (t *technical) rules(s *stream) [4]int {
	in := t.in
	var v [4]int
	if finite(s.rsiV) {
		switch {
		case s.rsiV < in.RSIOversold:
			v[0] = 1
		case s.rsiV > in.RSIOverbought:
			v[0] = -1
		}
	}
	v[1] = Crossed(s.prevShort, s.prevLng, s.shortV, s.longV)
	v[2] = Crossed(s.prevMACD, s.prevSig, s.macdV, s.sigV)
	if finite(s.lower) {
		if s.close <= s.lower {
			v[3] = 1
		} else if s.close >= s.upper {
			v[3] = -1
		}
	}
	return v
}

// finite: x - x is 0 for a finite x and NaN for NaN and the infinities.
func finite(x float64) bool { return x-x == 0 }

// judge applies the four rules to the stream's latest values.
func (t *technical) judge(s *stream) Signal {
	vals := make(map[string]float64, 10)
	for _, kv := range [...]struct {
		k string
		v float64
	}{{"close", s.close}, {"rsi", s.rsiV}, {"sma_short", s.shortV}, {"sma_long", s.longV}, {"macd", s.macdV}, {"macd_signal", s.sigV},
		{"macd_hist", s.histV}, {"bb_upper", s.upper}, {"bb_middle", s.mid}, {"bb_lower", s.lower}} {
		if finite(kv.v) { // not enough data yet: not reported
			vals[kv.k] = kv.v
		}
	}
	var buy, sell []string
	vote := func(side string, why string) {
		if side == Buy {
			buy = append(buy, why)
		} else {
			sell = append(sell, why)
		}
	}
	in := t.in
	v := t.rules(s)
	switch v[0] {
	case 1:
		vote(Buy, fmt.Sprintf("RSI %.1f below %g (oversold)", s.rsiV, in.RSIOversold))
	case -1:
		vote(Sell, fmt.Sprintf("RSI %.1f above %g (overbought)", s.rsiV, in.RSIOverbought))
	}
	switch v[1] {
	case 1:
		vote(Buy, fmt.Sprintf("SMA%d %.2f crossed above SMA%d %.2f", in.SMAShort, s.shortV, in.SMALong, s.longV))
	case -1:
		vote(Sell, fmt.Sprintf("SMA%d %.2f crossed below SMA%d %.2f", in.SMAShort, s.shortV, in.SMALong, s.longV))
	}
	switch v[2] {
	case 1:
		vote(Buy, fmt.Sprintf("MACD %.4f crossed above its signal %.4f", s.macdV, s.sigV))
	case -1:
		vote(Sell, fmt.Sprintf("MACD %.4f crossed below its signal %.4f", s.macdV, s.sigV))
	}
	switch v[3] {
	case 1:
		vote(Buy, fmt.Sprintf("close %.2f at or below the lower Bollinger band %.2f", s.close, s.lower))
	case -1:
		vote(Sell, fmt.Sprintf("close %.2f at or above the upper Bollinger band %.2f", s.close, s.upper))
	}
	return decide(buy, sell, vals)
}

// Crossed is +1 when a rose above b between the previous and current values,
// -1 when it fell below, 0 otherwise (or without both readings). The batched
// sweep engine votes with it too.
func Crossed(prevA, prevB, a, b float64) int {
	if prevA != prevA || prevB != prevB || a != a || b != b { // NaN: a reading is missing
		return 0
	}
	switch {
	case prevA <= prevB && a > b:
		return 1
	case prevA >= prevB && a < b:
		return -1
	}
	return 0
}

// confidence is 0.4 + 0.2 per rule for the decision - 0.2 per rule against, within [0, 1].
func confidence(for_, against int) float64 {
	return math.Max(0, math.Min(1, 0.4+0.2*float64(for_)-0.2*float64(against)))
}

func decide(buy, sell []string, vals map[string]float64) Signal {
	conf := confidence
	switch {
	case len(buy) > len(sell):
		return Signal{Decision: Buy, Confidence: round2(conf(len(buy), len(sell))), Reasoning: reason(buy, sell), Indicators: vals}
	case len(sell) > len(buy):
		return Signal{Decision: Sell, Confidence: round2(conf(len(sell), len(buy))), Reasoning: reason(sell, buy), Indicators: vals}
	}
	why := "No rule triggered"
	if len(buy) > 0 {
		why = "Rules disagree: " + reason(buy, sell)
	}
	if r, ok := vals["rsi"]; ok && len(buy) == 0 {
		why += " (RSI " + strconv.FormatFloat(r, 'f', 1, 64) + ")"
	}
	return Signal{Decision: Hold, Confidence: 0.5, Reasoning: why, Indicators: vals}
}

func reason(for_, against []string) string {
	s := strings.Join(for_, "; ")
	if len(against) > 0 {
		s += "; against: " + strings.Join(against, "; ")
	}
	return s
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }
