package sqlite

import (
	"context"
	"database/sql"
	"sync"

	"kestrel/domain"
	"kestrel/store/sqlcore"
)

// stmts keeps the statements of the order path prepared: SQLite parses a
// statement on every call otherwise, which the profile showed as a fifth of
// the order path's time.
type stmts struct {
	mu sync.Mutex
	m  map[stmtKey]sqlStmt
}

type stmtKey struct {
	db db
	q  string
}

// prepared returns q prepared on d (once).
func (s *Store) prepared(ctx context.Context, d db, q string) (sqlStmt, error) {
	s.stmts.mu.Lock()
	defer s.stmts.mu.Unlock()
	k := stmtKey{d, q}
	if st, ok := s.stmts.m[k]; ok {
		return st, nil
	}
	st, err := d.PrepareContext(ctx, q)
	if err != nil {
		return st, err
	}
	if s.stmts.m == nil {
		s.stmts.m = map[stmtKey]sqlStmt{}
	}
	s.stmts.m[k] = st
	return st, nil
}

// txExec runs q in tx, prepared when it is one of the writer's hot
// statements (prepareWriter). It never prepares on the writer itself: the
// transaction holds its only connection.
func (s *Store) txExec(ctx context.Context, tx *sql.Tx, q string, args ...any) error {
	s.stmts.mu.Lock()
	st := s.stmts.m[stmtKey{s.w, q}]
	s.stmts.mu.Unlock()
	var err error
	if st.st != nil {
		_, err = tx.StmtContext(ctx, st.st).ExecContext(ctx, args...)
	} else {
		_, err = tx.ExecContext(ctx, q, args...)
	}
	return err
}

