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
// must come from the command line, and whether a visitor may register now
// (so the sign-in screen offers "Create one" only when Register would
// accept it).
type Setup struct {
	NeedsFirstOperator   bool `json:"needs_first_operator"`
	FirstOperatorFromCLI bool `json:"first_operator_from_cli"`
	RegistrationOpen     bool `json:"registration_open"`
}

// SetupState reports the Setup.
func (s *Service) SetupState(ctx context.Context) (Setup, error) {
	n, err := s.store.CountUsers(ctx)
	if err != nil {
		return Setup{}, err
	}
	st := Setup{NeedsFirstOperator: n == 0, FirstOperatorFromCLI: s.firstFromCLI.Load()}
	// The same rules as Register: the first account may register itself
	// unless it must come from the CLI; later ones only when the switch is on.
	if st.NeedsFirstOperator {
		st.RegistrationOpen = !st.FirstOperatorFromCLI
		return st, nil
	}
	st.RegistrationOpen, err = s.RegistrationOpen(ctx)
	return st, err
}

func (s *Service) refuseFirstOperator() error {
	return domain.Errorf(domain.EForbidden, "%s", ErrFirstOperatorFromCLI)
}
