package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"

	"kestrel/domain"
)

// Handler does one job of its kind. It reports progress (0..1) through
// progress, stops when ctx ends, and returns a reference to its result.
type Handler func(ctx context.Context, j domain.Job, progress func(float64)) (resultRef string, err error)

// Options tune a Runner; zero values take the defaults.
type Options struct {
	Workers       int           // jobs run at once (default 2)
	Poll          time.Duration // how often the store is read for queued jobs and cancels from elsewhere (default 1s)
	ProgressEvery time.Duration // the least time between stored progress updates of a job (default 500ms)
	Clock         domain.Clock
	// Publish receives the job after every change (the WebSocket's jobs
	// channel); it must not block.
	Publish func(domain.Job)
	// NotifyEvent gives a finished job's notification event, committed
	// with its final status (none when it says no).
	NotifyEvent func(domain.Job) (domain.NotifyEvent, bool)
}

// Runner stores, runs and cancels jobs.
type Runner struct {
	store    domain.JobStore
	opt      Options
	handlers map[string]Handler
	// resumable kinds keep their progress in their own store: a restart
	// runs them again rather than failing them (HandleResumable).
	resumable map[string]bool
	resume    []domain.Job // left running by a stopped runner, to run again
	wake      chan struct{}

	mu      sync.Mutex
	running map[string]*active
}

type active struct {
	cancel context.CancelCauseFunc
	job    domain.Job
}

// cancelled is the cause of a context a cancel ended: the job's reason.
type cancelled struct{ reason string }

func (c cancelled) Error() string { return c.reason }

// New returns a runner on the store.
func New(store domain.JobStore, opt Options) *Runner {
	if opt.Workers <= 0 {
		opt.Workers = 2
	}
	if opt.Poll <= 0 {
		opt.Poll = time.Second
	}
	if opt.ProgressEvery <= 0 {
		opt.ProgressEvery = 500 * time.Millisecond
	}
	if opt.Clock == nil {
		opt.Clock = domain.SystemClock{}
	}
	if opt.Publish == nil {
		opt.Publish = func(domain.Job) {}
	}
	return &Runner{store: store, opt: opt, handlers: map[string]Handler{}, resumable: map[string]bool{}, wake: make(chan struct{}, 1), running: map[string]*active{}}
}

// Handle sets the handler of a kind; call before Run.
func (r *Runner) Handle(kind string, h Handler) { r.handlers[kind] = h }

// HandleResumable sets the handler of a kind whose handler stores what it
// has done as it goes and skips it when run again (a sweep's finished
// trials): a job of it left running by a stopped runner is resumed, not
// failed. Call before Run.
func (r *Runner) HandleResumable(kind string, h Handler) {
	r.handlers[kind] = h
	r.resumable[kind] = true
}

// Submit stores a queued job and returns it; a runner (this process's, or
// the cluster leader's) picks it up.
func (r *Runner) Submit(ctx context.Context, kind, owner string, params any) (domain.Job, error) {
	return r.SubmitWithin(ctx, kind, owner, params, 0)
}

// SubmitWithin is Submit refusing the job (*domain.JobQuotaError) when
// owner already has maxActive jobs of kind queued or running (0: no limit).
func (r *Runner) SubmitWithin(ctx context.Context, kind, owner string, params any, maxActive int) (domain.Job, error) {
	if _, ok := r.handlers[kind]; !ok {
		return domain.Job{}, fmt.Errorf("no handler for jobs of kind %q", kind)
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return domain.Job{}, err
	}
	j := domain.Job{ID: uuid.NewString(), Kind: kind, Owner: owner, Status: domain.JobQueued, Params: raw, CreatedAt: r.now(), MaxActive: maxActive}
	if err := r.store.CreateJob(ctx, j); err != nil {
		return domain.Job{}, err
	}
	r.opt.Publish(j)
	r.poke()
	return j, nil
}

// Get returns a job as stored.
func (r *Runner) Get(ctx context.Context, id string) (domain.Job, error) { return r.store.Job(ctx, id) }

