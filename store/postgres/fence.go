package postgres

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"

	"kestrel/domain"
)

// The fence keeps a cluster's ledger to one writer. The leader's advisory
// lock lives on a session of its own while its ledger commits use the pool,
// so a leader whose lock session died may still be committing when another
// instance has taken the lock. A new leader therefore moves the epoch in
// cluster_fence on before it matches, and each ledger commit of a fenced
// store first takes the fence row FOR SHARE at its own epoch, in the same
// transaction: the row lock orders the two, so an old leader's commit
// either lands before the epoch moves or finds it moved and writes nothing.

// fenceCheck is the first statement of a fenced store's ledger commit; it
// returns the fence row only while the epoch is still this store's.
const fenceCheck = `SELECT epoch FROM cluster_fence WHERE id = 1 AND epoch = $1 FOR SHARE`

// FenceGrace is how long a takeover waits for a ledger commit of the
// previous leader that holds the fence. A commit under way lands within
// it; one still holding the fence after it belongs to a process that
// stopped between its statements and its COMMIT (frozen, its host lost,
// cut off with the connection open), whose session the database would
// keep, row lock and all, for as long as the connection stays open: the
// takeover ends that session, which rolls the commit back whole.
const FenceGrace = time.Second

// AdvanceFence moves the cluster's fencing epoch on (creating the row if
// missing) and fences the store at the new epoch: from then on its ledger
// commits succeed only until another store advances the fence. The update
// waits for ledger commits holding the fence at the previous epoch, for
// FenceGrace; then it terminates the sessions still blocking it (they can
// only be superseded leaders' commits, or takeovers, holding the row). An
// instance calls it when it wins the leadership, before it reloads the
// ledger and matches; a store never fenced (one process) checks nothing.
func (s *Store) AdvanceFence(ctx context.Context) (int64, error) {
	var epoch int64
	err := s.tx(ctx, func(tx pgx.Tx) error {
		var pid int32
		if err := tx.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil {
			return err
		}
		done := make(chan struct{})
		defer close(done)
		go s.endBlockers(ctx, pid, done)
		return tx.QueryRow(ctx, `INSERT INTO cluster_fence (id, epoch) VALUES (1, 1)
			ON CONFLICT (id) DO UPDATE SET epoch = cluster_fence.epoch + 1 RETURNING epoch`).Scan(&epoch)
	})
	if err != nil {
		return 0, err
	}
	s.epoch.Store(epoch)
	return epoch, nil
}

// endBlockers waits the grace, then until done terminates the sessions
// blocking pid's fence update.
func (s *Store) endBlockers(ctx context.Context, pid int32, done <-chan struct{}) {
	grace := s.fenceGrace
	if grace <= 0 {
		grace = FenceGrace
	}
	wait := time.NewTimer(grace)
	defer wait.Stop()
	for {
		select {
		case <-done:
			return
		case <-ctx.Done():
			return
		case <-wait.C:
		}
		rows, err := s.db.Query(ctx, `SELECT b, pg_terminate_backend(b) FROM unnest(pg_blocking_pids($1)) AS b`, pid)
		if err == nil {
			for rows.Next() {
				var b int32
				var ended bool
				if rows.Scan(&b, &ended) == nil {
					slog.Warn("a superseded leader's session held the ledger fence past the grace; ended it (its commit is rolled back)",
						"pid", b, "ended", ended, "grace", grace, "component", "store")
				}
			}
			rows.Close()
		}
		wait.Reset(grace / 4)
	}
}

// fenced is the error of a ledger commit refused by the fence: nothing was
// written, and the retry belongs on the instance that leads now.
func fenced(epoch int64) error {
	return domain.Unavailable(fmt.Errorf("ledger fence: epoch %d has been superseded by a newer leader", epoch), domain.MsgNotLeader)
}
