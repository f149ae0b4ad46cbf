package httpapi

import (
	"context"
	"strings"

	"kestrel/ai"
	"kestrel/settings"
)

// aiConnection asks the entered AI provider a tiny real question. An
// OpenAI-compatible endpoint is only called once saved (operators save it):
// the test never becomes a way to make the server call an address of the
// caller's choice. A masked token means the saved one, which is only ever
// sent to the saved provider and endpoint.
func (s *Server) aiConnection(ctx context.Context, in settings.AIProvider) (connection, error) {
	provider := in.Provider
	if provider == "" {
		provider = ai.ProviderBuiltin
	}
	saved := s.d.Settings.Platform().API.AI
	if provider == ai.ProviderOpenAI && (saved.Provider != in.Provider || saved.BaseURL != in.BaseURL) {
		return connection{}, fieldErr("settings.ai.baseUrl", "Save this endpoint before testing it: the connection test only calls the saved endpoint")
	}
	if settings.IsMask(in.APIToken) {
		if saved.Provider != in.Provider || saved.BaseURL != in.BaseURL {
			return connection{provider, "Failed", "The saved API token is only sent to the saved provider and endpoint; enter the token to test this one"}, nil
		}
		in.APIToken = saved.APIToken
	}
	cfg := ai.Config{Provider: in.Provider, APIToken: in.APIToken, BaseURL: in.BaseURL, Model: in.Model, HTTPClient: noRedirects}
	p, err := ai.New(cfg)
	if err != nil { // refused before any call: the settings' own fault
		return connection{provider, "Failed", err.Error()}, nil
	}
	if provider == ai.ProviderReplicate && strings.TrimSpace(in.APIToken) == "" {
		return connection{provider, "Failed", "Replicate API token is required"}, nil
	}
	timeout := connectionTimeout(ctx, in.Timeout, ai.DefaultTimeout)
	cfg.Timeout = timeout
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	switch err := ai.Test(ctx, cfg); {
	case err != nil:
		return connection{provider, "Failed", aiFailure(ctx, err, timeout)}, nil
	case provider == ai.ProviderBuiltin:
		return connection{provider, "Connected", "The built-in analyst is running (offline)"}, nil
	}
	return connection{provider, "Connected", "The model " + p.ModelLabel(in.Model) + " answered with a usable decision"}, nil
}
