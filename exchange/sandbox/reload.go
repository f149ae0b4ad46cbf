package sandbox

import "context"

// Invalidate makes the next read rebuild the ledger from the journal: in a
// cluster, an instance that does not run the engine calls it when the
// leader reports a change, so its reads show the leader's commits.
func (s *Sandbox) Invalidate() {
	s.mu.Lock()
	s.stale = true
	s.knownComplete = false // another instance journals: its client order ids are not in known
	s.mu.Unlock()
}

// Restore rebuilds the ledger from the journal as a start does (holds
// reconciled with the live orders): a new leader calls it before matching.
func (s *Sandbox) Restore(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.restore(ctx, true)
}

// Receivers counts the live Updates channels: a new cluster leader waits
// for its engine loops to be listening before it accepts commands, so no
// fill goes unannounced.
func (s *Sandbox) Receivers() int {
	return s.updates.Receivers()
}
