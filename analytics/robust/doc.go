// Package robust asks how much a backtest's figures owe to luck: Monte
// Carlo of a run's closed trades (bootstrap and shuffled order) and the
// probability of backtest overfitting of a sweep by combinatorially
// symmetric cross-validation. Pure functions over figures the caller
// already has; seeded, so the same inputs give the same answer. The
// definitions are in docs/ANALYTICS.md.
package robust
