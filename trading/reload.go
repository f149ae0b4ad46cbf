package trading

import (
	"context"
	"encoding/json"
	"fmt"

	"kestrel/domain"
)

// Reload reads again what the gateway keeps in memory (the emergency stop,
// the day's order count, the start-of-day and peak values): a new leader
// of a cluster, or an instance told that the leader changed the stop,
// calls it.
func (s *Service) Reload(ctx context.Context) error {
	var h HaltState
	raw, err := s.d.Store.GetValue(ctx, kvHalt)
	switch {
	case err == nil:
		if err := json.Unmarshal([]byte(raw), &h); err != nil {
			return fmt.Errorf("read emergency stop state: %w", err)
		}
	case domain.ErrorCode(err) != domain.ENotFound:
		return err
	}
	s.hmu.Lock()
	s.halt = h
	s.hmu.Unlock()
	s.mu.Lock()
	s.today.Forget()
	s.mu.Unlock()
	s.ReloadMarks() // the start-of-day and peak values, read again on next use
	return nil
}
