package coinbase

import "container/list"

// lru is a map that keeps at most max entries, dropping the least recently
// used: the adapter's memory of orders stays bounded however long it runs.
type lru[K comparable, V any] struct {
	max int
	ll  *list.List // front: most recently used
	m   map[K]*list.Element
}

type lruEntry[K comparable, V any] struct {
	k K
	v V
}

func newLRU[K comparable, V any](max int) *lru[K, V] {
	return &lru[K, V]{max: max, ll: list.New(), m: map[K]*list.Element{}}
}

// Get returns k's value and marks it used.
func (c *lru[K, V]) Get(k K) (V, bool) {
	e, ok := c.m[k]
	if !ok {
		var zero V
		return zero, false
	}
	c.ll.MoveToFront(e)
	return e.Value.(*lruEntry[K, V]).v, true
}

// Put sets k's value, dropping the least recently used entry when full.
func (c *lru[K, V]) Put(k K, v V) {
	if e, ok := c.m[k]; ok {
		e.Value.(*lruEntry[K, V]).v = v
		c.ll.MoveToFront(e)
		return
	}
	c.m[k] = c.ll.PushFront(&lruEntry[K, V]{k, v})
	for c.ll.Len() > c.max {
		old := c.ll.Back()
		c.ll.Remove(old)
		delete(c.m, old.Value.(*lruEntry[K, V]).k)
	}
}

// Delete forgets k.
func (c *lru[K, V]) Delete(k K) {
	if e, ok := c.m[k]; ok {
		c.ll.Remove(e)
		delete(c.m, k)
	}
}

// Len is the number of entries.
func (c *lru[K, V]) Len() int { return c.ll.Len() }
