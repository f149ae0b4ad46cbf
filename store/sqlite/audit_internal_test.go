package sqlite

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

func openTemp(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// appendAsync appends an audit entry from another goroutine once a ledger
// commit is (said to be) under way, and waits until it is queued.
func appendAsync(t *testing.T, s *Store, action string) chan error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		done <- s.AppendAudit(context.Background(), domain.AuditEntry{At: time.Now(), Action: action, Status: 200})
	}()
	for deadline := time.Now().Add(5 * time.Second); ; {
		s.audit.mu.Lock()
		n := len(s.audit.queue)
		s.audit.mu.Unlock()
		if n > 0 {
			return done
		}
		if time.Now().After(deadline) {
			t.Fatal("the audit entry was never queued")
		}
		time.Sleep(time.Millisecond)
	}
}

func audited(t *testing.T, s *Store) map[string]bool {
	t.Helper()
	rows, err := s.ListAudit(context.Background(), 100)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, e := range rows {
		got[e.Action] = true
	}
	return got
}

func usd(v string) domain.LedgerChange {
	return domain.LedgerChange{Balances: []domain.Balance{{Currency: "USD", Available: decimal.RequireFromString(v), Hold: decimal.Zero}}}
}

// An entry queued while a ledger commit is under way is stored by that
// commit, not by a transaction of its own.
func TestAuditRidesTheLedgerCommit(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	s.audit.mu.Lock()
	s.audit.ledger++ // a ledger commit is under way: the audit writer waits for it
	s.audit.mu.Unlock()
	done := appendAsync(t, s, "POST /ride")
	if err := s.ApplyLedger(ctx, usd("100")); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	s.audit.mu.Lock()
	own := s.audit.own
	s.audit.ledger--
	s.audit.cond.Broadcast()
	s.audit.mu.Unlock()
	if own != 0 {
		t.Fatalf("the audit writer committed %d transactions of its own, want 0", own)
	}
	if !audited(t, s)["POST /ride"] {
		t.Fatal("the entry is not stored")
	}
	// With no ledger commit under way it is written on its own.
	if err := s.AppendAudit(ctx, domain.AuditEntry{At: time.Now(), Action: "POST /alone", Status: 200}); err != nil {
		t.Fatal(err)
	}
	if !audited(t, s)["POST /alone"] {
		t.Fatal("the lone entry is not stored")
	}
}

// A ledger commit that fails hands its riders back: they are stored by the
// audit writer, and the failed change is not.
func TestAuditSurvivesAFailedLedgerCommit(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	bad := domain.LedgerChange{Fills: []domain.Fill{{ID: "f1", OrderID: "no-such-order", Symbol: "BTC-USD", Side: domain.Buy,
		Quantity: decimal.NewFromInt(1), Price: decimal.NewFromInt(1), Fee: decimal.Zero, Liquidity: "taker", Time: time.Now()}}}
	s.audit.mu.Lock()
	s.audit.ledger++
	s.audit.mu.Unlock()
	done := appendAsync(t, s, "POST /after-failure")
	if err := s.ApplyLedger(ctx, bad); err == nil {
		t.Fatal("a fill of an order that does not exist was stored")
	}
	s.audit.mu.Lock()
	s.audit.ledger--
	s.audit.cond.Broadcast()
	s.audit.mu.Unlock()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !audited(t, s)["POST /after-failure"] {
		t.Fatal("the entry was lost with the failed ledger commit")
	}
	if fills, _ := s.LedgerFills(ctx, domain.FillFilter{Limit: 10}); len(fills) != 0 {
		t.Fatalf("fills of the failed change: %v", fills)
	}
}
