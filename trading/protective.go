package trading

import (
	"math/bits"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// Protective orders are priced and sized by one rule, here: live and paper
// trading (Service.Protect) and both of a backtest's paths (its engine
// path and its fast ledger) call ProtectiveOrders.

// Protection is what a Policy asks to put under each BUY fill, ready to
// price any number of fills (a backtest prices thousands).
type Protection struct {
	stopLoss, trailing, takeProfit bool
	below, above                   decimal.Decimal // 1 - stopLossPercent, 1 + takeProfitPercent
	trailPct                       decimal.Decimal // stopLossPercent x 100
}

// Protection is the policy's protective orders: a stop-loss when StopLoss
// is on with a positive percent (trailing with TrailingStop), a
// take-profit when TakeProfit is on with a positive percent.
func (p Policy) Protection() Protection {
	one := decimal.NewFromInt(1)
	return Protection{
		stopLoss:   p.StopLoss && p.StopLossPercent.IsPositive(),
		trailing:   p.TrailingStop,
		takeProfit: p.TakeProfit && p.TakeProfitPercent.IsPositive(),
		below:      one.Sub(p.StopLossPercent),
		above:      one.Add(p.TakeProfitPercent),
		trailPct:   p.StopLossPercent.Mul(decimal.NewFromInt(100)),
	}
}

// StopLossOnly reports whether the protection is a plain (not trailing)
// stop-loss and nothing else: the one shape a backtest's fast ledger books.
func (pr Protection) StopLossOnly() bool { return pr.stopLoss && !pr.trailing && !pr.takeProfit }

// ProtectiveFill is one BUY fill to protect.
type ProtectiveFill struct {
	// Parent is the BUY: the orders take its symbol, id, strategy, version
	// and user.
	Parent domain.Order
	// Key names the orders' one-cancels-other group, protect-Key, and,
	// with ClientIDs, their client order ids sl-Key and tp-Key.
	Key string
	// ClientIDs names the orders for the exchange. Live and paper trading
	// do: they protect a fill again after a restart (ProtectMissed) and the
	// exchange must see a retry as one. A backtest never retries and names
	// none (its reports show no client order ids).
	ClientIDs bool
	Price     decimal.Decimal // the fill's price
	Quantity  decimal.Decimal // the fill's quantity
	// Free is the base currency no order holds, now. Only what is still
	// held and free is protected: live, a SELL racing the protection may
	// have sold first. In a backtest nothing races: Free covers the fill.
	Free decimal.Decimal
	Step decimal.Decimal // the product's price increment
}

// ProtectiveOrders is the protective SELLs pr asks for under fill f, in one
// group: a stop-loss at f.Price x (1 - stopLossPercent) rounded down to the
// step (a trailing stop at stopLossPercent instead, with TrailingStop) and
// a take-profit limit at f.Price x (1 + takeProfitPercent) rounded up, each
// for min(f.Quantity, f.Free). None when that is not positive.
func ProtectiveOrders(pr Protection, f ProtectiveFill) []domain.OrderRequest {
	qty := ProtectiveQuantity(f.Quantity, f.Free)
	if !qty.IsPositive() {
		return nil
	}
	base := domain.OrderRequest{Symbol: f.Parent.Symbol, Side: domain.Sell, Quantity: qty, Strategy: f.Parent.Strategy,
		StrategyVersion: f.Parent.StrategyVersion, UserID: f.Parent.UserID, GroupID: "protect-" + f.Key, ParentID: f.Parent.ID}
	var reqs []domain.OrderRequest
	if pr.stopLoss {
		r := base
		if pr.trailing {
			pct := pr.trailPct
			r.Type, r.Trail = domain.TrailingStop, &domain.Trail{Percent: &pct}
		} else {
			stop := onGrid(f.Price, pr.below, f.Step, false)
			r.Type, r.StopPrice = domain.StopLoss, &stop
		}
		if f.ClientIDs {
			r.ClientOrderID = "sl-" + f.Key
		}
		reqs = append(reqs, r)
	}
	if pr.takeProfit {
		limit := onGrid(f.Price, pr.above, f.Step, true)
		r := base
		r.Type, r.Price = domain.Limit, &limit
		if f.ClientIDs {
			r.ClientOrderID = "tp-" + f.Key
		}
		reqs = append(reqs, r)
	}
	return reqs
}

// ProtectiveQuantity is what a fill's protective orders sell: the filled
// quantity, or the free base when less is free.
func ProtectiveQuantity(filled, free decimal.Decimal) decimal.Decimal {
	return decimal.Min(filled, free)
}

// onGrid is px x m on the grid of step, rounded down (up with ceil):
// px.Mul(m).Div(step).Floor().Mul(step) (Ceil), value and shape. It is
// computed in 64-bit integers where it can be (px, m >= 0 whose
// coefficients' product fits, a step that is a power of ten: the quotient
// then has at most 16 decimals, which Div keeps exactly), in decimals
// otherwise.
func onGrid(px, m, step decimal.Decimal, ceil bool) decimal.Decimal {
	if v, ok := onGridInt(px, m, step, ceil); ok {
		return v
	}
	q := px.Mul(m).Div(step)
	if ceil {
		return q.Ceil().Mul(step)
	}
	return q.Floor().Mul(step)
}

// pow10 are the powers of ten up to 10^19.
var pow10 = func() (p [20]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// onGridInt is onGrid in integers; ok is false where they cannot take it.
func onGridInt(px, m, step decimal.Decimal, ceil bool) (decimal.Decimal, bool) {
	if px.Sign() < 0 || m.Sign() < 0 || !step.IsPositive() || px.NumDigits() > 18 || m.NumDigits() > 18 || step.NumDigits() > 18 {
		return decimal.Decimal{}, false
	}
	hi, lo := bits.Mul64(uint64(px.CoefficientInt64()), uint64(m.CoefficientInt64()))
	if hi != 0 || lo > 1<<62 {
		return decimal.Decimal{}, false
	}
	x, e := int64(lo), px.Exponent()+m.Exponent()
	sc, es := step.CoefficientInt64(), step.Exponent()
	for sc%10 == 0 {
		sc, es = sc/10, es+1
	}
	if sc != 1 {
		return decimal.Decimal{}, false
	}
	// x x 10^e / 10^es in whole steps
	var n int64
	switch d := es - e; {
	case d <= 0:
		for ; d < 0; d++ {
			if x > (1<<62)/10 {
				return decimal.Decimal{}, false
			}
			x *= 10
		}
		n = x
	case d <= 16:
		p := int64(pow10[d])
		n = x / p
		if ceil && x%p != 0 {
			n++
		}
	default:
		return decimal.Decimal{}, false
	}
	c := step.CoefficientInt64()
	if n > (1<<62)/c {
		return decimal.Decimal{}, false
	}
	return decimal.New(n*c, step.Exponent()), true
}
