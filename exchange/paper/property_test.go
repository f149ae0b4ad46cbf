package paper_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/candles"
	"kestrel/domain"
	"kestrel/exchange/paper"
)

// ledger is what the fills say the account must hold, kept independently
// of the engine: USD = start - buys - fees + sells; base = buys - sells.
type ledger struct {
	usd  decimal.Decimal
	base map[string]decimal.Decimal
	seen map[string]bool
}

func (l *ledger) book(c paper.Change) {
	for _, f := range c.Fills {
		if l.seen[f.ID] {
			continue
		}
		l.seen[f.ID] = true
		n := f.Quantity.Mul(f.Price)
		sym := domain.Base(f.Symbol)
		if f.Side == domain.Buy {
			l.usd = l.usd.Sub(n).Sub(f.Fee)
			l.base[sym] = l.base[sym].Add(f.Quantity)
		} else {
			l.usd = l.usd.Add(n).Sub(f.Fee)
			l.base[sym] = l.base[sym].Sub(f.Quantity)
		}
	}
}

// check asserts the engine's invariants after a step.
func check(t *testing.T, step string, e *paper.Engine, l *ledger) {
	t.Helper()
	bal := map[string]domain.Balance{}
	for _, b := range e.Balances() {
		bal[b.Currency] = b
		if b.Available.IsNegative() || b.Hold.IsNegative() {
			t.Fatalf("%s: %s negative: available %s hold %s", step, b.Currency, b.Available, b.Hold)
		}
	}
	if bad := e.HoldsReconcile(); len(bad) > 0 {
		t.Fatalf("%s: holds do not reconcile: %v", step, bad)
	}
	// The index the risk check reads agrees with the book.
	exp, prot := map[string]decimal.Decimal{}, map[string]int{}
	for _, o := range e.LiveOrders() {
		if o.Side == domain.Buy {
			px := o.Price
			if o.Type == domain.StopLoss {
				px = o.StopPrice
			}
			exp[o.Symbol] = exp[o.Symbol].Add(o.Remaining().Mul(*px))
		}
		if o.Side == domain.Sell && o.ParentID != "" {
			prot[o.Symbol]++
		}
	}
	got := e.BuyExposure()
	for _, sym := range symbols {
		if !got[sym].Equal(exp[sym]) {
			t.Fatalf("%s: %s buy exposure index %s, live orders %s", step, sym, got[sym], exp[sym])
		}
		if n := len(e.ProtectiveOrders(sym)); n != prot[sym] {
			t.Fatalf("%s: %s protective index %d, live orders %d", step, sym, n, prot[sym])
		}
	}
	if got := bal["USD"].Total(); !got.Equal(l.usd) {
		t.Fatalf("%s: USD total %s, fills say %s", step, got, l.usd)
	}
	pos := map[string]decimal.Decimal{}
	for _, p := range e.Positions() {
		pos[p.Symbol] = p.Quantity
	}
	for cur, q := range l.base {
		if got := bal[cur].Total(); !got.Equal(q) {
			t.Fatalf("%s: %s total %s, fills say %s", step, cur, got, q)
		}
		if got := pos[cur+"-USD"]; !got.Equal(q) {
			t.Fatalf("%s: %s position %s, fills say %s", step, cur, got, q)
		}
	}
}

var symbols = []string{"BTC-USD", "ETH-USD", "ADA-USD"}
var mid = map[string]float64{"BTC-USD": 60000, "ETH-USD": 3000, "ADA-USD": 0.45}

func price(r *rand.Rand, sym string, around float64) decimal.Decimal {
	step := candles.PriceIncrement(sym)
	p := decimal.NewFromFloat(around * (0.97 + 0.06*r.Float64()))
	return p.Div(step).Round(0).Mul(step)
}

func qty(r *rand.Rand, sym string) decimal.Decimal {
	usd := 50 + r.Float64()*4000
	return decimal.NewFromFloat(usd / mid[sym]).Round(8)
}

