package httpapi

import (
	"context"
	"time"

	"kestrel/ai"
	"kestrel/settings"
)

// aiConnection asks the entered AI provider a tiny real question, bounded by
// the entered api.ai.timeout rather than the API request timeout. A masked
// token means the saved one, which is only ever sent to the saved provider
// and endpoint, so a changed endpoint cannot collect it.
func (s *Server) aiConnection(ctx context.Context, in settings.AIProvider) connection {
	provider := in.Provider
	if provider == "" {
		provider = ai.ProviderBuiltin
	}
	if settings.IsMask(in.APIToken) {
		saved := s.d.Settings.Platform().API.AI
		if saved.Provider != in.Provider || saved.BaseURL != in.BaseURL {
			return connection{provider, "Failed", "The saved API token is only sent to the saved provider and endpoint; enter the token to test this one"}
		}
		in.APIToken = saved.APIToken
	}
	timeout := time.Duration(in.Timeout) * time.Millisecond
	if timeout <= 0 {
		timeout = ai.DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	defer cancel()
	err := ai.Test(ctx, ai.Config{Provider: in.Provider, APIToken: in.APIToken, BaseURL: in.BaseURL, Model: in.Model, Timeout: timeout})
	switch {
	case err != nil:
		return connection{provider, "Failed", err.Error()}
	case provider == ai.ProviderBuiltin:
		return connection{provider, "Connected", "The built-in analyst is running (offline)"}
	}
	p, _ := ai.New(ai.Config{Provider: in.Provider, BaseURL: in.BaseURL, Model: in.Model})
	return connection{provider, "Connected", "The model " + p.ModelLabel(in.Model) + " answered with a usable decision"}
}