// List returns jobs of a kind, newest first.
func (r *Runner) List(ctx context.Context, kind string, limit int) ([]domain.Job, error) {
	return r.store.Jobs(ctx, kind, "", limit)
}

// Cancel cancels a job: a queued one at once, a running one as soon as its
// runner sees the request. by names who cancelled, for the job's reason.
func (r *Runner) Cancel(ctx context.Context, id, by string) (domain.Job, error) {
	j, err := r.store.CancelJob(ctx, id, "Cancelled by "+by, r.now())
	if err != nil {
		return j, err
	}
	if j.Status == domain.JobCancelled {
		r.opt.Publish(j)
	}
	r.mu.Lock()
	if a := r.running[id]; a != nil {
		a.cancel(cancelled{"Cancelled by " + by})
	}
	r.mu.Unlock()
	return j, nil
}

func (r *Runner) now() time.Time { return r.opt.Clock.Now().UTC() }

func (r *Runner) poke() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Run first fails the jobs a stopped runner left running (see the package
// doc), then runs queued jobs with at most Workers at once until ctx ends;
// jobs still running then are cancelled and marked failed.
func (r *Runner) Run(ctx context.Context) {
	r.recover(ctx)
	slots := make(chan struct{}, r.opt.Workers)
	var wg sync.WaitGroup
	defer wg.Wait()
	t := time.NewTicker(r.opt.Poll)
	defer t.Stop()
	for {
		r.cancelRequested(ctx)
		r.dispatch(ctx, slots, &wg)
		select {
		case <-ctx.Done():
			return
		case <-r.wake:
		case <-t.C:
		}
	}
}

// recover marks the jobs left running by a runner that stopped as failed.
func (r *Runner) recover(ctx context.Context) {
	left, err := r.store.Jobs(ctx, "", domain.JobRunning, 1000)
	if err != nil {
		slog.Error("cannot read the jobs left running", "err", err, "component", "jobs")
		return
	}
	for _, j := range left {
		if r.resumable[j.Kind] {
			if _, ok := r.handlers[j.Kind]; ok {
				slog.Info("resuming a job a stopped runner left running", "job", j.ID, "kind", j.Kind, "component", "jobs")
				r.resume = append(r.resume, j)
				continue
			}
		}
		reason := fmt.Sprintf("Interrupted at %.0f%%: the server running it stopped (restart, crash or change of cluster leader) before it finished; start it again", j.Progress*100)
		r.finish(ctx, j, domain.JobFailed, "", reason)
	}
}

// dispatch starts queued jobs, oldest first, while workers are free.
func (r *Runner) dispatch(ctx context.Context, slots chan struct{}, wg *sync.WaitGroup) {
	if ctx.Err() != nil || len(slots) == cap(slots) {
		return
	}
	for len(r.resume) > 0 { // already running in the store: no claim
		select {
		case slots <- struct{}{}:
		default:
			return
		}
		j := r.resume[0]
		r.resume = r.resume[1:]
		r.start(ctx, slots, wg, j, r.handlers[j.Kind])
	}
	queued, err := r.store.Jobs(ctx, "", domain.JobQueued, 1000)
	if err != nil {
		if ctx.Err() == nil {
			slog.Error("cannot read queued jobs", "err", err, "component", "jobs")
		}
		return
	}
	for i := len(queued) - 1; i >= 0; i-- {
		j := queued[i]
		h, ok := r.handlers[j.Kind]
		if !ok {
			continue // a kind another build runs
		}
		select {
		case slots <- struct{}{}:
		default:
			return
		}
		ok, err := r.store.ClaimJob(ctx, j.ID, r.now())
		if err != nil || !ok {
			<-slots
			if err != nil && ctx.Err() == nil {
				slog.Error("cannot claim a job", "job", j.ID, "err", err, "component", "jobs")
			}
			continue
		}
		started := r.now()
		j.Status, j.StartedAt = domain.JobRunning, &started
		r.start(ctx, slots, wg, j, h)
	}
}

// start runs a running job on a taken slot.
func (r *Runner) start(ctx context.Context, slots chan struct{}, wg *sync.WaitGroup, j domain.Job, h Handler) {
	jctx, cancel := context.WithCancelCause(ctx)
	r.mu.Lock()
	r.running[j.ID] = &active{cancel: cancel, job: j}
	r.mu.Unlock()
	r.opt.Publish(j)
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() { <-slots; r.poke() }()
		r.execute(ctx, jctx, cancel, j, h)
	}()
}

