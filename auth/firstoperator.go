package auth

import (
	"context"

	"kestrel/domain"
)

// RequireFirstOperatorFromCLI, when on, refuses to make the first
// self-registered account an operator: on an instance reachable from the
// network, the first visitor would otherwise own it. The first operator is
// then created on the server with `kestrel user add --role operator`.
func (s *Service) RequireFirstOperatorFromCLI(on bool) { s.firstFromCLI.Store(on) }

// ErrFirstOperatorFromCLI is the refusal's message.
const ErrFirstOperatorFromCLI = "This server is reachable from the network, so its first operator is created on the server, not here: " +
	"run `kestrel user add --email you@example.com --name \"Your Name\" --role operator`, then sign in"

// Setup says what the sign-in screens need to know before anyone has
// signed in: whether an account exists yet, and whether the first operator
// must come from the command line.
type Setup struct {
	NeedsFirstOperator   bool `json:"needs_first_operator"`
	FirstOperatorFromCLI bool `json:"first_operator_from_cli"`
}

// SetupState reports the Setup.
func (s *Service) SetupState(ctx context.Context) (Setup, error) {
	n, err := s.store.CountUsers(ctx)
	if err != nil {
		return Setup{}, err
	}
	return Setup{NeedsFirstOperator: n == 0, FirstOperatorFromCLI: s.firstFromCLI.Load()}, nil
}

func (s *Service) refuseFirstOperator() error {
	return domain.Errorf(domain.EForbidden, "%s", ErrFirstOperatorFromCLI)
}
