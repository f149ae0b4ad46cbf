package ai

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// StatusError is a provider's non-2xx answer: its status, and the reason a
// person reads (which quotes the provider's own words).
type StatusError struct {
	Status int
	err    error
}

func (e *StatusError) Error() string { return e.err.Error() }

// statusError turns a non-2xx answer into the reason a person reads.
func (c caller) statusError(r reply) error {
	return &StatusError{Status: r.Status, err: c.statusReason(r)}
}

func (c caller) statusReason(r reply) error {
	what := fmt.Sprintf("%d %s", r.Status, http.StatusText(r.Status))
	detail := errorDetail(r.Body)
	switch {
	case r.Status == http.StatusUnauthorized || r.Status == http.StatusForbidden:
		return fmt.Errorf("%s rejected the API token (%s): %s", c.name, what, detail)
	case r.Status == http.StatusTooManyRequests:
		return fmt.Errorf("%s rate limit reached (%s), retry after %s: %s", c.name, what, retryAfter(r.Header), detail)
	case r.Status >= 500:
		return fmt.Errorf("%s server error (%s): %s", c.name, what, detail)
	}
	return fmt.Errorf("%s refused the request (%s): %s", c.name, what, detail)
}

// errorDetail finds the message in a problem-JSON body ({"detail"}), an
// OpenAI-style one ({"error":{"message"}} or {"error":"..."}), or the text.
func errorDetail(body []byte) string {
	var p struct {
		Detail string          `json:"detail"`
		Title  string          `json:"title"`
		Error  json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &p) == nil {
		if p.Detail != "" {
			return p.Detail
		}
		if m := errorMessage(p.Error); m != "" {
			return m
		}
		if p.Title != "" {
			return p.Title
		}
	}
	if t := strings.TrimSpace(string(body)); t != "" {
		return clip(t, 200)
	}
	return "no details given"
}

func errorMessage(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var o struct {
		Message string `json:"message"`
	}
	json.Unmarshal(raw, &o)
	return o.Message
}
