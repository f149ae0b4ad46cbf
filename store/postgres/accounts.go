package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"kestrel/domain"
	"kestrel/store/sqlcore"
)

// AppendAudit implements domain.AuditStore.
// The entry commits without waiting for its own WAL flush
// (synchronous_commit off for this transaction, in one round trip): the
// next ledger commit's flush covers it. Kestrel being killed loses nothing;
// a crash of the database server can lose the audit rows of its last
// moments, never an order (the ledger's commits wait for the flush).
func (s *Store) AppendAudit(ctx context.Context, e domain.AuditEntry) error {
	b := &pgx.Batch{}
	b.Queue(`BEGIN`)
	b.Queue(`SET LOCAL synchronous_commit TO OFF`)
	queueAudit(b, e)
	b.Queue(`COMMIT`)
	return s.db.SendBatch(ctx, b)
}

// queueAudit queues the writes of e and its notification events.
func queueAudit(b *pgx.Batch, e domain.AuditEntry) {
	b.Queue(`INSERT INTO audit_log (at, user_id, actor, action, status, request_id, remote, detail) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		e.At, e.UserID, e.Actor, e.Action, e.Status, e.RequestID, e.Remote, e.Detail)
	for _, n := range e.Notify {
		b.Queue(insertNotifyEvent, n.ID, n.Type, n.Severity, n.Owner, n.OrderID, string(n.Payload), n.CreatedAt)
	}
}

// insertNotifyEvent queues a notification in the transaction of the change
// it tells of (the ledger's, an audit entry's, a job's).
const insertNotifyEvent = sqlcore.InsertNotifyEvent
