package storetest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"kestrel/domain"
)

// RunJobs is the contract for domain.JobStore.
func RunJobs(t *testing.T, s domain.JobStore) {
	ctx := context.Background()
	job := func(id string, created time.Time) domain.Job {
		return domain.Job{ID: id, Kind: "backtest", Owner: "u1", Params: json.RawMessage(`{"symbol":"BTC-USD"}`), CreatedAt: created}
	}
	for i, id := range []string{"j1", "j2", "j3", "j4"} {
		if err := s.CreateJob(ctx, job(id, at.Add(time.Duration(i)*time.Second))); err != nil {
			t.Fatal(err)
		}
	}
	wantCode(t, s.CreateJob(ctx, job("j1", at)), domain.EConflict)
	wantCode(t, s.CreateJob(ctx, domain.Job{ID: "bad", Kind: "backtest", Params: json.RawMessage(`{`)}), domain.EInvalid)
	if err := s.CreateJob(ctx, domain.Job{ID: "other", Kind: "sweep", Owner: "u2", Params: json.RawMessage(`{}`), CreatedAt: at}); err != nil {
		t.Fatal(err)
	}

	j, err := s.Job(ctx, "j1")
	if err != nil {
		t.Fatal(err)
	}
	if j.Status != domain.JobQueued || j.Kind != "backtest" || j.Owner != "u1" || j.Progress != 0 || !j.CreatedAt.Equal(at) ||
		j.StartedAt != nil || j.FinishedAt != nil || j.CancelRequested {
		t.Fatalf("new job = %+v", j)
	}
	var p map[string]string
	if err := json.Unmarshal(j.Params, &p); err != nil || p["symbol"] != "BTC-USD" {
		t.Fatalf("params = %s (%v)", j.Params, err)
	}
	_, err = s.Job(ctx, "missing")
	wantCode(t, err, domain.ENotFound)

	// Claimed once only.
	start := at.Add(time.Minute)
	if ok, err := s.ClaimJob(ctx, "j1", start); err != nil || !ok {
		t.Fatalf("claim = %v, %v", ok, err)
	}
	if ok, err := s.ClaimJob(ctx, "j1", start); err != nil || ok {
		t.Fatalf("second claim = %v, %v; want false", ok, err)
	}
	if err := s.SetJobProgress(ctx, "j1", 0.25); err != nil {
		t.Fatal(err)
	}
	if err := s.SetJobProgress(ctx, "j2", 0.5); err != nil { // queued: not running, unchanged
		t.Fatal(err)
	}
	if j, _ = s.Job(ctx, "j1"); j.Status != domain.JobRunning || j.Progress != 0.25 || j.StartedAt == nil || !j.StartedAt.Equal(start) {
		t.Fatalf("running job = %+v", j)
	}
	if j, _ = s.Job(ctx, "j2"); j.Progress != 0 {
		t.Fatalf("a queued job's progress moved: %+v", j)
	}

	// Cancel: a queued job at once, a running one by request.
	end := at.Add(2 * time.Minute)
	if j, err = s.CancelJob(ctx, "j2", "Cancelled by u1", end); err != nil || j.Status != domain.JobCancelled || j.Error != "Cancelled by u1" ||
		j.FinishedAt == nil || !j.FinishedAt.Equal(end) {
		t.Fatalf("cancel queued = %+v, %v", j, err)
	}
	if ok, _ := s.ClaimJob(ctx, "j2", end); ok {
		t.Fatal("a cancelled job was claimed")
	}
	if j, err = s.CancelJob(ctx, "j1", "Cancelled by u1", end); err != nil || j.Status != domain.JobRunning || !j.CancelRequested || j.Error != "Cancelled by u1" {
		t.Fatalf("cancel running = %+v, %v", j, err)
	}
	if j, _ = s.CancelJob(ctx, "j1", "Cancelled by u2", end); j.Error != "Cancelled by u1" {
		t.Fatalf("a second cancel changed the reason: %+v", j)
	}
	_, err = s.CancelJob(ctx, "missing", "x", end)
	wantCode(t, err, domain.ENotFound)

	// Finish: the first outcome stands; completed means all done.
	if ok, err := s.FinishJob(ctx, "j1", domain.JobCancelled, "", "Cancelled by u1", end, nil); err != nil || !ok {
		t.Fatalf("finish = %v, %v", ok, err)
	}
	if ok, err := s.FinishJob(ctx, "j1", domain.JobFailed, "", "late", end, nil); err != nil || ok {
		t.Fatalf("second finish = %v, %v; want false", ok, err)
	}
	if j, _ = s.Job(ctx, "j1"); j.Status != domain.JobCancelled || j.Error != "Cancelled by u1" || j.Progress != 0.25 {
		t.Fatalf("finished job = %+v", j)
	}
	if ok, _ := s.ClaimJob(ctx, "j3", start); !ok {
		t.Fatal("claim j3")
	}
	if ok, err := s.FinishJob(ctx, "j3", domain.JobCompleted, "report-3", "", end, nil); err != nil || !ok {
		t.Fatalf("complete = %v, %v", ok, err)
	}
	if j, _ = s.Job(ctx, "j3"); j.Status != domain.JobCompleted || j.ResultRef != "report-3" || j.Progress != 1 || j.FinishedAt == nil {
		t.Fatalf("completed job = %+v", j)
	}
	if j, _ = s.CancelJob(ctx, "j3", "too late", end); j.Status != domain.JobCompleted || j.CancelRequested {
		t.Fatalf("cancelling a finished job changed it: %+v", j)
	}
	_, err = s.FinishJob(ctx, "j4", domain.JobRunning, "", "", end, nil)
	wantCode(t, err, domain.EInvalid)

	// Lists: newest first, by kind and status.
	all, err := s.Jobs(ctx, "backtest", "", 10)
	if err != nil || len(all) != 4 || all[0].ID != "j4" || all[3].ID != "j1" {
		t.Fatalf("jobs = %+v, %v", all, err)
	}
	queued, err := s.Jobs(ctx, "", domain.JobQueued, 10)
	if err != nil || len(queued) != 2 || queued[0].ID != "j4" || queued[1].ID != "other" {
		t.Fatalf("queued = %+v, %v", queued, err)
	}
	if one, _ := s.Jobs(ctx, "", "", 1); len(one) != 1 {
		t.Fatalf("limit 1 gave %d", len(one))
	}
}