// TestEngineInvariants drives the engine with random command and quote
// sequences and checks the ledger after every step.
func TestEngineInvariants(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 8
	}
	for seed := 1; seed <= seeds; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) { runRandom(t, uint64(seed), 400) })
	}
}

func runRandom(t *testing.T, seed uint64, steps int) {
	r := rand.New(rand.NewPCG(seed, 7))
	fees := []string{"0", "0.004", "0.006"}
	e := paper.New(paper.Config{Products: candles.Products(), TakerFee: decimal.RequireFromString(fees[r.IntN(3)]),
		MakerFee: decimal.RequireFromString(fees[r.IntN(3)]), MaxFillPerQuote: decimal.NewFromFloat(r.Float64() * 0.05).Round(8)})
	start := decimal.NewFromInt(100_000)
	l := &ledger{usd: start, base: map[string]decimal.Decimal{}, seen: map[string]bool{}}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	e.Deposit("USD", start)
	last := map[string]float64{}
	quote := func(sym string) {
		p := price(r, sym, mid[sym])
		last[sym] = p.InexactFloat64()
		lo, hi := price(r, sym, last[sym]*0.995), price(r, sym, last[sym]*1.005)
		lo, hi = decimal.Min(lo, p), decimal.Max(hi, p)
		half := p.Mul(decimal.RequireFromString("0.0001"))
		l.book(e.OnQuote(now, paper.Quote{Symbol: sym, Last: p, Bid: p.Sub(half), Ask: p.Add(half), Low: lo, High: hi}))
	}
	for _, s := range symbols {
		quote(s)
	}
	group := 0
	for i := 0; i < steps; i++ {
		now = now.Add(time.Second)
		sym := symbols[r.IntN(len(symbols))]
		side := []domain.Side{domain.Buy, domain.Sell}[r.IntN(2)]
		var step string
		switch k := r.IntN(10); {
		case k < 3:
			quote(sym)
			step = "quote " + sym
		case k < 5:
			req := domain.OrderRequest{Symbol: sym, Side: side, Type: domain.Limit, Quantity: qty(r, sym)}
			p := price(r, sym, last[sym])
			req.Price = &p
			if side == domain.Sell && r.IntN(3) == 0 {
				group++
				req.GroupID = fmt.Sprint(sym, "g", group%4)
			}
			_, c, _ := e.Place(now, req)
			l.book(c)
			step = fmt.Sprintf("limit %s %s %s @ %s", side, req.Quantity, sym, p)
		case k < 6:
			req := domain.OrderRequest{Symbol: sym, Side: side, Type: domain.StopLoss, Quantity: qty(r, sym)}
			p := price(r, sym, last[sym])
			req.StopPrice = &p
			if side == domain.Sell && r.IntN(2) == 0 {
				req.GroupID = fmt.Sprint(sym, "g", group%4)
			}
			_, c, _ := e.Place(now, req)
			l.book(c)
			step = fmt.Sprintf("stop %s %s %s @ %s", side, req.Quantity, sym, p)
		case k < 7:
			_, c, _ := e.Place(now, domain.OrderRequest{Symbol: sym, Side: side, Type: domain.Market, Quantity: qty(r, sym)})
			l.book(c)
			step = "market " + string(side) + " " + sym
		case k < 8:
			if live := e.LiveOrders(); len(live) > 0 {
				o := live[r.IntN(len(live))]
				_, c, _ := e.Cancel(now, o.ID, "")
				l.book(c)
				step = "cancel " + o.ID
			}
		default:
			if live := e.LiveOrders(); len(live) > 0 {
				o := live[r.IntN(len(live))]
				q := qty(r, o.Symbol)
				p := price(r, o.Symbol, last[o.Symbol])
				_, c, _ := e.Modify(now, o.ID, &q, &p)
				l.book(c)
				step = fmt.Sprintf("modify %s to %s @ %s", o.ID, q, p)
			}
		}
		check(t, fmt.Sprintf("step %d (%s)", i, step), e, l)
	}
}
