package postgres

import (
	"context"
	"fmt"

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

// AdvanceFence moves the cluster's fencing epoch on (creating the row if
// missing) and fences the store at the new epoch: from then on its ledger
// commits succeed only until another store advances the fence. The update
// waits for ledger commits holding the fence at the previous epoch. An
// instance calls it when it wins the leadership, before it reloads the
// ledger and matches; a store never fenced (one process) checks nothing.
func (s *Store) AdvanceFence(ctx context.Context) (int64, error) {
	var epoch int64
	err := s.db.QueryRow(ctx, `INSERT INTO cluster_fence (id, epoch) VALUES (1, 1)
		ON CONFLICT (id) DO UPDATE SET epoch = cluster_fence.epoch + 1 RETURNING epoch`).Scan(&epoch)
	if err != nil {
		return 0, err
	}
	s.epoch.Store(epoch)
	return epoch, nil
}

// fenced is the error of a ledger commit refused by the fence: nothing was
// written, and the retry belongs on the instance that leads now.
func fenced(epoch int64) error {
	return domain.Unavailable(fmt.Errorf("ledger fence: epoch %d has been superseded by a newer leader", epoch), domain.MsgNotLeader)
}
