// Package cluster lets several kestrel serve processes, sharing one
// PostgreSQL database and one NATS server, act as one platform:
//
//   - Elector: exactly one instance (the leader) holds a lease in PostgreSQL
//     (table cluster_leader) that it renews every second and runs the
//     trading engine; it counts itself the leader only while its last
//     renewal is recent on its own monotonic clock, and steps down as soon as
//     a renewal fails, so a crashed, frozen or cut-off leader is replaced
//     about a lease (3 s) after its last renewal, in a higher term. A leader
//     that NATS has not answered for NATSGrace (Reach) steps down and ends
//     its lease, since no command could reach it; an instance in that state
//     does not try for the lease.
//   - Members: every instance heartbeats on NATS, so each knows the live
//     instances and which one leads, in which term (for /api/system/status
//     and for forwarding).
//   - Forwarder: an instance that does not lead sends trading commands (and
//     the other writes whose effect lives in the engine's memory) to the
//     subject of the leader's term, with a deadline; the leader runs each on
//     a bounded pool of workers only if its lease and the deadline allow,
//     after telling the follower it starts. A 503 from the forwarder means
//     the command did not run; a 504 that nobody can tell (docs/SCALING.md).
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
