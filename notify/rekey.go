package notify

import (
	"context"
	"fmt"

	"kestrel/domain"
)

// Rekey re-seals every channel's secret from old to next (kestrel rekey)
// and returns how many it changed. Every secret is opened before any is
// written, so a secret the old key cannot open changes nothing.
func Rekey(ctx context.Context, store domain.NotifyStore, old, next Sealer) (int, error) {
	chans, err := store.NotifyChannels(ctx, "")
	if err != nil {
		return 0, err
	}
	for i, c := range chans {
		plain, err := old.Open(SecretField, c.Secret)
		if err != nil {
			return 0, fmt.Errorf("notification channel %s: the current key does not open its secret: %w", c.ID, err)
		}
		if chans[i].Secret, err = next.Seal(SecretField, plain); err != nil {
			return 0, err
		}
	}
	for i, c := range chans {
		if err := store.UpdateNotifyChannel(ctx, c); err != nil {
			return i, fmt.Errorf("notification channel %s: %w", c.ID, err)
		}
	}
	return len(chans), nil
}
