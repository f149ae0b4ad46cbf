package risk

import "testing"

func TestScopeKeysDiffer(t *testing.T) {
	if a, b := (Scope{Venue: "paper-replay"}).Key(), (Scope{Venue: "coinbase"}).Key(); a == b || a != "venue=paper-replay" {
		t.Fatalf("keys %q and %q", a, b)
	}
}
