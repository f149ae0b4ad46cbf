package sqlite

import (
	"context"
	"database/sql"
	"sync"

	"kestrel/domain"
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
	for _, q := range []string{upsertOrder, insertFill, upsertBalance, upsertPosition, insertAudit} {
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
// they queued behind each other and behind the exchange's journal. A writer
// goroutine inserts whatever is queued in one transaction; when that fails it
// inserts them one by one, so only a bad entry fails.
type auditQueue struct {
	mu      sync.Mutex
	queue   []*auditItem
	writing bool
}

type auditItem struct {
	e    domain.AuditEntry
	done chan error
}

const insertAudit = `INSERT INTO audit_log (at, user_id, actor, action, status, request_id, remote, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`

// AppendAudit implements domain.AuditStore; it returns once the entry is stored.
func (s *Store) AppendAudit(ctx context.Context, e domain.AuditEntry) error {
	it := &auditItem{e: e, done: make(chan error, 1)}
	s.audit.mu.Lock()
	s.audit.queue = append(s.audit.queue, it)
	if !s.audit.writing {
		s.audit.writing = true
		go s.writeAudit()
	}
	s.audit.mu.Unlock()
	select {
	case err := <-it.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Store) writeAudit() {
	for {
		s.audit.mu.Lock()
		batch := s.audit.queue
		s.audit.queue = nil
		if len(batch) == 0 {
			s.audit.writing = false
			s.audit.mu.Unlock()
			return
		}
		s.audit.mu.Unlock()
		ctx := context.Background()
		insert := func(tx *sql.Tx, it *auditItem) error {
			e := it.e
			return s.txExec(ctx, tx, insertAudit, ms(e.At), e.UserID, e.Actor, e.Action, e.Status, e.RequestID, e.Remote, e.Detail)
		}
		err := s.auditTx(ctx, func(tx *sql.Tx) error {
			for _, it := range batch {
				if err := insert(tx, it); err != nil {
					return err
				}
			}
			return nil
		})
		for _, it := range batch {
			if err != nil && len(batch) > 1 {
				it.done <- s.auditTx(ctx, func(tx *sql.Tx) error { return insert(tx, it) })
				continue
			}
			it.done <- err
		}
	}
}

// auditTx commits an audit batch without its own fsync (synchronous=NORMAL
// for this one transaction, on the writer connection held throughout): the
// write-ahead log is sequential, so the next ledger commit's fsync makes it
// durable too. A killed process loses nothing committed; a power cut can
// lose the audit rows of the last moments, never an order (the ledger's
// commits fsync).
func (s *Store) auditTx(ctx context.Context, fn func(*sql.Tx) error) (err error) {
	defer func() { err = unavailable(err) }()
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
