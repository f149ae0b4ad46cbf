// Package coinbase is the Coinbase Advanced Trade adapter: a REST v3 client
// signed with CDP API keys (EdDSA or ES256 JWTs), domain.Exchange on top of
// it, and the live market (domain.MarketData) from Coinbase's public
// endpoints, which need no key.
// docs/COINBASE.md says what is mapped how; coinbasefake is the local
// exchange the tests run it against.
package coinbase

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"kestrel/domain"
)

// Hosts Coinbase serves Advanced Trade from. The sandbox answers accounts
// and orders with static responses; market data stays on the production
// host (it is public and needs no funds).
const (
	ProductionURL = "https://api.coinbase.com"
	SandboxURL    = "https://api-sandbox.coinbase.com"
	MarketWSURL   = "wss://advanced-trade-ws.coinbase.com"
	UserWSURL     = "wss://advanced-trade-ws-user.coinbase.com"
	apiPrefix     = "/api/v3/brokerage"
)

// ClientConfig configures the REST client.
type ClientConfig struct {
	BaseURL string // scheme://host, e.g. ProductionURL
	Key     Key
	HTTP    *http.Client
	// Timeout bounds one attempt (the settings' exchange timeout).
	Timeout time.Duration
	// RateLimit is the most requests per second this client sends (0: no cap).
	RateLimit int
	// Retries is how many times a failed attempt is tried again (429, 5xx,
	// transport errors on safe requests).
	Retries int
	// Backoff is the first retry's base wait; each retry doubles it, with jitter.
	Backoff time.Duration
	Now     func() time.Time
	// Sleep waits d or until ctx ends; tests replace it to record the waits.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Client calls the Advanced Trade REST API.
type Client struct {
	cfg  ClientConfig
	host string

	mu      sync.Mutex
	next    time.Time // earliest start of the next request (own rate cap)
	blocked time.Time // no request before this (the server said so)
}

// NewClient checks the configuration and returns a client.
func NewClient(cfg ClientConfig) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(cfg.BaseURL, "/"))
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, fmt.Errorf("coinbase API URL %q is not an http(s) URL", cfg.BaseURL)
	}
	cfg.BaseURL = u.Scheme + "://" + u.Host
	if cfg.HTTP == nil {
		cfg.HTTP = &http.Client{}
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = 250 * time.Millisecond
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Sleep == nil {
		cfg.Sleep = sleep
	}
	return &Client{cfg: cfg, host: u.Host}, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// errUnknown marks an attempt whose outcome is unknown: the request may
// have been carried out (timeout, connection lost, 5xx).
var errUnknown = errors.New("outcome unknown")

// unknownOutcome reports whether err says the request may have taken effect.
func unknownOutcome(err error) bool { return errors.Is(err, errUnknown) }

// unknown is the error of a write that may or may not have reached Coinbase:
// a 504 outcome_unknown (never a 503, which promises it did not run), whose
// cause is errUnknown so the adapter can look before answering with its own
// words. The inner error is kept as text only, so no code of it leaks out.
func unknown(err error) error {
	return &domain.Error{Code: domain.EUnknownOutcome, Message: "Coinbase did not confirm the request; it may or may not have taken effect",
		Cause: fmt.Errorf("%w: %v", errUnknown, err)}
}

// notSent reports whether a transport error came before the request left
// this machine (no address, no connection: refused, unreachable), so the
// request certainly did not reach Coinbase and may be sent again.
func notSent(err error) bool {
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return true
	}
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// call is one API request.
type call struct {
	method string
	path   string // below /api/v3/brokerage
	query  url.Values
	body   any
	// safe requests are retried after an unknown outcome (reads, cancels);
	// unsafe ones return errUnknown so the caller can look before retrying.
	safe bool
	// write requests change something at Coinbase (create, edit, cancel):
	// once an attempt may have reached it, a failure is an unknown outcome.
	write bool
	// public requests (market data under /market) carry no key at all.
	public bool
}

// errNoKey refuses a private request from a client without a key.
var errNoKey = domain.Errorf(domain.EUnavailable, "No Coinbase API key is configured; only public market data can be read")

// do runs a call with the rate cap, retries and backoff, decoding a 2xx
// answer into out. A write answers 503 (or 429) only when no attempt of it
// can have reached Coinbase, or Coinbase refused it: otherwise it answers
// unknown (504).
func (c *Client) do(ctx context.Context, cl call, out any) error {
	if !cl.public && c.cfg.Key.IsZero() {
		return errNoKey
	}
	var body []byte
	if cl.body != nil {
		var err error
		if body, err = json.Marshal(cl.body); err != nil {
			return err
		}
	}
	maybeSent := false // an attempt of this write may have been carried out
	fail := func(err error) error {
		if cl.write && maybeSent {
			return unknown(err)
		}
		return err
	}
	for attempt := 0; ; attempt++ {
		if err := c.wait(ctx); err != nil {
			return fail(err)
		}
		status, hdr, raw, err := c.once(ctx, cl, body)
		last := attempt >= c.cfg.Retries
		switch {
		case err != nil && notSent(err):
			// Nothing left this machine: any request may be tried again.
			if ctx.Err() != nil {
				return fail(ctx.Err())
			}
			if last {
				return fail(domain.Errorf(domain.EUnavailable, "Coinbase could not be reached: %v", err))
			}
		case err != nil && ctx.Err() != nil:
			// The caller stopped waiting; a write sent may have been carried out.
			maybeSent = true
			return fail(ctx.Err())
		case err != nil:
			maybeSent = true
			if !cl.safe {
				return unknown(err)
			}
			if last {
				return fail(domain.Errorf(domain.EUnavailable, "Coinbase did not answer: %v", err))
			}
		case status == http.StatusTooManyRequests:
			// Coinbase refused this attempt before carrying it out.
			if last {
				return fail(domain.Errorf(domain.ETooMany, "Coinbase rate limit reached; try again shortly"))
			}
			if wait := retryAfter(hdr, c.cfg.Now()); wait > 0 {
				c.block(c.cfg.Now().Add(wait))
				continue // the server's word replaces our own backoff
			}
		case status >= 500:
			// Coinbase documents no 5xx as "not processed", and a gateway's
			// 502/503/504 may come after the request was passed on: a write
			// may have been carried out.
			maybeSent = true
			if !cl.safe {
				return unknown(fmt.Errorf("HTTP %d", status))
			}
			if last {
				return fail(domain.Errorf(domain.EUnavailable, "Coinbase is unavailable (HTTP %d)", status))
			}
		case status >= 200 && status < 300:
			if out == nil {
				return nil
			}
			if err := json.Unmarshal(raw, out); err != nil {
				if cl.write { // Coinbase answered, so it carried the write out or refused it: which is unreadable
					return unknown(fmt.Errorf("unreadable answer to %s %s: %v", cl.method, cl.path, err))
				}
				return domain.Errorf(domain.EUnavailable, "Coinbase sent an unreadable answer to %s %s: %v", cl.method, cl.path, err)
			}
			return nil
		default:
			return fail(apiError(status, raw))
		}
		if err := c.cfg.Sleep(ctx, c.backoff(attempt)); err != nil {
			return fail(err)
		}
	}
}

// once sends one signed attempt within the per-attempt timeout.
func (c *Client) once(ctx context.Context, cl call, body []byte) (int, http.Header, []byte, error) {
	path := apiPrefix + cl.path
	var jwt string
	if !cl.public {
		var err error
		if jwt, err = c.cfg.Key.Sign(c.cfg.Now(), cl.method+" "+c.host+path); err != nil {
			return 0, nil, nil, err
		}
	}
	actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	u := c.cfg.BaseURL + path
	if len(cl.query) > 0 {
		u += "?" + cl.query.Encode()
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(actx, cl.method, u, rd)
	if err != nil {
		return 0, nil, nil, err
	}
	if jwt != "" {
		req.Header.Set("Authorization", "Bearer "+jwt)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.cfg.HTTP.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return 0, nil, nil, err
	}
	c.observe(resp.Header)
	return resp.StatusCode, resp.Header, raw, nil
}

// wait holds a request back for the own rate cap and any server block.
func (c *Client) wait(ctx context.Context) error {
	c.mu.Lock()
	now := c.cfg.Now()
	start := now
	if c.next.After(start) {
		start = c.next
	}
	if c.blocked.After(start) {
		start = c.blocked
	}
	if c.cfg.RateLimit > 0 {
		c.next = start.Add(time.Second / time.Duration(c.cfg.RateLimit))
	}
	c.mu.Unlock()
	return c.cfg.Sleep(ctx, start.Sub(now))
}

func (c *Client) block(until time.Time) {
	c.mu.Lock()
	if until.After(c.blocked) {
		c.blocked = until
	}
	c.mu.Unlock()
}

// observe reads the x-ratelimit-* headers: with nothing remaining, no
// request is sent before the window resets.
func (c *Client) observe(h http.Header) {
	rem := h.Get("x-ratelimit-remaining")
	if rem == "" {
		return
	}
	if n, err := strconv.ParseFloat(rem, 64); err == nil && n <= 0 {
		if at, ok := resetAt(h, c.cfg.Now()); ok {
			c.block(at)
		}
	}
}

// resetAt reads x-ratelimit-reset: seconds from now, or a Unix time.
func resetAt(h http.Header, now time.Time) (time.Time, bool) {
	v := h.Get("x-ratelimit-reset")
	if v == "" {
		return time.Time{}, false
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 {
		if t, err := http.ParseTime(v); err == nil {
			return t, true
		}
		return time.Time{}, false
	}
	if f > 1e9 { // a Unix timestamp
		return time.Unix(0, int64(f*1e9)), true
	}
	return now.Add(time.Duration(f * float64(time.Second))), true
}

// retryAfter is how long a 429 asks us to wait (Retry-After, else the reset).
func retryAfter(h http.Header, now time.Time) time.Duration {
	if v := h.Get("Retry-After"); v != "" {
		if s, err := strconv.Atoi(v); err == nil && s >= 0 {
			return time.Duration(s) * time.Second
		}
	}
	if at, ok := resetAt(h, now); ok && at.After(now) {
		return at.Sub(now)
	}
	return 0
}

// backoff is the wait before retry attempt+1: exponential with jitter (half
// fixed, half random) so many clients do not retry in step; capped at 10 s.
func (c *Client) backoff(attempt int) time.Duration {
	d := c.cfg.Backoff << min(attempt, 6)
	d = min(d, 10*time.Second)
	return d/2 + rand.N(d/2+1)
}

// apiError turns a non-2xx answer into a domain error with Coinbase's reason.
func apiError(status int, raw []byte) error {
	var e APIError
	msg := strings.TrimSpace(string(raw))
	if json.Unmarshal(raw, &e) == nil && (e.Message != "" || e.Error != "") {
		msg = e.Message
		if msg == "" {
			msg = e.Error
		}
	}
	if len(msg) > 300 {
		msg = msg[:300]
	}
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden:
		return domain.Errorf(domain.EUnavailable, "Coinbase refused the API key (HTTP %d): %s", status, msg)
	case http.StatusNotFound:
		return domain.Errorf(domain.ENotFound, "Coinbase: %s", msg)
	case http.StatusBadRequest:
		return domain.Errorf(domain.EInvalid, "Coinbase refused the request: %s", msg)
	}
	return domain.Errorf(domain.EUnavailable, "Coinbase answered HTTP %d: %s", status, msg)
}
