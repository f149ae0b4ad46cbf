package cluster

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"

	"kestrel/domain"
)

// Serve answers the commands forwarded to term with h until ctx ends; the
// leader runs it for as long as it leads in that term. The subscription is
// in a queue group, so one instance receives each command even should two
// serve one term. Commands run concurrently, as HTTP requests do, on at
// most Workers workers that stay for the next command (a goroutine per
// command grew its stack through the handler chain every time); a command
// that finds them all busy is answered 503 at once, never queued.
func (f *Forwarder) Serve(ctx context.Context, h http.Handler, term int64) error {
	n := f.Workers
	if n <= 0 {
		n = DefaultWorkers
	}
	slots := make(chan struct{}, n)
	work := make(chan *nats.Msg)
	sub, err := f.nc.QueueSubscribe(f.subject(term), "leader", func(m *nats.Msg) {
		if status, msg := f.refusal(ctx, m); status != 0 {
			f.refuse(m, status, msg, "2")
			return
		}
		select {
		case work <- m: // an idle worker takes it
			return
		default:
		}
		select {
		case slots <- struct{}{}:
			go func() { defer func() { <-slots }(); f.worker(ctx, h, m, work) }()
		default:
			f.refuse(m, http.StatusServiceUnavailable, "The trading engine is busy with other commands; this one was not run. Retry shortly with the same client order id", "1")
		}
	})
	if err != nil {
		return err
	}
	if err := f.nc.Flush(); err != nil {
		sub.Unsubscribe()
		return err
	}
	<-ctx.Done()
	return sub.Unsubscribe()
}

// worker serves m, then whatever work brings, until it has been idle for
// workerIdle or leadership ends.
func (f *Forwarder) worker(ctx context.Context, h http.Handler, m *nats.Msg, work <-chan *nats.Msg) {
	f.serveOne(ctx, h, m)
	idle := time.NewTimer(workerIdle)
	defer idle.Stop()
	for {
		select {
		case m := <-work:
			f.serveOne(ctx, h, m)
			idle.Reset(workerIdle)
		case <-idle.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// refusal says why m must not start now (status 0: it may): this instance
// no longer leads in the command's term, or the command's deadline has
// passed (a paused leader wakes to find old commands in its buffers).
func (f *Forwarder) refusal(ctx context.Context, m *nats.Msg) (int, string) {
	ns, err := strconv.ParseInt(m.Header.Get(hdrDeadline), 10, 64)
	switch {
	case err != nil:
		return http.StatusBadRequest, "The forwarded request carries no deadline; it was not run"
	case ctx.Err() != nil || !f.leading():
		return http.StatusServiceUnavailable, domain.MsgNotLeader
	case !time.Now().Before(time.Unix(0, ns)):
		return http.StatusServiceUnavailable, msgExpired
	}
	return 0, ""
}

// refuse answers m with an error it did not run.
func (f *Forwarder) refuse(m *nats.Msg, status int, msg, retryAfter string) {
	rec := &recorder{header: http.Header{}}
	if status == http.StatusServiceUnavailable {
		rec.header.Set("Retry-After", retryAfter)
	}
	code := domain.EUnavailable
	if status == http.StatusBadRequest {
		code = domain.EInvalid
	}
	writeEnvelope(rec, status, code, msg)
	f.respond(m, rec)
}

func (f *Forwarder) respond(m *nats.Msg, rec *recorder) {
	reply := nats.Header(rec.header)
	reply[hdrStatus] = []string{strconv.Itoa(rec.status)}
	if err := m.RespondMsg(&nats.Msg{Header: reply, Data: rec.body.Bytes()}); err != nil {
		slog.Warn("reply to a forwarded request failed", "err", err, "component", "cluster")
	}
}

// serveOne runs m unless it must not start: checked once a worker has it,
// and again right before it runs, after the follower has been told it
// starts (the notice is flushed to NATS first, so a follower that has not
// heard it by the deadline may say the command did not run).
func (f *Forwarder) serveOne(ctx context.Context, h http.Handler, m *nats.Msg) {
	if status, msg := f.refusal(ctx, m); status != 0 {
		f.refuse(m, status, msg, "2")
		return
	}
	deadline, _ := strconv.ParseInt(m.Header.Get(hdrDeadline), 10, 64)
	err := m.RespondMsg(&nats.Msg{Header: nats.Header{hdrStarted: {"1"}}})
	if err == nil {
		err = f.nc.FlushTimeout(time.Until(time.Unix(0, deadline)))
	}
	if err != nil {
		f.refuse(m, http.StatusServiceUnavailable, "The trading engine could not confirm this command in time; it was not run. Retry with the same client order id", "2")
		return
	}
	if status, msg := f.refusal(ctx, m); status != 0 {
		f.refuse(m, status, msg, "2")
		return
	}
	began := time.Now()
	method, uri, from := m.Header.Get(hdrMethod), m.Header.Get(hdrURI), m.Header.Get(forwardedHeader)
	rec := &recorder{header: http.Header{}, status: http.StatusOK}
	if req, err := http.NewRequestWithContext(context.WithoutCancel(ctx), method, uri, bytes.NewReader(m.Data)); err != nil || method == "" {
		writeEnvelope(rec, http.StatusBadRequest, domain.EInvalid, "The forwarded request could not be read")
	} else {
		req.Header = copyUnreserved(make(http.Header, len(m.Header)), m.Header)
		req.RemoteAddr = m.Header.Get(hdrRemoteAddr)
		h.ServeHTTP(rec, req)
	}
	f.respond(m, rec)
	if took := time.Since(began); took > f.timeout/2 {
		slog.Warn("a forwarded request was slow", "method", method, "uri", uri, "from", from, "took", took, "component", "cluster")
	}
}
