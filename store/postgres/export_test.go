package postgres

import "time"

// SetAfterFence makes every fenced ledger commit of s call f once it holds
// the fence row, before it commits (the fence tests hold it there).
func SetAfterFence(s *Store, f func()) { s.afterFence = f }

// SetFenceGrace replaces FenceGrace for s's takeovers.
func SetFenceGrace(s *Store, d time.Duration) { s.fenceGrace = d }
