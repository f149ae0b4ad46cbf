// Package paper is Kestrel's matching and accounting engine: balances, holds,
// resting orders in per-symbol heaps, and positions at average cost with
// realized P&L. It takes commands (place, modify, cancel) and market quotes,
// each with the time it happens, and returns what changed. It has no store,
// no clock, no goroutines and no locks: the same inputs give the same ledger
// in the live sandbox (which journals every change), in tests and in
// backtests. An Engine is not safe for concurrent use.
//
// Rules, as the sandbox has always had them:
//   - market orders and marketable limits fill at once as takers at the ask
//     (buys) or bid (sells), widened by the spread;
//   - resting limits fill as makers at their limit (or the better book price
//     when the market gapped through) once the ask (buys) or bid (sells)
//     reaches them;
//   - stops trigger when the last price reaches them and fill as takers;
//   - a trailing stop's stop price follows the best price since it was
//     placed (or since the activation price was reached) at its trail: after
//     each quote the high-water mark of a SELL (low-water of a BUY) moves to
//     the quote's high (low) and the stop with it, never back. A quote
//     first triggers on the stop as it stood, then moves the mark, so a
//     price path gives the same fills whether it comes as live ticks or as
//     a backtest's walk through candles;
//   - a resting order holds what it may need (USD at the limit plus the maker
//     fee for buys, the base currency for sells); the hold is fixed when the
//     order rests and stored with it;
//   - protective sells sharing a GroupID are one-cancels-other: the group
//     holds the base quantity once, and the first fill cancels the others.
package paper

