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
	"strings"
	"syscall"
	"time"

	"kestrel/domain"
)

// SendTimeout bounds one webhook attempt (connect, send, answer).
const SendTimeout = 10 * time.Second

// CheckURL says what is wrong with a webhook or push URL ("" when it is
// usable) while the operator allows targets on this machine: HTTPS, or
// HTTP to a loopback address only; no credentials in it.
func CheckURL(raw string) string { return CheckTarget(raw, true) }

// CheckTarget is CheckURL with loopback targets allowed or not (the
// setting system.notifications.allowLoopbackTargets): when not, only
// https:// to a host that is not this machine.
func CheckTarget(raw string, allowLoopback bool) string {
	if msg := checkURL(raw); msg != "" {
		return msg
	}
	u, _ := url.Parse(raw)
	if !allowLoopback && (u.Scheme != "https" || loopbackHost(u.Hostname())) {
		return "Use an https:// URL to a public address (an operator can allow receivers on this machine in Settings, Notification servers)"
	}
	return ""
}

func checkURL(raw string) string {
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
	if h = strings.TrimSuffix(strings.ToLower(h), "."); h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.IsLoopback()
}

// forbidden is an address a webhook may not reach: private, link-local
// (cloud metadata), shared, multicast or unspecified ones, and loopback
// unless the operator allows it (a local relay can forward to an internal
// receiver the operator chose).
func forbidden(ip netip.Addr, allowLoopback bool) bool {
	ip = ip.Unmap()
	if ip.IsLoopback() {
		return !allowLoopback
	}
	cgnat := netip.MustParsePrefix("100.64.0.0/10")
	return ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() ||
		ip.IsInterfaceLocalMulticast() || cgnat.Contains(ip) || !ip.IsValid()
}

// errForbiddenAddress is an attempt to reach an internal address.
var errForbiddenAddress = errors.New("the receiver resolves to an internal address (only public addresses, and loopback when allowed)")

// NewClient is the HTTP client webhooks go through: no proxy, no
// redirects followed, a bounded timeout, and every connection checked at
// dial time (after DNS) against internal addresses; loopback is allowed
// (the Telegram Bot API's URL, which only operators set).
func NewClient() *http.Client { return newClient(func() bool { return true }) }

// newClient is NewClient with loopback allowed while allowLoopback says so.
func newClient(allowLoopback func() bool) *http.Client {
	dialer := &net.Dialer{Timeout: 5 * time.Second, Control: func(_, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return err
		}
		ip, err := netip.ParseAddr(host)
		if err != nil || forbidden(ip, allowLoopback()) {
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
func post(ctx context.Context, client *http.Client, target, secret, id string, at time.Time, body []byte, allowLoopback bool) error {
	if msg := CheckTarget(target, allowLoopback); msg != "" {
		return permanent{errors.New(msg)}
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

// remoteOutcomes start the errors that carry what a webhook receiver or
// push service did (refused the connection, answered HTTP 404, ...).
var remoteOutcomes = []string{"not delivered: ", "receiver answered HTTP ", "not delivered to the push service: ", "push service answered HTTP "}

// RemoteFailure is the message a channel's owner (a trader) sees instead
// of what the receiver did: telling "connection refused" from "HTTP 404"
// would make the test button a port scanner (issue 33, item 8).
const RemoteFailure = "Not delivered: the receiver did not accept it (an operator can see why in the delivery log)"

// OwnersView is d as a trader sees it: a failure at the receiver says only
// that it failed; Kestrel's own refusals (a channel or switch that is off,
// a URL not allowed) stay as they are.
func OwnersView(d domain.NotifyDelivery) domain.NotifyDelivery {
	for _, p := range remoteOutcomes {
		if strings.HasPrefix(d.LastError, p) {
			d.LastError = RemoteFailure
			break
		}
	}
	return d
}