// prepareWriter prepares the writes of the order path on the writer
// connection, before any transaction holds it.
func (s *Store) prepareWriter(ctx context.Context) error {
	for _, q := range []string{upsertOrder, insertFill, upsertBalance, upsertPosition, insertAudit, insertNotifyEvent} {
		if _, err := s.prepared(ctx, s.w, q); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) closeStmts() {
	s.stmts.mu.Lock()
	defer s.stmts.mu.Unlock()
	for _, st := range s.stmts.m {
		st.st.Close()
	}
	s.stmts.m = nil
}

// Audit entries are group-committed: every API call that changes state
// appends one, and on the one writer connection each in its own transaction
// they queued behind each other and behind the exchange's journal. Entries
// that arrive while a ledger commit is under way ride in it (ApplyLedger
// takes the queue before it commits), so under load the writer runs one
// transaction, fsynced, where it ran two; the audit writer goroutine only
// writes what is queued while no ledger commit is under way, in one
// transaction, and when that fails it inserts them one by one, so only a bad
// entry fails.
type auditQueue struct {
	mu      sync.Mutex
	cond    sync.Cond // signalled when a ledger commit ends
	queue   []*auditItem
	writing bool // a writeAudit goroutine runs
	ledger  int  // ledger commits under way
	own     int  // transactions the audit writer committed itself (for tests)
}

type auditItem struct {
	e    domain.AuditEntry
	done chan error
}

// insertNotifyEvent queues a notification in the transaction of the change
// it tells of (the ledger's, an audit entry's, a job's).
const insertNotifyEvent = sqlcore.InsertNotifyEvent

const insertAudit = `INSERT INTO audit_log (at, user_id, actor, action, status, request_id, remote, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`

// AppendAudit implements domain.AuditStore; it returns once the entry is stored.
func (s *Store) AppendAudit(ctx context.Context, e domain.AuditEntry) error {
	it := &auditItem{e: e, done: make(chan error, 1)}
	s.audit.mu.Lock()
	s.audit.queue = append(s.audit.queue, it)
	s.startAuditWriter()
	s.audit.mu.Unlock()
	select {
	case err := <-it.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// startAuditWriter starts the writer goroutine unless one runs. Callers
// hold audit.mu.
func (s *Store) startAuditWriter() {
	if !s.audit.writing && len(s.audit.queue) > 0 {
		s.audit.writing = true
		go s.writeAudit()
	}
}

func (s *Store) writeAudit() {
	for {
		s.audit.mu.Lock()
		for s.audit.ledger > 0 && len(s.audit.queue) > 0 {
			s.audit.cond.Wait() // the ledger commit under way takes them
		}
		batch := s.audit.queue
		s.audit.queue = nil
		if len(batch) == 0 {
			s.audit.writing = false
			s.audit.mu.Unlock()
			return
		}
		s.audit.own++
		s.audit.mu.Unlock()
		ctx := context.Background()
		err := s.auditTx(ctx, func(tx *sql.Tx) error { return s.insertAudits(ctx, tx, batch) })
		for _, it := range batch {
			if err != nil && len(batch) > 1 {
				it.done <- s.auditTx(ctx, func(tx *sql.Tx) error { return s.insertAudits(ctx, tx, []*auditItem{it}) })
				continue
			}
			it.done <- err
		}
	}
}

func (s *Store) insertAudits(ctx context.Context, tx *sql.Tx, batch []*auditItem) error {
	for _, it := range batch {
		e := it.e
		if err := s.insertAudit(ctx, tx, e); err != nil {
			return err
		}
	}
	return nil
}

// insertAudit writes e and its notification events in tx.
func (s *Store) insertAudit(ctx context.Context, tx *sql.Tx, e domain.AuditEntry) error {
	if err := s.txExec(ctx, tx, insertAudit, ms(e.At), e.UserID, e.Actor, e.Action, e.Status, e.RequestID, e.Remote, e.Detail); err != nil {
		return err
	}
	for _, n := range e.Notify {
		if err := s.txExec(ctx, tx, insertNotifyEvent, n.ID, n.Type, n.Severity, n.Owner, n.OrderID, string(n.Payload), ms(n.CreatedAt)); err != nil {
			return err
		}
	}
	return nil
}

// ledgerCommit runs a ledger transaction that also carries the audit
// entries queued by the time its own rows are written. They sit behind a
// savepoint: an entry that cannot be stored goes back to the audit writer
// (which stores the others and fails only it) and never fails the ledger.
// When the ledger transaction fails they go back to the queue too.
func (s *Store) ledgerCommit(ctx context.Context, fn func(*sql.Tx) error) error {
	s.audit.mu.Lock()
	s.audit.ledger++
	s.audit.mu.Unlock()
	var riders []*auditItem
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		s.audit.mu.Lock()
		riders, s.audit.queue = s.audit.queue, nil
		s.audit.mu.Unlock()
		if len(riders) == 0 {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `SAVEPOINT audit`); err != nil {
			return err
		}
		if s.insertAudits(ctx, tx, riders) != nil {
			if _, err := tx.ExecContext(ctx, `ROLLBACK TO audit`); err != nil {
				return err
			}
			s.requeueAudits(riders)
			riders = nil
		}
		_, err := tx.ExecContext(ctx, `RELEASE audit`)
		return err
	})
	if err != nil && len(riders) > 0 {
		s.requeueAudits(riders)
		riders = nil
	}
	s.audit.mu.Lock()
	s.audit.ledger--
	s.startAuditWriter()
	s.audit.cond.Broadcast()
	s.audit.mu.Unlock()
	for _, it := range riders {
		it.done <- nil
	}
	return err
}

// requeueAudits puts entries back at the head of the queue.
func (s *Store) requeueAudits(items []*auditItem) {
	s.audit.mu.Lock()
	s.audit.queue = append(items, s.audit.queue...)
	s.audit.mu.Unlock()
}

// auditTx commits an audit batch without its own fsync (synchronous=NORMAL
// for this one transaction, on the writer connection held throughout): the
// write-ahead log is sequential, so the next ledger commit's fsync makes it
// durable too. A killed process loses nothing committed; a power cut can
// lose the audit rows of the last moments, never an order (the ledger's
// commits fsync).
func (s *Store) auditTx(ctx context.Context, fn func(*sql.Tx) error) (err error) {
	defer func() { err = unavailable(err); s.w.health.note(err) }()
	conn, err := s.w.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA synchronous = NORMAL`); err != nil {
		return err
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `PRAGMA synchronous = FULL`)
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}
