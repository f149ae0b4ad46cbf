package ws

import (
	"encoding/json"
	"slices"
	"testing"
)

// FuzzClientMessage: any message a client sends gets one JSON reply, an ack
// or an error with a message; subscriptions only ever hold known channels and
// symbols. It never panics.
func FuzzClientMessage(f *testing.F) {
	for _, s := range []string{
		`{"action":"subscribe","channels":["ticker","trades","alerts","signals"],"symbols":["BTC-USD"]}`,
		`{"action":"unsubscribe","channels":["matches"],"symbols":["ETH-USD"]}`,
		`{"action":"ping"}`,
		`{"action":"subscribe","channels":["nope"]}`,
		`{"action":"subscribe","symbols":["DOGE-USD"]}`,
		`{"action":7}`, `[]`, `null`, ``, `{"action":"subscribe","channels":null,"symbols":[null]}`,
	} {
		f.Add([]byte(s))
	}
	known := []string{"BTC-USD", "ETH-USD", "SOL-USD", "ADA-USD"}
	valid := func(s string) bool { return slices.Contains(known, s) }
	f.Fuzz(func(t *testing.T, raw []byte) {
		c := &client{channels: map[string]bool{}, symbols: map[string]bool{}}
		for range 2 { // a second message applies on top of the first's state
			var reply struct {
				Type    string `json:"type"`
				Message string `json:"message"`
			}
			if err := json.Unmarshal(c.handle(raw, valid), &reply); err != nil {
				t.Fatalf("reply is not JSON: %v", err)
			}
			if reply.Type != "ack" && (reply.Type != "error" || reply.Message == "") {
				t.Fatalf("reply %+v is neither an ack nor an error with a message", reply)
			}
		}
		for ch := range c.channels {
			if !ValidChannel(ch) {
				t.Fatalf("subscribed to unknown channel %q", ch)
			}
		}
		for s := range c.symbols {
			if !valid(s) {
				t.Fatalf("subscribed to unknown symbol %q", s)
			}
		}
	})
}