// execute runs one claimed job and stores how it ended.
func (r *Runner) execute(parent, ctx context.Context, cancel context.CancelCauseFunc, j domain.Job, h Handler) {
	defer func() {
		r.mu.Lock()
		delete(r.running, j.ID)
		r.mu.Unlock()
		cancel(nil)
	}()
	p := &progress{r: r, job: j}
	ref, err := safely(ctx, h, j, p.report)
	cause := context.Cause(ctx)
	var c cancelled
	switch {
	case err == nil:
		r.finish(parent, j, domain.JobCompleted, ref, "")
	case errors.As(cause, &c):
		r.finish(parent, p.lastJob(), domain.JobCancelled, "", c.reason)
	case parent.Err() != nil:
		r.finish(parent, p.lastJob(), domain.JobFailed, "", "Interrupted: the server stopped (shutdown or change of cluster leader) while it ran; start it again")
	default:
		r.finish(parent, p.lastJob(), domain.JobFailed, "", err.Error())
	}
}

// safely runs a handler, turning a panic into the job's failure.
func safely(ctx context.Context, h Handler, j domain.Job, progress func(float64)) (ref string, err error) {
	defer func() {
		if v := recover(); v != nil {
			slog.Error("job panicked", "job", j.ID, "kind", j.Kind, "panic", v, "component", "jobs")
			err = fmt.Errorf("internal error: %v", v)
		}
	}()
	return h(ctx, j, progress)
}

// finish stores a final status (even while the runner stops) and publishes it.
func (r *Runner) finish(ctx context.Context, j domain.Job, status, ref, reason string) {
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	at := r.now()
	j.Status, j.ResultRef, j.Error, j.FinishedAt = status, ref, reason, &at
	if status == domain.JobCompleted {
		j.Progress = 1
	}
	var event *domain.NotifyEvent
	if r.opt.NotifyEvent != nil {
		if n, ok := r.opt.NotifyEvent(j); ok {
			event = &n
		}
	}
	ok, err := r.store.FinishJob(wctx, j.ID, status, ref, reason, at, event)
	if err != nil {
		slog.Error("cannot store how a job ended", "job", j.ID, "status", status, "err", err, "component", "jobs")
		return
	}
	if !ok {
		return // it had already ended (a cancel of a queued job)
	}
	j.Journaled = event != nil
	slog.Info("job ended", "job", j.ID, "kind", j.Kind, "status", status, "reason", reason, "component", "jobs")
	r.opt.Publish(j)
}

// cancelRequested cancels the jobs running here that were cancelled
// through the store (from another instance of the cluster).
func (r *Runner) cancelRequested(ctx context.Context) {
	r.mu.Lock()
	n := len(r.running)
	r.mu.Unlock()
	if n == 0 {
		return
	}
	running, err := r.store.Jobs(ctx, "", domain.JobRunning, 1000)
	if err != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, j := range running {
		if a := r.running[j.ID]; a != nil && j.CancelRequested {
			a.cancel(cancelled{j.Error})
		}
	}
}

// progress stores and publishes a job's progress, at most every
// ProgressEvery and only when it moved.
type progress struct {
	r    *Runner
	mu   sync.Mutex
	job  domain.Job
	last time.Time
}

func (p *progress) report(v float64) {
	v = min(max(v, 0), 1)
	p.mu.Lock()
	now := p.r.now()
	if v <= p.job.Progress || now.Sub(p.last) < p.r.opt.ProgressEvery {
		p.mu.Unlock()
		return
	}
	p.job.Progress, p.last = v, now
	j := p.job
	p.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := p.r.store.SetJobProgress(ctx, j.ID, v); err != nil {
		slog.Warn("cannot store a job's progress", "job", j.ID, "err", err, "component", "jobs")
	}
	p.r.opt.Publish(j)
}

func (p *progress) lastJob() domain.Job {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.job
}
