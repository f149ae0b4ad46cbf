package notify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"syscall"
	"time"
)

// SendTimeout bounds one webhook attempt (connect, send, answer).
const SendTimeout = 10 * time.Second

// CheckURL says what is wrong with a webhook URL ("" when it is usable):
// HTTPS, or HTTP to a loopback address only; no credentials in it.
func CheckURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "Enter an absolute URL, e.g. https://example.com/hooks/kestrel"
	}
	if u.User != nil {
		return "Credentials in the URL are not allowed: use the signature to authenticate Kestrel"
	}
	switch u.Scheme {
	case "https":
		return ""
	case "http":
		if loopbackHost(u.Hostname()) {
			return ""
		}
		return "Use https:// (plain http:// is allowed for a loopback receiver only)"
	}
	return "Use an https:// URL"
}

func loopbackHost(h string) bool {
	if h == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.IsLoopback()
}

// forbidden is an address a webhook may not reach: private, link-local
// (cloud metadata), shared, multicast or unspecified ones. Loopback is
// allowed: it is the operator's own machine, where a local relay can
// forward to an internal receiver the operator chose.
func forbidden(ip netip.Addr) bool {
	ip = ip.Unmap()
	if ip.IsLoopback() {
		return false
	}
	cgnat := netip.MustParsePrefix("100.64.0.0/10")
	return ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() ||
		ip.IsInterfaceLocalMulticast() || cgnat.Contains(ip) || !ip.IsValid()
}

// errForbiddenAddress is an attempt to reach an internal address.
var errForbiddenAddress = errors.New("the receiver resolves to an internal address (only public addresses and loopback are allowed)")

// NewClient is the HTTP client webhooks go through: no proxy, no
// redirects followed, a bounded timeout, and every connection checked at
// dial time (after DNS) against internal addresses.
func NewClient() *http.Client {
	dialer := &net.Dialer{Timeout: 5 * time.Second, Control: func(_, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return err
		}
		ip, err := netip.ParseAddr(host)
		if err != nil || forbidden(ip) {
			return errForbiddenAddress
		}
		return nil
	}}
	return &http.Client{
		Timeout: SendTimeout,
		Transport: &http.Transport{Proxy: nil, DialContext: dialer.DialContext, TLSHandshakeTimeout: 5 * time.Second,
			MaxIdleConnsPerHost: 4, IdleConnTimeout: 90 * time.Second, ResponseHeaderTimeout: SendTimeout},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// post sends one signed attempt; nil means the receiver answered 2xx.
func post(ctx context.Context, client *http.Client, target, secret, id string, at time.Time, body []byte) error {
	if msg := CheckURL(target); msg != "" {
		return errors.New(msg)
	}
	sig, err := Sign(secret, id, at, body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Kestrel-Webhooks/1")
	req.Header.Set("webhook-id", id)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(at.Unix(), 10))
	req.Header.Set("webhook-signature", sig)
	resp, err := client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("not delivered: %w", err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("receiver answered HTTP %d", resp.StatusCode)
	}
	return nil
}