// testJobNotifyEvent: a finished job's notification event commits with its
// final status, once: a second finish (the first outcome stands) commits
// none.
func testJobNotifyEvent(t *testing.T, s domain.Store) {
	ctx := context.Background()
	if err := s.CreateJob(ctx, domain.Job{ID: "jn", Kind: "backtest", Owner: "u1", Params: json.RawMessage(`{}`), CreatedAt: at}); err != nil {
		t.Fatal(err)
	}
	ev := func(id string) *domain.NotifyEvent {
		return &domain.NotifyEvent{ID: id, Type: "backtest.finished", Severity: "low", Owner: "u1", Payload: []byte(`{"job_id":"jn"}`), CreatedAt: at}
	}
	if ok, err := s.FinishJob(ctx, "jn", domain.JobCompleted, "r", "", at, ev("evt_job_1")); err != nil || !ok {
		t.Fatalf("finish = %v, %v", ok, err)
	}
	if ok, err := s.FinishJob(ctx, "jn", domain.JobFailed, "", "late", at, ev("evt_job_2")); err != nil || ok {
		t.Fatalf("second finish = %v, %v", ok, err)
	}
	evs, err := s.CommittedNotifyEvents(ctx, 10)
	if err != nil || len(evs) != 1 || evs[0].ID != "evt_job_1" || evs[0].Owner != "u1" {
		t.Fatalf("committed events %+v, %v", evs, err)
	}
}
