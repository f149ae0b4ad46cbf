package paper

import (
	"container/heap"
	"sort"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// entry is a resting order in a book, keyed by its trigger price.
type entry struct {
	id    string
	key   decimal.Decimal
	seq   uint64 // arrival order: time priority among equal prices
	index int
}

// book is a heap of resting orders; high books pop the highest key first.
// Each tick pops only the orders that cross, so matching costs O(log n) per
// event in the number of resting orders.
type book struct {
	high    bool
	entries []*entry
	byID    map[string]*entry
}

func newBook(high bool) *book { return &book{high: high, byID: map[string]*entry{}} }

func (b *book) Len() int { return len(b.entries) }
func (b *book) Less(i, j int) bool {
	c := domain.Cmp(b.entries[i].key, b.entries[j].key)
	if c == 0 {
		return b.entries[i].seq < b.entries[j].seq
	}
	if b.high {
		return c > 0
	}
	return c < 0
}
func (b *book) Swap(i, j int) {
	b.entries[i], b.entries[j] = b.entries[j], b.entries[i]
	b.entries[i].index, b.entries[j].index = i, j
}
func (b *book) Push(x any) {
	e := x.(*entry)
	e.index = len(b.entries)
	b.entries = append(b.entries, e)
}
func (b *book) Pop() any {
	n := len(b.entries)
	e := b.entries[n-1]
	b.entries = b.entries[:n-1]
	return e
}

func (b *book) add(id string, key decimal.Decimal, seq uint64) {
	e := &entry{id: id, key: key, seq: seq}
	heap.Push(b, e)
	b.byID[id] = e
}

func (b *book) remove(id string) {
	if e, ok := b.byID[id]; ok {
		heap.Remove(b, e.index)
		delete(b.byID, id)
	}
}

// books are one symbol's resting orders.
type books struct {
	buyLimits  *book // fill when price <= limit: highest limit first
	sellLimits *book // fill when price >= limit: lowest limit first
	sellStops  *book // trigger when price <= stop: highest stop first
	buyStops   *book // trigger when price >= stop: lowest stop first
}

func newBooks() *books {
	return &books{buyLimits: newBook(true), sellLimits: newBook(false), sellStops: newBook(true), buyStops: newBook(false)}
}

// crossing returns every entry that triggers at price, best first, without
// changing the book. The entries that trigger form a subtree at the heap's
// root (a child never triggers before its parent), so this costs O(k log k)
// for k hits, whatever the size of the book.
func (b *book) crossing(price decimal.Decimal) []*entry {
	var out []*entry
	var walk func(i int)
	walk = func(i int) {
		if i >= len(b.entries) {
			return
		}
		e := b.entries[i]
		if c := domain.Cmp(price, e.key); b.high && c > 0 || !b.high && c < 0 {
			return
		}
		out = append(out, e)
		walk(2*i + 1)
		walk(2*i + 2)
	}
	walk(0)
	if len(out) < 2 {
		return out // nothing to order (and no sorting to set up)
	}
	sort.Slice(out, func(i, j int) bool {
		x, y := out[i], out[j]
		if c := domain.Cmp(x.key, y.key); c != 0 {
			return c > 0 == b.high
		}
		return x.seq < y.seq
	})
	return out
}

func (b *books) all() []*book { return []*book{b.buyLimits, b.sellLimits, b.sellStops, b.buyStops} }
