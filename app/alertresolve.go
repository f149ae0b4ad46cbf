package app

import (
	"context"

	"kestrel/alert"
	"kestrel/domain"
	"kestrel/strategy"
)

// resumeResolvedStrategy re-enables the strategy a resolved "Strategy
// paused" alert names, when the resolver may enable strategies (operators,
// and Kestrel itself); a trader's resolution closes the alert only. It says
// what happened, for the audit log.
func (a *App) resumeResolvedStrategy(ctx context.Context, al domain.Alert, by alert.Resolver) string {
	name, ok := strategy.PausedStrategy(al.Title)
	if !ok {
		return ""
	}
	if !by.Operator {
		return "strategy " + name + " stays disabled: enabling a strategy is for operators"
	}
	if !a.Strategies.ResumePaused(ctx, al.Title) {
		return "strategy " + name + " could not be re-enabled (see the log)"
	}
	return "re-enabled strategy " + name
}
