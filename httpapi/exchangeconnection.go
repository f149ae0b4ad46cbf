package httpapi

import (
	"context"
	"time"

	"kestrel/settings"
)

// exchangeConnection tests an exchange connection for real: the adapter
// reads the accounts with the entered key and the answer (or the
// exchange's refusal) is reported. A masked key or secret means the saved
// one, which is only sent along with the saved key name.
func (s *Server) exchangeConnection(ctx context.Context, in settings.Exchange) connection {
	if s.d.ExchangeTest == nil {
		return connection{in.Provider, "Failed", "The " + in.Provider + " exchange adapter is not available in this build"}
	}
	saved := s.d.Settings.Platform().API.Exchange
	if settings.IsMask(in.APIKey) {
		if saved.Provider != in.Provider {
			return connection{in.Provider, "Failed", "Enter the API key to test this provider"}
		}
		in.APIKey = saved.APIKey
	}
	if settings.IsMask(in.APISecret) {
		if saved.Provider != in.Provider || saved.APIKey != in.APIKey {
			return connection{in.Provider, "Failed", "The saved API secret is only sent with the saved key; enter the secret to test this key"}
		}
		in.APISecret = saved.APISecret
	}
	timeout := connectionTimeout(ctx, in.Timeout, 30*time.Second)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	msg, err := s.d.ExchangeTest(ctx, in)
	if err != nil {
		return connection{in.Provider, "Failed", exchangeFailure(ctx, err, timeout)}
	}
	return connection{in.Provider, "Connected", msg}
}
