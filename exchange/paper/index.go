package paper

import (
	"sort"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// index keeps what the risk check and the one-cancels-other groups ask of
// the live orders, updated as orders go live, change and leave, so neither
// walks (or sorts) the whole book on every order.
type index struct {
	buyExposure map[string]decimal.Decimal     // per symbol: remaining x price of live BUYs
	protective  map[string]map[string]struct{} // per symbol: live SELLs Kestrel attached (ParentID set)
	groups      map[string]map[string]struct{} // per group id: its live members
	trailing    map[string]map[string]struct{} // per symbol: live trailing stops
}

func newIndex() index {
	return index{buyExposure: map[string]decimal.Decimal{}, protective: map[string]map[string]struct{}{}, groups: map[string]map[string]struct{}{},
		trailing: map[string]map[string]struct{}{}}
}

// exposure is what a live BUY adds if it fills: its remainder at its limit
// (or stop) price; zero for anything else.
func exposure(o domain.Order) decimal.Decimal {
	if o.Side != domain.Buy {
		return decimal.Zero
	}
	px := o.Price
	if o.Type.IsStop() {
		px = o.StopPrice
	}
	if px == nil && o.Type == domain.TrailingStop && o.Trail != nil {
		// Not yet activated: valued at its activation price, the nearest
		// price it can start trailing from.
		px = o.Trail.Activation
	}
	if px == nil {
		return decimal.Zero
	}
	return o.Remaining().Mul(*px)
}

func addTo(m map[string]map[string]struct{}, key, id string) {
	if m[key] == nil {
		m[key] = map[string]struct{}{}
	}
	m[key][id] = struct{}{}
}

func removeFrom(m map[string]map[string]struct{}, key, id string) {
	delete(m[key], id)
	if len(m[key]) == 0 {
		delete(m, key)
	}
}

// track adds a live order to the index; untrack takes it out.
func (e *Engine) track(o domain.Order) {
	if x := exposure(o); !x.IsZero() {
		e.idx.buyExposure[o.Symbol] = e.idx.buyExposure[o.Symbol].Add(x)
	}
	if o.Side == domain.Sell && o.ParentID != "" {
		addTo(e.idx.protective, o.Symbol, o.ID)
	}
	if o.GroupID != "" {
		addTo(e.idx.groups, o.GroupID, o.ID)
	}
	if o.Type == domain.TrailingStop {
		addTo(e.idx.trailing, o.Symbol, o.ID)
	}
}

func (e *Engine) untrack(o domain.Order) {
	if x := exposure(o); !x.IsZero() {
		if v := e.idx.buyExposure[o.Symbol].Sub(x); v.IsZero() {
			delete(e.idx.buyExposure, o.Symbol)
		} else {
			e.idx.buyExposure[o.Symbol] = v
		}
	}
	if o.Side == domain.Sell && o.ParentID != "" {
		removeFrom(e.idx.protective, o.Symbol, o.ID)
	}
	if o.GroupID != "" {
		removeFrom(e.idx.groups, o.GroupID, o.ID)
	}
	if o.Type == domain.TrailingStop {
		removeFrom(e.idx.trailing, o.Symbol, o.ID)
	}
}

// BuyExposure is, per symbol, what the live BUY orders add if they fill
// (remaining quantity x limit or stop price).
func (e *Engine) BuyExposure() map[string]decimal.Decimal {
	out := make(map[string]decimal.Decimal, len(e.idx.buyExposure))
	for k, v := range e.idx.buyExposure {
		out[k] = v
	}
	return out
}

// ProtectiveOrders lists symbol's live SELLs that protect a BUY (ParentID
// set), oldest first.
func (e *Engine) ProtectiveOrders(symbol string) []domain.Order {
	return e.ordersOf(e.idx.protective[symbol])
}

// groupLive lists a group's live orders, oldest first.
func (e *Engine) groupLive(group string) []domain.Order {
	return e.ordersOf(e.idx.groups[group])
}

func (e *Engine) ordersOf(ids map[string]struct{}) []domain.Order {
	out := make([]domain.Order, 0, len(ids))
	for id := range ids {
		out = append(out, e.live[id])
	}
	sortOldestFirst(out)
	return out
}

func sortOldestFirst(out []domain.Order) {
	if len(out) < 2 {
		return
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].CreatedAt.Before(out[j].CreatedAt)
		}
		return out[i].ID < out[j].ID
	})
}
