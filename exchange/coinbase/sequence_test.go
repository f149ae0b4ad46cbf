package coinbase

import "testing"

// Coinbase numbers a connection's messages one up: more than one up is a
// gap (messages lost); at or below the highest seen is out of order and
// ignored, without moving the mark back.
func TestSequence(t *testing.T) {
	var s sequence
	for i, c := range []struct {
		n    int64
		want seqState
	}{{5, seqNext}, {6, seqNext}, {8, seqGap}, {7, seqLate}, {8, seqLate}, {9, seqNext}, {12, seqGap}, {13, seqNext}} {
		if got := s.next(c.n); got != c.want {
			t.Fatalf("message %d (seq %d): %v, want %v", i, c.n, got, c.want)
		}
	}
}
