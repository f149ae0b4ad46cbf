package settings

import (
	"context"
	"encoding/json"
	"fmt"

	"kestrel/domain"
)

// Reload reads the platform settings from the store again: in a cluster,
// an instance does so when another one saved a change.
func (s *Service) Reload(ctx context.Context) error {
	p := Defaults()
	raw, err := s.kv.GetValue(ctx, kvPlatform)
	switch {
	case domain.ErrorCode(err) == domain.ENotFound:
	case err != nil:
		return err
	default:
		if err := json.Unmarshal([]byte(raw), &p); err != nil {
			return fmt.Errorf("stored settings are corrupt: %w", err)
		}
		if err := s.openSecrets(&p); err != nil {
			return err
		}
	}
	s.mu.Lock()
	s.platform = p
	s.mu.Unlock()
	return nil
}
