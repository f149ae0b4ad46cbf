package storetest

import "testing"

// part is one named case of a contract, run on a store of type S.
type part[S any] struct {
	name string
	fn   func(*testing.T, S)
}

// runParts runs each part as a subtest on the store that store gives it
// (a fresh one, or the same for all).
func runParts[S any](t *testing.T, store func(*testing.T) S, parts []part[S]) {
	for _, p := range parts {
		t.Run(p.name, func(t *testing.T) { p.fn(t, store(t)) })
	}
}
