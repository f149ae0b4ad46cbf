package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"kestrel/domain"
)

// QuotaStore is what the quotas and retention contract needs.
type QuotaStore interface {
	domain.BacktestStore
	domain.JobStore
	domain.SweepStore
	domain.NotifyStore
	domain.AuditStore
	domain.QuotaStore
	domain.RetentionStore
}

// RunQuotas is the contract for domain.QuotaStore and domain.RetentionStore
// and for the bounded history of BacktestRecord.Keep and Job.MaxActive.
func RunQuotas(t *testing.T, s QuotaStore) {
	ctx := context.Background()
	base := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	report := func(id, owner, source string, at time.Time, keep int) error {
		return s.SaveBacktest(ctx, domain.BacktestRecord{ID: id, CreatedAt: at, Strategy: "technical_strategy", Symbol: "BTC-USD", Status: "completed",
			Request: json.RawMessage(`{}`), Result: json.RawMessage(`{}`), Owner: owner, Source: source, Keep: keep})
	}
	// A history of three: the fourth and fifth push out the two oldest of
	// that owner and source only.
	for i := range 5 {
		if err := report(fmt.Sprintf("req-%d", i), "u1", domain.BacktestFromRequest, base.Add(time.Duration(i)*time.Minute), 3); err != nil {
			t.Fatal(err)
		}
	}
	for i, owner := range []string{"u1", "u2"} {
		if err := report("job-"+owner, owner, domain.BacktestFromJob, base.Add(time.Duration(i)*time.Second), 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := report("req-u2", "u2", domain.BacktestFromRequest, base, 3); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"req-0", "req-1"} {
		if _, err := s.Backtest(ctx, id); domain.ErrorCode(err) != domain.ENotFound {
			t.Fatalf("%s beyond the history of 3: %v, want not found", id, err)
		}
	}
	if b, err := s.Backtest(ctx, "req-4"); err != nil || b.Owner != "u1" || b.Source != domain.BacktestFromRequest {
		t.Fatalf("kept report %+v %v", b, err)
	}
	for _, c := range []struct {
		owner, source string
		want          int
	}{{"u1", domain.BacktestFromRequest, 3}, {"u1", domain.BacktestFromJob, 1}, {"u1", "", 4}, {"u2", "", 2}, {"u3", "", 0}} {
		if n, err := s.CountBacktests(ctx, c.owner, c.source); err != nil || n != c.want {
			t.Fatalf("count %s/%q = %d %v, want %d", c.owner, c.source, n, err, c.want)
		}
	}

	// At most two active sweeps for u1: the third is refused with the count.
	job := func(id, kind, owner string, max int) error {
		return s.CreateJob(ctx, domain.Job{ID: id, Kind: kind, Owner: owner, Params: json.RawMessage(`{}`), CreatedAt: base, MaxActive: max})
	}
	for _, id := range []string{"s1", "s2"} {
		if err := job(id, "sweep", "u1", 2); err != nil {
			t.Fatal(err)
		}
	}
	var q *domain.JobQuotaError
	if err := job("s3", "sweep", "u1", 2); !errors.As(err, &q) || q.Active != 2 || q.Limit != 2 {
		t.Fatalf("third sweep: %v, want a quota error 2 of 2", err)
	}
	if _, err := s.Job(ctx, "s3"); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("refused job stored: %v", err)
	}
	if err := job("s4", "sweep", "u2", 2); err != nil { // another owner
		t.Fatal(err)
	}
	if err := job("b1", "backtest", "u1", 2); err != nil { // another kind
		t.Fatal(err)
	}
	// Concurrent submits cannot pass the limit together: of 8 at once
	// against a limit of 3, exactly 3 are stored.
	var wg sync.WaitGroup
	var stored, refused atomic.Int32
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := job(fmt.Sprintf("race-%d", i), "backfill", "u9", 3)
			switch {
			case err == nil:
				stored.Add(1)
			case errors.As(err, new(*domain.JobQuotaError)):
				refused.Add(1)
			default:
				t.Errorf("concurrent submit: %v", err)
			}
		}()
	}
	wg.Wait()
	if stored.Load() != 3 || refused.Load() != 5 {
		t.Fatalf("concurrent submits: %d stored, %d refused; want 3 and 5", stored.Load(), refused.Load())
	}
	if n, err := s.CountActiveJobs(ctx, "sweep", "u1"); err != nil || n != 2 {
		t.Fatalf("active sweeps %d %v", n, err)
	}
	// A finished one no longer counts.
	if _, err := s.FinishJob(ctx, "s1", domain.JobCompleted, "", "", base.Add(time.Hour), nil); err != nil {
		t.Fatal(err)
	}
	if err := job("s5", "sweep", "u1", 2); err != nil {
		t.Fatalf("after one finished: %v", err)
	}
	if err := s.SaveSweepTrial(ctx, domain.SweepTrial{SweepID: "s1", Index: 0, Values: json.RawMessage(`{}`), Params: json.RawMessage(`{}`),
		Metrics: json.RawMessage(`{}`), CreatedAt: base}); err != nil {
		t.Fatal(err)
	}

	// Deleting a report takes its finished job with it; an unknown id is
	// not found.
	if err := report("del-1", "u4", domain.BacktestFromJob, base, 0); err != nil {
		t.Fatal(err)
	}
	if err := job("del-1", "backtest", "u4", 0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.FinishJob(ctx, "del-1", domain.JobCompleted, "del-1", "", base, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteBacktest(ctx, "del-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Backtest(ctx, "del-1"); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("deleted report: %v", err)
	}
	if _, err := s.Job(ctx, "del-1"); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("deleted report's job: %v", err)
	}
	if err := s.DeleteBacktest(ctx, "del-1"); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("deleting again: %v, want not found", err)
	}

	// Retention: finished sweeps before the cut go with their trials;
	// queued ones stay whatever their age.
	if n, err := s.PruneJobs(ctx, "sweep", base.Add(2*time.Hour)); err != nil || n != 1 {
		t.Fatalf("pruned sweeps %d %v, want 1", n, err)
	}
	if _, err := s.Job(ctx, "s1"); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("pruned sweep still there: %v", err)
	}
	if tr, err := s.SweepTrials(ctx, "s1"); err != nil || len(tr) != 0 {
		t.Fatalf("pruned sweep's trials %d %v", len(tr), err)
	}
	if _, err := s.Job(ctx, "s2"); err != nil {
		t.Fatalf("queued sweep pruned: %v", err)
	}
	// Reports before the cut go, and the finished backtest jobs with them.
	if _, err := s.FinishJob(ctx, "b1", domain.JobCompleted, "job-u1", "", base.Add(time.Minute), nil); err != nil {
		t.Fatal(err)
	}
	if n, err := s.PruneBacktests(ctx, base.Add(150*time.Second)); err != nil || n != 4 { // req-2, job-u1, job-u2 and req-u2
		t.Fatalf("pruned reports %d %v, want 4", n, err)
	}
	if _, err := s.Backtest(ctx, "req-3"); err != nil {
		t.Fatalf("newer report pruned: %v", err)
	}
	if _, err := s.Job(ctx, "b1"); domain.ErrorCode(err) != domain.ENotFound {
		t.Fatalf("finished backtest job kept: %v", err)
	}

	// Deliveries: done ones before the cut go, pending ones stay.
	for i, st := range []string{domain.NotifyDelivered, domain.NotifyFailed, domain.NotifyPending} {
		d := domain.NotifyDelivery{ID: fmt.Sprintf("d%d", i), Owner: "u1", ChannelID: "c1", Type: "order_filled", Severity: "info",
			Payload: json.RawMessage(`{}`), Count: 1, Status: domain.NotifyPending, CreatedAt: base, NextAt: base}
		if _, err := s.EnqueueNotify(ctx, d); err != nil {
			t.Fatal(err)
		}
		d.Status, d.Attempts = st, 1
		if err := s.RecordNotifyAttempt(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := s.PruneDeliveries(ctx, base.Add(time.Hour)); err != nil || n != 2 {
		t.Fatalf("pruned deliveries %d %v, want 2", n, err)
	}
	if l, err := s.NotifyDeliveries(ctx, "u1", "", 10); err != nil || len(l) != 1 || l[0].ID != "d2" {
		t.Fatalf("deliveries left %+v %v, want the pending one", l, err)
	}

	// The audit log: entries before the cut go.
	for i := range 3 {
		if err := s.AppendAudit(ctx, domain.AuditEntry{At: base.Add(time.Duration(i) * time.Hour), Action: "GET /x", Status: 200}); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := s.PruneAudit(ctx, base.Add(90*time.Minute)); err != nil || n != 2 {
		t.Fatalf("pruned audit %d %v, want 2", n, err)
	}
	if l, err := s.ListAudit(ctx, 10); err != nil || len(l) != 1 || !l[0].At.Equal(base.Add(2*time.Hour)) {
		t.Fatalf("audit left %+v %v", l, err)
	}
}
