// Package logbook keeps recent log records for /system/logs: a bounded
// in-memory ring of every record the logger emits, plus warnings and errors
// written to the store in the background so they survive restarts.
package logbook

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"sync"
	"time"

	"kestrel/domain"
)

// LevelCritical is the spec's CRITICAL level.
const LevelCritical = slog.LevelError + 4

// Levels are the spec's names, lowest first.
var Levels = []string{"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}

// LevelName maps a slog level to the spec's name.
func LevelName(l slog.Level) string {
	switch {
	case l >= LevelCritical:
		return "CRITICAL"
	case l >= slog.LevelError:
		return "ERROR"
	case l >= slog.LevelWarn:
		return "WARNING"
	case l >= slog.LevelInfo:
		return "INFO"
	}
	return "DEBUG"
}

// AtOrAbove lists the level names at or above name (unknown: every level).
func AtOrAbove(name string) []string {
	i := slices.Index(Levels, name)
	if i < 0 {
		return nil
	}
	return Levels[i:]
}

// Book is the ring and the persistence queue.
type Book struct {
	mu    sync.Mutex
	ring  []domain.LogEntry
	next  int
	count int
	queue chan domain.LogEntry
}

// New returns a book keeping the last size records in memory.
func New(size int) *Book {
	return &Book{ring: make([]domain.LogEntry, size), queue: make(chan domain.LogEntry, 1024)}
}

func (b *Book) add(e domain.LogEntry) {
	b.mu.Lock()
	b.ring[b.next] = e
	b.next = (b.next + 1) % len(b.ring)
	if b.count < len(b.ring) {
		b.count++
	}
	b.mu.Unlock()
	if e.Level == "WARNING" || e.Level == "ERROR" || e.Level == "CRITICAL" {
		select {
		case b.queue <- e:
		default: // the store is behind: the record stays in the ring only
		}
	}
}

// recent returns the ring's records newest first.
func (b *Book) recent() []domain.LogEntry {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]domain.LogEntry, 0, b.count)
	for i := 1; i <= b.count; i++ {
		out = append(out, b.ring[(b.next-i+len(b.ring))%len(b.ring)])
	}
	return out
}

// Persist writes queued warnings and errors to the store until ctx ends.
func (b *Book) Persist(ctx context.Context, store domain.LogStore) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	var batch []domain.LogEntry
	flush := func() {
		if len(batch) == 0 {
			return
		}
		if err := store.AppendLogs(context.WithoutCancel(ctx), batch); err != nil {
			// Not through slog: that would queue this failure again.
			fmt.Fprintf(os.Stderr, "logbook: cannot persist %d log records: %v\n", len(batch), err)
		}
		batch = batch[:0]
	}
	for {
		select {
		case <-ctx.Done():
			for {
				select {
				case e := <-b.queue:
					batch = append(batch, e)
				default:
					flush()
					return
				}
			}
		case e := <-b.queue:
			batch = append(batch, e)
			if len(batch) >= 100 {
				flush()
			}
		case <-t.C:
			flush()
		}
	}
}

// Query returns records at or above level for component (empty: any),
// newest first: the ring first, then older persisted warnings and errors.
func (b *Book) Query(ctx context.Context, store domain.LogStore, level, component string, limit int) ([]domain.LogEntry, error) {
	levels := AtOrAbove(level)
	out := []domain.LogEntry{}
	recent := b.recent()
	for _, e := range recent {
		if len(out) == limit {
			return out, nil
		}
		if (levels == nil || slices.Contains(levels, e.Level)) && (component == "" || e.Component == component) {
			out = append(out, e)
		}
	}
	if store == nil {
		return out, nil
	}
	// Persisted records older than the ring's oldest (stores keep milliseconds,
	// so the boundary millisecond is read too and records the ring holds are skipped).
	f := domain.LogFilter{Levels: levels, Component: component, Limit: limit - len(out) + len(recent)}
	inRing := map[string]bool{}
	if len(recent) > 0 {
		f.Before = recent[len(recent)-1].Time.Truncate(time.Millisecond).Add(time.Millisecond)
		for _, e := range recent {
			inRing[key(e)] = true
		}
	}
	older, err := store.ListLogs(ctx, f)
	if err != nil {
		return out, err
	}
	for _, e := range older {
		if len(out) == limit {
			break
		}
		if !inRing[key(e)] {
			out = append(out, e)
		}
	}
	return out, nil
}

func key(e domain.LogEntry) string {
	return fmt.Sprint(e.Time.UnixMilli(), e.Level, e.Component, e.Message)
}

// Handler tees every record the inner handler accepts into the book.
func (b *Book) Handler(inner slog.Handler) slog.Handler { return &handler{book: b, inner: inner} }

type handler struct {
	book   *Book
	inner  slog.Handler
	attrs  []slog.Attr
	groups string
}

func (h *handler) Enabled(ctx context.Context, l slog.Level) bool { return h.inner.Enabled(ctx, l) }

func (h *handler) Handle(ctx context.Context, r slog.Record) error {
	e := domain.LogEntry{Time: r.Time.UTC(), Level: LevelName(r.Level), Component: "server", Message: r.Message, Attrs: map[string]string{}}
	take := func(a slog.Attr) bool {
		if a.Key == "component" {
			e.Component = a.Value.String()
		} else {
			e.Attrs[h.groups+a.Key] = a.Value.String()
		}
		return true
	}
	for _, a := range h.attrs {
		take(a)
	}
	r.Attrs(take)
	h.book.add(e)
	return h.inner.Handle(ctx, r)
}

func (h *handler) WithAttrs(as []slog.Attr) slog.Handler {
	return &handler{book: h.book, inner: h.inner.WithAttrs(as), attrs: append(slices.Clone(h.attrs), as...), groups: h.groups}
}

func (h *handler) WithGroup(name string) slog.Handler {
	return &handler{book: h.book, inner: h.inner.WithGroup(name), attrs: h.attrs, groups: h.groups + name + "."}
}
