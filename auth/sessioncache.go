package auth

import (
	"sync"
	"time"

	"kestrel/domain"
)

// sessionCache keeps recently used sessions with their users, so an
// authenticated request reads nothing from the store. Every change that
// ends a session or alters its user (logout, disabling, role change,
// password change or reset) drops the entries concerned at once, and
// expiry is checked on every use against the cached expiry, so the cache
// never admits a request the store would refuse. It is one process's cache:
// it relies on sessions being ended through this Service.
type sessionCache struct {
	mu      sync.Mutex
	entries map[string]cachedSession // by token hash
	gen     uint64                   // bumped by every invalidation
}

type cachedSession struct {
	ss domain.Session
	u  domain.User
}

// maxCachedSessions bounds the cache; when full it starts again empty.
const maxCachedSessions = 10_000

func newSessionCache() *sessionCache {
	return &sessionCache{entries: map[string]cachedSession{}}
}

func (c *sessionCache) get(hash string) (cachedSession, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[hash]
	return e, ok
}

// generation is read before a store lookup; put stores its result only if
// no invalidation happened meanwhile (else a lookup racing a logout could
// cache the session the logout just ended).
func (c *sessionCache) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

func (c *sessionCache) put(gen uint64, hash string, e cachedSession) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if len(c.entries) >= maxCachedSessions {
		c.entries = map[string]cachedSession{}
	}
	c.entries[hash] = e
}

// extended records a session's new expiry.
func (c *sessionCache) extended(hash string, exp time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[hash]; ok {
		e.ss.ExpiresAt = exp
		c.entries[hash] = e
	}
}

// drop forgets one session.
func (c *sessionCache) drop(hash string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	delete(c.entries, hash)
}

// dropUser forgets every session of userID.
func (c *sessionCache) dropUser(userID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	for h, e := range c.entries {
		if e.ss.UserID == userID {
			delete(c.entries, h)
		}
	}
}

// clear forgets every session (another instance changed sessions or users).
func (c *sessionCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.entries = map[string]cachedSession{}
}

// used records a session's new last use.
func (c *sessionCache) used(hash string, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[hash]; ok {
		e.ss.LastUsedAt = at
		c.entries[hash] = e
	}
}
