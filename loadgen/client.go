// Package loadgen drives a running Kestrel server through its HTTP API and
// WebSocket for load measurements and crash tests: a minimal API client, a
// bounded runner of concurrent order clients and latency statistics. It
// only talks to loopback addresses.
package loadgen

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"
)

// Client calls one server's API with one bearer token.
type Client struct {
	Base  string // http://127.0.0.1:port
	Token string
	HTTP  *http.Client
}

// APIError is a failed call: the HTTP status and the envelope's error.
type APIError struct {
	Status  int
	Code    string
	Message string
}

func (e *APIError) Error() string { return fmt.Sprintf("HTTP %d %s: %s", e.Status, e.Code, e.Message) }

// CheckLoopback refuses any base URL whose host is not a loopback address:
// the tool must never load someone else's server.
func CheckLoopback(base string) error {
	u, err := url.Parse(base)
	if err != nil {
		return err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("url %q: scheme must be http or https", base)
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("url %q: only loopback addresses (127.0.0.1, ::1, localhost) are allowed", base)
	}
	return nil
}

// NewClient returns a client whose connection pool keeps one idle
// connection per concurrent caller (conns).
func NewClient(base string, conns int) *Client {
	tr := &http.Transport{MaxIdleConns: conns, MaxIdleConnsPerHost: conns, IdleConnTimeout: time.Minute}
	return &Client{Base: base, HTTP: &http.Client{Transport: tr, Timeout: 30 * time.Second}}
}

// Do sends body as JSON and decodes the envelope's data into out (nil:
// ignored). A non-2xx status is an *APIError.
func (c *Client) Do(ctx context.Context, method, path string, body, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.Base+path, rd)
	if err != nil {
		return 0, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, err
	}
	var env struct {
		Success bool            `json:"success"`
		Data    json.RawMessage `json:"data"`
		Error   *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return resp.StatusCode, fmt.Errorf("HTTP %d: not an API envelope: %.200s", resp.StatusCode, raw)
	}
	if resp.StatusCode >= 300 || !env.Success {
		e := &APIError{Status: resp.StatusCode}
		if env.Error != nil {
			e.Code, e.Message = env.Error.Code, env.Error.Message
		}
		return resp.StatusCode, e
	}
	if out != nil && len(env.Data) > 0 {
		return resp.StatusCode, json.Unmarshal(env.Data, out)
	}
	return resp.StatusCode, nil
}

// SignIn logs in with email and password; when the account does not exist
// and register is set, it registers it (the first account of a new server
// becomes its operator). The token is kept in c.
func (c *Client) SignIn(ctx context.Context, email, password, name string, register bool) error {
	var out struct {
		Token string `json:"token"`
	}
	_, err := c.Do(ctx, http.MethodPost, "/api/auth/login", map[string]string{"email": email, "password": password}, &out)
	if e, ok := err.(*APIError); ok && e.Status == http.StatusUnauthorized && register {
		_, err = c.Do(ctx, http.MethodPost, "/api/auth/register", map[string]string{"email": email, "password": password, "name": name}, &out)
	}
	if err != nil {
		return fmt.Errorf("sign in as %s: %w", email, err)
	}
	c.Token = out.Token
	return nil
}
