package jobs_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"kestrel/domain"
	"kestrel/jobs"
	"kestrel/store/sqlite"
)

func openStore(t *testing.T) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "kestrel.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// events collects what the runner publishes.
type events struct {
	mu   sync.Mutex
	jobs []domain.Job
}

func (e *events) publish(j domain.Job) { e.mu.Lock(); e.jobs = append(e.jobs, j); e.mu.Unlock() }

func (e *events) statuses(id string) []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, j := range e.jobs {
		if j.ID == id && (len(out) == 0 || out[len(out)-1] != j.Status) {
			out = append(out, j.Status)
		}
	}
	return out
}

// waitFor polls the store until the job reaches status.
func waitFor(t *testing.T, s domain.JobStore, id, status string) domain.Job {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		j, err := s.Job(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if j.Status == status {
			return j
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s is %s (%s), want %s", id, j.Status, j.Error, status)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func start(t *testing.T, r *jobs.Runner) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); r.Run(ctx) }()
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(stop)
	return stop
}

func TestJobCompletesWithProgress(t *testing.T) {
	s := openStore(t)
	ev := &events{}
	r := jobs.New(s, jobs.Options{Publish: ev.publish, ProgressEvery: time.Nanosecond})
	r.Handle("echo", func(ctx context.Context, j domain.Job, progress func(float64)) (string, error) {
		for i := 1; i <= 4; i++ {
			progress(float64(i) / 4)
		}
		return "ref-" + string(j.Params), nil
	})
	start(t, r)
	j, err := r.Submit(context.Background(), "echo", "u1", 7)
	if err != nil || j.Status != domain.JobQueued {
		t.Fatalf("submit = %+v, %v", j, err)
	}
	done := waitFor(t, s, j.ID, domain.JobCompleted)
	if done.ResultRef != "ref-7" || done.Progress != 1 || done.StartedAt == nil || done.FinishedAt == nil || done.Owner != "u1" {
		t.Fatalf("completed job = %+v", done)
	}
	if got := strings.Join(ev.statuses(j.ID), ","); got != "queued,running,completed" {
		t.Fatalf("published statuses %s", got)
	}
	ev.mu.Lock()
	progressed := 0
	for _, e := range ev.jobs {
		if e.ID == j.ID && e.Status == domain.JobRunning && e.Progress > 0 {
			progressed++
		}
	}
	ev.mu.Unlock()
	if progressed == 0 {
		t.Fatal("no progress was published")
	}
}

func TestFailedJobKeepsItsReason(t *testing.T) {
	s := openStore(t)
	r := jobs.New(s, jobs.Options{})
	r.Handle("bad", func(context.Context, domain.Job, func(float64)) (string, error) { return "", errors.New("no candles") })
	r.Handle("panics", func(context.Context, domain.Job, func(float64)) (string, error) { panic("boom") })
	start(t, r)
	j, _ := r.Submit(context.Background(), "bad", "u1", nil)
	if got := waitFor(t, s, j.ID, domain.JobFailed); got.Error != "no candles" {
		t.Fatalf("failed job = %+v", got)
	}
	j, _ = r.Submit(context.Background(), "panics", "u1", nil)
	if got := waitFor(t, s, j.ID, domain.JobFailed); !strings.Contains(got.Error, "boom") {
		t.Fatalf("panicked job = %+v", got)
	}
	if _, err := r.Submit(context.Background(), "unknown", "u1", nil); err == nil {
		t.Fatal("a job of an unknown kind was accepted")
	}
}

// blocking is a handler that waits for its context, telling when it started.
func blocking(started chan<- string) jobs.Handler {
	return func(ctx context.Context, j domain.Job, progress func(float64)) (string, error) {
		progress(0.5)
		started <- j.ID
		<-ctx.Done()
		return "", ctx.Err()
	}
}

func TestCancelStopsARunningJobAndAQueuedOne(t *testing.T) {
	s := openStore(t)
	r := jobs.New(s, jobs.Options{Workers: 1})
	started := make(chan string, 2)
	r.Handle("wait", blocking(started))
	start(t, r)
	ctx := context.Background()
	first, _ := r.Submit(ctx, "wait", "u1", nil)
	if id := <-started; id != first.ID {
		t.Fatalf("started %s", id)
	}
	second, _ := r.Submit(ctx, "wait", "u1", nil)
	// One worker: the second waits while the first runs.
	if j, _ := s.Job(ctx, second.ID); j.Status != domain.JobQueued {
		t.Fatalf("second job is %s with one worker busy", j.Status)
	}
	if j, err := r.Cancel(ctx, second.ID, "ops@example.com"); err != nil || j.Status != domain.JobCancelled {
		t.Fatalf("cancel queued = %+v, %v", j, err)
	}
	if _, err := r.Cancel(ctx, first.ID, "ops@example.com"); err != nil {
		t.Fatal(err)
	}
	got := waitFor(t, s, first.ID, domain.JobCancelled)
	if got.Error != "Cancelled by ops@example.com" || got.Progress != 0.5 {
		t.Fatalf("cancelled job = %+v", got)
	}
	select {
	case id := <-started:
		t.Fatalf("the cancelled queued job %s ran", id)
	default:
	}
}

// TestCancelFromAnotherInstance: a cancel stored by another process (a
// follower of the cluster) stops the job within a poll.
func TestCancelFromAnotherInstance(t *testing.T) {
	s := openStore(t)
	r := jobs.New(s, jobs.Options{Poll: 10 * time.Millisecond})
	started := make(chan string, 1)
	r.Handle("wait", blocking(started))
	start(t, r)
	j, _ := r.Submit(context.Background(), "wait", "u1", nil)
	<-started
	other := jobs.New(s, jobs.Options{}) // runs nothing: submits and cancels only
	if _, err := other.Cancel(context.Background(), j.ID, "trader@example.com"); err != nil {
		t.Fatal(err)
	}
	if got := waitFor(t, s, j.ID, domain.JobCancelled); got.Error != "Cancelled by trader@example.com" {
		t.Fatalf("cancelled job = %+v", got)
	}
}

// TestRestart: a job left running by a runner that died is marked failed
// with the reason, a queued one runs; a runner that stops marks what it was
// running failed.
func TestRestart(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	before := jobs.New(s, jobs.Options{})
	before.Handle("wait", blocking(make(chan string, 4)))
	orphan, _ := before.Submit(ctx, "wait", "u1", nil)
	if ok, err := s.ClaimJob(ctx, orphan.ID, time.Now()); !ok || err != nil { // as a crashed runner left it
		t.Fatal(ok, err)
	}
	_ = s.SetJobProgress(ctx, orphan.ID, 0.4)
	queued, _ := before.Submit(ctx, "wait", "u1", nil)

	after := jobs.New(s, jobs.Options{})
	started := make(chan string, 1)
	after.Handle("wait", blocking(started))
	stop := start(t, after)
	got := waitFor(t, s, orphan.ID, domain.JobFailed)
	if !strings.Contains(got.Error, "Interrupted at 40%") || !strings.Contains(got.Error, "start it again") {
		t.Fatalf("orphaned job = %+v", got)
	}
	if id := <-started; id != queued.ID {
		t.Fatalf("started %s, want the queued job", id)
	}
	stop()
	if got := waitFor(t, s, queued.ID, domain.JobFailed); !strings.Contains(got.Error, "the server stopped") {
		t.Fatalf("job running at shutdown = %+v", got)
	}
}

// A resumable kind left running by a stopped runner runs again (its handler
// skips what it stored); other kinds are still failed.
func TestRestartResumesResumableKinds(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	before := jobs.New(s, jobs.Options{})
	before.HandleResumable("sweep", blocking(make(chan string, 4)))
	orphan, _ := before.Submit(ctx, "sweep", "u1", nil)
	if ok, err := s.ClaimJob(ctx, orphan.ID, time.Now()); !ok || err != nil { // as a crashed runner left it
		t.Fatal(ok, err)
	}

	after := jobs.New(s, jobs.Options{})
	resumed := make(chan string, 1)
	after.HandleResumable("sweep", func(ctx context.Context, j domain.Job, progress func(float64)) (string, error) {
		resumed <- j.ID
		return "done", nil
	})
	start(t, after)
	if id := <-resumed; id != orphan.ID {
		t.Fatalf("resumed %s, want %s", id, orphan.ID)
	}
	if got := waitFor(t, s, orphan.ID, domain.JobCompleted); got.ResultRef != "done" {
		t.Fatalf("resumed job = %+v", got)
	}
}
