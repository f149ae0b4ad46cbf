package ws

import "sort"

// The feed set decides which symbols' ticker and trade frames the server
// publishes at all (POST /api/market-data/websocket/subscribe and
// /unsubscribe change it); a client's own subscription then filters further.

// SetFeed turns publishing of channels for symbols on or off.
func (h *Hub) SetFeed(symbols, channels []string, on bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.feed == nil {
		h.feed = map[string]map[string]bool{}
	}
	for _, s := range symbols {
		if h.feed[s] == nil {
			h.feed[s] = map[string]bool{}
		}
		for _, c := range channels {
			c = canonical(c)
			if on {
				h.feed[s][c] = true
			} else {
				delete(h.feed[s], c)
			}
		}
	}
}

// Feed lists, per symbol, the channels the server publishes.
func (h *Hub) Feed() map[string][]string {
	h.mu.RLock()
	defer h.mu.RUnlock()
	out := map[string][]string{}
	for s, chans := range h.feed {
		list := []string{}
		for c := range chans {
			list = append(list, c)
		}
		sort.Strings(list)
		out[s] = list
	}
	return out
}

// ValidChannel reports whether name is a channel (or alias) clients may use.
func ValidChannel(name string) bool { _, ok := channelAliases[name]; return ok }

func canonical(name string) string {
	if c, ok := channelAliases[name]; ok {
		return c
	}
	return name
}

// published reports whether the feed set lets frames of channel for symbol out;
// call with h.mu held. Frames without a symbol (alerts) always pass.
func (h *Hub) published(channel, symbol string) bool {
	// The feed switches tickers and trades only; the book is published
	// only while the market is live, whatever the feed.
	if symbol == "" || channel == ChannelAlerts || channel == ChannelSignals || channel == ChannelOrderBook {
		return true
	}
	return h.feed[symbol][channel]
}
