package sqlite

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"kestrel/domain"
)

// faultHold is how long a refused write keeps the database reported as
// failing even after a write succeeds: on a nearly full disk a small write
// can fit where the next cannot, and the health should not flicker with
// each. The web app polls the health every 10 s.
const faultHold = time.Minute

// writeHealth remembers the writer's faults (a full or read-only disk, an
// I/O error: what unavailable makes EUnavailable), which the health check's
// read cannot see: SQLite answers reads on such a disk. A nil *writeHealth
// (the readers) remembers nothing.
type writeHealth struct {
	faulty atomic.Bool // a fault is remembered: only then does a success take the lock

	mu    sync.Mutex
	fault domain.WriteFault
	okAt  time.Time // the last successful write after the fault
	now   func() time.Time
}

func newWriteHealth() *writeHealth { return &writeHealth{now: time.Now} }

// note records how a write ended: nil is a success, EUnavailable a fault;
// any other error (a constraint, a cancelled context) says nothing about
// the disk.
func (h *writeHealth) note(err error) {
	if h == nil {
		return
	}
	if err == nil {
		if h.faulty.Load() {
			h.mu.Lock()
			h.okAt = h.now()
			h.mu.Unlock()
		}
		return
	}
	var de *domain.Error
	if !errors.As(err, &de) || de.Code != domain.EUnavailable {
		return
	}
	h.mu.Lock()
	h.fault = domain.WriteFault{Message: de.Message, At: h.now().UTC()}
	h.okAt = time.Time{}
	h.faulty.Store(true)
	h.mu.Unlock()
}

// last is the remembered fault while writes are failing: no write has
// succeeded since it, or it is less than faultHold old.
func (h *writeHealth) last() (domain.WriteFault, bool) {
	if !h.faulty.Load() {
		return domain.WriteFault{}, false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.okAt.IsZero() && h.now().Sub(h.fault.At) >= faultHold {
		h.faulty.Store(false)
		return domain.WriteFault{}, false
	}
	return h.fault, true
}

// WriteFault implements domain.WriteHealth.
func (s *Store) WriteFault() (domain.WriteFault, bool) { return s.w.health.last() }
