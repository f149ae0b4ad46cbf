package coinbase

// MemorySizes reports how much the adapter remembers: live and finished
// orders, order details, client ids and fill ids.
func MemorySizes(x *Exchange) (live, closed, meta, clients, seen int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return len(x.live), x.closed.Len(), x.meta.Len(), x.byClient.Len(), len(x.seen)
}