import (
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// MsgInsufficient is the spec's refusal for a trade the account cannot cover.
const MsgInsufficient = "Insufficient balance for this trade"

// Config sets the engine's market rules.
type Config struct {
	Products []domain.Product
	TakerFee decimal.Decimal // market orders, marketable limits, triggered stops
	MakerFee decimal.Decimal // resting limits
	// Spread is an extra fraction takers pay beyond the bid/ask
	// (buy at ask x (1+Spread), sell at bid x (1-Spread)).
	Spread decimal.Decimal
	// MaxFillPerQuote caps the quantity one quote fills per resting limit
	// (zero: no cap), which produces partial fills.
	MaxFillPerQuote decimal.Decimal
	// NewID names orders and fills; nil numbers them o-1, f-1, ... so a run
	// is reproducible.
	NewID func(kind string) string
	// NoUpdates leaves Change.Updates empty (a backtest reads the orders
	// and fills of a change, never its stream of updates, and each update
	// copies an order).
	NoUpdates bool
}

// Quote is a market event for one symbol: the book now, and the range the
// last price covered since the previous quote (Low and High, inclusive of
// Last; zero means just Last). The bid/ask range is taken as the last-price
// range shifted by the current spread, so a price that was touched between
// two quotes is never missed.
type Quote struct {
	Symbol    string
	Last      decimal.Decimal
	Bid, Ask  decimal.Decimal
	Low, High decimal.Decimal
	// Bids and Asks are the book's depth, best first, where the market
	// publishes it (Coinbase's level2); a market order then walks them.
	// Empty: only the top of the book is known.
	Bids, Asks []Level
	// TradeThrough is a market that reports its trades (Coinbase's
	// market_trades): a resting limit then fills only when a trade printed
	// at or through its price, at its price, never on the book alone.
	// Traded says whether any trade printed since the last quote; Low and
	// High are then the range of those trades.
	TradeThrough, Traded bool
	// Floor and Ceiling, when positive, bound every taker fill: a backtest
	// quotes inside a candle, where nothing traded below its low or above
	// its high, so a fill at the bid or ask (or beyond, with slippage)
	// outside them fills at the bound instead. Zero: no bound (live).
	Floor, Ceiling decimal.Decimal
}

// capped is px (on the price grid of step) within the quote's Floor and
// Ceiling: a bound is taken to the grid inwards, as the fill prices are on
// it. In steps of the grid it is CapSteps, the rule the backtest's ledger
// applies too; a bound off the grid, or a candle with no grid price in its
// range, takes the decimal way below (the same prices).
func (q Quote) capped(px, step decimal.Decimal) decimal.Decimal {
	if !q.Floor.IsPositive() && !q.Ceiling.IsPositive() {
		return px
	}
	n, ok1 := steps(px, step)
	lo, ok2 := steps(q.Floor, step)
	hi, ok3 := steps(q.Ceiling, step)
	if ok1 && ok2 && ok3 && q.Floor.IsPositive() && q.Ceiling.IsPositive() {
		if c, ok := CapSteps(n, lo, hi); ok {
			if c == n {
				return px
			}
			return decimal.New(c*step.CoefficientInt64(), step.Exponent())
		}
	}
	switch {
	case q.Floor.IsPositive() && px.LessThan(q.Floor):
		return inward(q.Floor, step, true, q.Ceiling)
	case q.Ceiling.IsPositive() && px.GreaterThan(q.Ceiling):
		return inward(q.Ceiling, step, false, q.Floor)
	}
	return px
}

// CapSteps is the rule that keeps a backtest's taker fills within their
// candle (Quote's Floor and Ceiling), in steps of the price grid: px within
// lo (the candle's low rounded up to the grid) and hi (its high rounded
// down). ok is false when no grid price lies within the candle (lo > hi).
func CapSteps(px, lo, hi int64) (int64, bool) {
	if lo > hi {
		return 0, false
	}
	return min(max(px, lo), hi), true
}

// inward is bound on the grid of step, rounded up (a floor) or down (a
// ceiling), written as the engine writes its prices (n x the step's
// coefficient); a candle with no grid price in its range keeps the bound.
func inward(bound, step decimal.Decimal, up bool, other decimal.Decimal) decimal.Decimal {
	if n, ok := steps(bound, step); ok {
		return decimal.New(n*step.CoefficientInt64(), step.Exponent())
	}
	if !step.IsPositive() {
		return bound
	}
	g := bound.Div(step).Floor().Mul(step)
	if up {
		g = bound.Div(step).Ceil().Mul(step)
	}
	if other.IsPositive() && (up && g.GreaterThan(other) || !up && g.LessThan(other)) {
		return bound
	}
	return g
}

// Level is one price level of a book: the size resting at a price.
type Level struct{ Price, Size decimal.Decimal }

// Engine is one account on the simulated exchange.
type Engine struct {
	cfg       Config
	products  map[string]domain.Product
	balances  map[string]domain.Balance
	positions map[string]domain.PositionBook
	live      map[string]domain.Order
	books     map[string]*books
	quotes    map[string]Quote
	idx       index
	seq       uint64
	ids       uint64
	scratch   tx // the change being made (begin): its slices are reused
}

// New returns an engine with no funds; Load or Deposit gives it some.
func New(cfg Config) *Engine {
	e := &Engine{cfg: cfg, products: map[string]domain.Product{}}
	for _, p := range cfg.Products {
		e.products[p.Symbol] = p
	}
	e.reset()
	return e
}

func (e *Engine) reset() {
	e.balances, e.positions, e.live = map[string]domain.Balance{}, map[string]domain.PositionBook{}, map[string]domain.Order{}
	e.books = map[string]*books{}
	e.idx = newIndex()
	for sym := range e.products {
		e.books[sym] = newBooks()
	}
	if e.quotes == nil {
		e.quotes = map[string]Quote{}
	}
}

// Load replaces the state with a stored one (live orders oldest first, for
// time priority). Quotes already seen are kept.
func (e *Engine) Load(bals []domain.Balance, pos []domain.PositionBook, live []domain.Order) {
	e.reset()
	for _, b := range bals {
		e.balances[b.Currency] = b
	}
	for _, p := range pos {
		e.positions[p.Symbol] = p
	}
	for _, o := range live {
		e.live[o.ID] = o
		e.track(o)
		e.rest(o)
	}
}

// Deposit funds the account (sandbox funding, backtest capital).
func (e *Engine) Deposit(currency string, amount decimal.Decimal) Change {
	t := e.begin(time.Time{})
	t.adjust(currency, amount, decimal.Zero)
	return t.apply()
}

// Products lists the symbols' trading rules, sorted by symbol.
func (e *Engine) Products() []domain.Product {
	out := make([]domain.Product, 0, len(e.products))
	for _, p := range e.products {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Symbol < out[j].Symbol })
	return out
}

// Balances returns every currency's funds, sorted by currency.
func (e *Engine) Balances() []domain.Balance {
	out := make([]domain.Balance, 0, len(e.balances))
	for _, b := range e.balances {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Currency < out[j].Currency })
	return out
}

// Positions returns the position books, sorted by symbol.
func (e *Engine) Positions() []domain.PositionBook {
	out := make([]domain.PositionBook, 0, len(e.positions))
	for _, p := range e.positions {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Symbol < out[j].Symbol })
	return out
}

// LiveOrders returns the pending and open orders, oldest first.
func (e *Engine) LiveOrders() []domain.Order {
	out := make([]domain.Order, 0, len(e.live))
	for _, o := range e.live {
		out = append(out, o)
	}
	sortOldestFirst(out)
	return out
}

