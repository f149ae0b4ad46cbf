package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"net"
	"sync"

	"kestrel/domain"
)

// The MCP sessions one credential (API token or sign-in session) and one
// client address may hold at once. An agent needs one or two; the cap keeps
// one token or host from holding thousands for the idle time.
const (
	sessionsPerCredential = 16
	sessionsPerAddress    = 64
)

// sessionCount counts the live MCP sessions per credential (a hash of the
// bearer) and per client address (an IPv6 address by its /64).
type sessionCount struct {
	mu   sync.Mutex
	live map[string]int
}

// reserve counts a new session, or says which cap refuses it; release
// uncounts it (once).
func (c *sessionCount) reserve(bearer, addr string) (release func(), err error) {
	sum := sha256.Sum256([]byte(bearer))
	cred, host := "c:"+hex.EncodeToString(sum[:16]), "a:"+addressKey(addr)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.live == nil {
		c.live = map[string]int{}
	}
	switch {
	case c.live[cred] >= sessionsPerCredential:
		return nil, domain.Errorf(domain.ETooMany, "This credential already has %d MCP sessions open, the most it may hold; end one (DELETE /mcp) or wait for an idle one to close (after %s)", sessionsPerCredential, IdleSession)
	case c.live[host] >= sessionsPerAddress:
		return nil, domain.Errorf(domain.ETooMany, "This address already has %d MCP sessions open, the most it may hold; end one (DELETE /mcp) or wait for an idle one to close (after %s)", sessionsPerAddress, IdleSession)
	}
	c.live[cred]++
	c.live[host]++
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			for _, k := range []string{cred, host} {
				if c.live[k]--; c.live[k] <= 0 {
					delete(c.live, k)
				}
			}
		})
	}, nil
}

// addressKey is an address as a limit counts it: an IPv6 address by its
// /64 (one host's usual allocation), anything else as it is.
func addressKey(addr string) string {
	ip := net.ParseIP(addr)
	if ip == nil || ip.To4() != nil {
		return addr
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}
