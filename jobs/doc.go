// Package jobs runs long work outside requests: backtests, parameter
// sweeps and market-data backfills, all through one Runner.
//
// A job is a row of the jobs table (domain.JobStore): kind, owner, status
// (queued, running, completed, failed, cancelled), progress 0..1, its
// parameters as JSON, a reference to what it produced and why it failed.
// Submit stores a queued job and returns at once; the Runner's bounded pool of
// workers claims queued jobs (oldest first), runs the kind's Handler with a
// context and a progress function, and stores the outcome. Every change of
// status, and progress at most every ProgressEvery, is published (Publish) for
// the WebSocket's jobs channel.
//
// Cancel stops a queued job at once; a running one is marked cancel-requested
// in the store and the runner cancels its context (at once when it runs in
// this process, within one Poll otherwise), so any instance of a cluster can
// cancel. Only one Runner runs per platform: in a cluster the leader's.
//
// Restarts never lose a job silently:
//   - a queued job stays queued and runs once a runner is up again;
//   - a job that was running when its runner stopped (shutdown, a crash, a
//     change of cluster leader) is marked failed with that reason, and is not
//     run again by itself: a live-model backtest has already paid for its
//     model calls, and its answers are stored, so the owner decides whether to
//     start it again (a recorded replay costs nothing);
//   - except a kind registered with HandleResumable (sweeps, backfills): its handler
//     stores each piece of work as it finishes and skips it when run again,
//     so such a job is run again by the next runner and carries on.
package jobs
