package venue

import (
	"testing"

	"kestrel/exchange/sandbox"
	"kestrel/settings"
)

// A venue is the one the settings select when a switch would change
// nothing: the paper venue whatever its key, on the same market source;
// Coinbase with the very same key. Paper on live prices is rebuilt when the
// timeout or rate limit of its Coinbase feed changes.
func TestSelected(t *testing.T) {
	replay := &Venue{Key: settings.Exchange{Provider: "sandbox"}, MarketSource: "replay"}
	live := &Venue{Key: settings.Exchange{Provider: "sandbox"}, MarketSource: "coinbase"}
	cb := &Venue{Key: settings.Exchange{Provider: "coinbase", APIKey: "k"}, MarketSource: "coinbase"}
	api := func(provider, key, source string) settings.API {
		var a settings.API
		a.Exchange.Provider, a.Exchange.APIKey, a.MarketData.Source = provider, key, source
		return a
	}
	withFeed := func(a settings.API, timeout, rate int) settings.API {
		a.Exchange.Timeout, a.Exchange.RateLimit = timeout, rate
		return a
	}
	feed := func(timeout, rate int) settings.API { return withFeed(api("sandbox", "", "coinbase"), timeout, rate) }
	for _, c := range []struct {
		name string
		v    *Venue
		api  settings.API
		want bool
	}{
		{"paper on the replay", replay, api("sandbox", "", "replay"), true},
		{"paper ignores the key", replay, api("sandbox", "other", "replay"), true},
		{"paper to live prices", replay, api("sandbox", "", "coinbase"), false},
		{"live prices to the replay", live, api("sandbox", "", "replay"), false},
		{"paper to Coinbase", replay, api("coinbase", "k", "replay"), false},
		{"same Coinbase key", cb, api("coinbase", "k", "replay"), true},
		{"another Coinbase key", cb, api("coinbase", "k2", "coinbase"), false},
		{"Coinbase to paper", cb, api("sandbox", "", "coinbase"), false},
		{"live prices, same feed settings", live, feed(0, 0), true},
		{"live prices, another timeout", live, feed(5000, 0), false},
		{"live prices, another rate limit", live, feed(0, 3), false},
		{"the replay ignores the feed settings", replay, withFeed(api("sandbox", "", "replay"), 5000, 3), true},
	} {
		if got := c.v.Selected(c.api); got != c.want {
			t.Errorf("%s: Selected = %v, want %v", c.name, got, c.want)
		}
	}
	relive := &Venue{Paper: &sandbox.Sandbox{}, MarketSource: "coinbase"}
	live.Paper = relive.Paper
	if !live.SameAccount(relive) || live.SameAccount(&Venue{Paper: relive.Paper, MarketSource: "replay"}) || cb.SameAccount(cb) {
		t.Error("SameAccount: only the paper engine on the same market")
	}
	if replay.Scope().Venue != "paper-replay" || live.Scope().Venue != "paper-live" || cb.Scope().Venue != "coinbase" {
		t.Errorf("scopes %v %v %v", replay.Scope(), live.Scope(), cb.Scope())
	}
}
