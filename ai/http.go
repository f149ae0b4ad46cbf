package ai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxBody caps what is read of a provider's response.
const maxBody = 4 << 20

// caller makes JSON calls to one provider's host and turns failures into
// errors that read well as a recorded reason.
type caller struct {
	name    string // Replicate, OpenAI-compatible endpoint
	client  *http.Client
	token   string
	timeout time.Duration
}

// reply is a response read in full.
type reply struct {
	Status int
	Header http.Header
	Body   []byte
}

// do sends body (nil for GET) as JSON. A 429 is retried once after its
// Retry-After when that still fits before the deadline. Every non-2xx answer
// comes back as an error.
func (c caller) do(ctx context.Context, method, url string, body any, header http.Header) (reply, error) {
	for attempt := 0; ; attempt++ {
		rep, err := c.once(ctx, method, url, body, header)
		if err != nil {
			return rep, err
		}
		if rep.Status == http.StatusTooManyRequests && attempt == 0 && c.waitRetry(ctx, rep.Header) {
			continue
		}
		if rep.Status < 200 || rep.Status > 299 {
			return rep, c.statusError(rep)
		}
		return rep, nil
	}
}

func (c caller) once(ctx context.Context, method, url string, body any, header http.Header) (reply, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return reply{}, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return reply{}, fmt.Errorf("%s: %w", c.name, err)
	}
	req.Header = header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	req.Header.Set("Content-Type", "application/json")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	res, err := c.client.Do(req)
	if err != nil {
		return reply{}, c.transportError(ctx, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, maxBody))
	if err != nil {
		return reply{}, c.transportError(ctx, err)
	}
	return reply{Status: res.StatusCode, Header: res.Header, Body: b}, nil
}

// transportError says plainly whether the deadline passed.
func (c caller) transportError(ctx context.Context, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
		return c.timeoutError()
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%s: request canceled", c.name)
	}
	return fmt.Errorf("%s: %w", c.name, err)
}

func (c caller) timeoutError() error {
	return fmt.Errorf("%s did not answer within the %s timeout", c.name, c.timeout)
}

// waitRetry sleeps for Retry-After (1 s when absent) if that ends before the
// context's deadline, and reports whether it did.
func (c caller) waitRetry(ctx context.Context, h http.Header) bool {
	wait := retryAfter(h)
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) <= wait {
		return false
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// retryAfter reads Retry-After as seconds or an HTTP date.
func retryAfter(h http.Header) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, time.Until(t))
	}
	return time.Second
}
