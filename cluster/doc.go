// Package cluster lets several kestrel serve processes, sharing one
// PostgreSQL database and one NATS server, act as one platform:
//
//   - Elector: exactly one instance (the leader) holds a PostgreSQL advisory
//     lock on a dedicated connection and runs the trading engine; it steps
//     down the moment that session is lost, and the others try again every
//     second, so a dead leader is replaced within a couple of seconds.
//   - Members: every instance heartbeats on NATS, so each knows the live
//     instances and which one leads (for /api/system/status).
//   - Forwarder: an instance that does not lead sends trading commands (and
//     the other writes whose effect lives in the engine's memory) to the
//     leader over NATS request/reply, and answers 503 when none replies.
//
// The in-process event bus is bridged to NATS by events/natsbus.
package cluster

import (
	"fmt"
	"os"
)

// DefaultInstanceID names an instance when none is configured: host name
// and process id, unique on one machine and readable in the status.
func DefaultInstanceID() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		h = "kestrel"
	}
	return fmt.Sprintf("%s-%d", h, os.Getpid())
}
