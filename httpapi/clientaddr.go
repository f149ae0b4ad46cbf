package httpapi

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// TrustedProxies are the reverse proxies whose X-Forwarded-For names the
// client (--trusted-proxies). From any other peer the header is ignored:
// anyone can send it.
type TrustedProxies []netip.Prefix

// ParseTrustedProxies reads a comma-separated list of addresses and CIDR
// prefixes ("127.0.0.1, 10.0.0.0/8"); empty trusts no proxy.
func ParseTrustedProxies(s string) (TrustedProxies, error) {
	var out TrustedProxies
	for f := range strings.SplitSeq(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q is not an IP address or CIDR prefix", f)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

func (t TrustedProxies) trusts(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range t {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// client is the request's client address: the peer, or, when the peer is a
// trusted proxy, the nearest address in X-Forwarded-For that is not itself
// a trusted proxy (read from the right: the left part is the client's to
// write).
func (t TrustedProxies) client(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil || !t.trusts(peer) {
		return host
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break // a malformed hop: trust nothing further left
		}
		if !t.trusts(a) {
			return a.Unmap().String()
		}
	}
	return peer.Unmap().String()
}

// withClientAddr works out the client address once per request.
func withClientAddr(t TrustedProxies, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), keyClientAddr, t.client(r))))
	})
}