// EachLive calls fn with every pending and open order, in no particular
// order and without copying the book (a backtest reads its few resting
// orders' prices after every event).
func (e *Engine) EachLive(fn func(o *domain.Order)) {
	for _, o := range e.live {
		fn(&o)
	}
}

// LiveOrder returns a live order by id.
func (e *Engine) LiveOrder(id string) (domain.Order, bool) {
	o, ok := e.live[id]
	return o, ok
}

// ForgetQuotes drops the quotes seen: the market changed, and until the new
// one quotes a symbol no order takes at the old market's price.
func (e *Engine) ForgetQuotes() { e.quotes = map[string]Quote{} }

// Quote returns the last quote seen for symbol.
func (e *Engine) Quote(symbol string) (Quote, bool) {
	q, ok := e.quotes[symbol]
	return q, ok
}

func (e *Engine) newID(kind string) string {
	if e.cfg.NewID != nil {
		return e.cfg.NewID(kind)
	}
	e.ids++
	return kind + "-" + strconv.FormatUint(e.ids, 10)
}

// rest puts a live order into its book.
func (e *Engine) rest(o domain.Order) {
	b := e.books[o.Symbol]
	if b == nil {
		return
	}
	e.seq++
	switch {
	case o.Type == domain.Limit && o.Side == domain.Buy:
		b.buyLimits.add(o.ID, *o.Price, e.seq)
	case o.Type == domain.Limit:
		b.sellLimits.add(o.ID, *o.Price, e.seq)
	case o.Type.IsStop() && o.StopPrice == nil:
		// A trailing stop not yet activated has no trigger: it waits in
		// the trailing index (OnQuote) and rests once it has one.
	case o.Type.IsStop() && o.Side == domain.Sell:
		b.sellStops.add(o.ID, *o.StopPrice, e.seq)
	case o.Type.IsStop():
		b.buyStops.add(o.ID, *o.StopPrice, e.seq)
	}
}

// unrest takes an order out of every book.
func (e *Engine) unrest(o domain.Order) {
	if b := e.books[o.Symbol]; b != nil {
		for _, bk := range b.all() {
			bk.remove(o.ID)
		}
	}
}

// key is the price an order rests at in its book.
func key(o domain.Order) decimal.Decimal {
	if o.Type.IsStop() {
		if o.StopPrice == nil { // a trailing stop not yet activated
			return decimal.Zero
		}
		return *o.StopPrice
	}
	return *o.Price
}

// HoldsReconcile checks the ledger's central invariant: each currency's hold
// equals the sum of its live orders' holds. It returns one line per mismatch.
func (e *Engine) HoldsReconcile() []string {
	want := map[string]decimal.Decimal{}
	for _, o := range e.live {
		if c := o.HoldCurrency(); c != "" {
			want[c] = want[c].Add(o.Hold)
		}
	}
	var out []string
	for cur, b := range e.balances {
		if !b.Hold.Equal(want[cur]) {
			out = append(out, fmt.Sprintf("%s hold %s, live orders hold %s", cur, b.Hold, want[cur]))
		}
		delete(want, cur)
	}
	for cur, w := range want {
		if !w.IsZero() {
			out = append(out, fmt.Sprintf("%s hold 0, live orders hold %s", cur, w))
		}
	}
	sort.Strings(out)
	return out
}

// Reconcile makes every currency's hold the sum of its live orders' holds,
// moving the difference to available (after a restart on a journal written
// by an older build, or with holds lost to a fault). It returns the change.
func (e *Engine) Reconcile(now time.Time) Change {
	t := e.begin(now)
	want := map[string]decimal.Decimal{}
	for _, o := range e.live {
		if c := o.HoldCurrency(); c != "" {
			want[c] = want[c].Add(o.Hold)
		}
	}
	for cur, b := range e.balances {
		if d := want[cur].Sub(b.Hold); !d.IsZero() {
			t.adjust(cur, d.Neg(), d)
		}
	}
	return t.apply()
}

// Balance returns one currency's funds (zero when never funded).
func (e *Engine) Balance(currency string) domain.Balance {
	if b, ok := e.balances[currency]; ok {
		return b
	}
	return domain.Balance{Currency: currency, Available: decimal.Zero, Hold: decimal.Zero}
}

// Position returns one symbol's position book.
func (e *Engine) Position(symbol string) domain.PositionBook {
	if p, ok := e.positions[symbol]; ok {
		return p
	}
	return domain.NewPositionBook(symbol)
}

// LiveCount is how many orders are pending or open.
func (e *Engine) LiveCount() int { return len(e.live) }
