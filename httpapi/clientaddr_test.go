package httpapi

import (
	"net/http/httptest"
	"strings"
	"testing"
)

func TestClientAddressHonoursOnlyTrustedProxies(t *testing.T) {
	trusted, err := ParseTrustedProxies("10.0.0.0/8, 127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ peer, xff, want string }{
		{"198.51.100.9:4000", "203.0.113.7", "198.51.100.9"},       // an untrusted peer's header is ignored
		{"127.0.0.1:4000", "203.0.113.7", "203.0.113.7"},           // the proxy names the client
		{"127.0.0.1:4000", "6.6.6.6, 203.0.113.7", "203.0.113.7"},  // the client's own forged hop is left of the proxy's
		{"127.0.0.1:4000", "203.0.113.7, 10.1.2.3", "203.0.113.7"}, // a chain of trusted proxies
		{"127.0.0.1:4000", "", "127.0.0.1"},                        // no header: the proxy itself
		{"127.0.0.1:4000", "not-an-ip, 10.1.2.3", "127.0.0.1"},     // a malformed hop ends the walk
		{"[::ffff:127.0.0.1]:4000", "203.0.113.8", "203.0.113.8"},  // IPv4-mapped peer
		{"[2001:db8::1]:4000", "203.0.113.7", "2001:db8::1"},       // IPv6 untrusted peer
	} {
		r := httptest.NewRequest("GET", "/api/x", nil)
		r.RemoteAddr = c.peer
		if c.xff != "" {
			r.Header.Set("X-Forwarded-For", c.xff)
		}
		if got := trusted.client(r); got != c.want {
			t.Errorf("peer %s, X-Forwarded-For %q: %s, want %s", c.peer, c.xff, got, c.want)
		}
	}
	if _, err := ParseTrustedProxies("10.0.0.0/8, example.com"); err == nil {
		t.Error("a host name was accepted as a trusted proxy")
	}
}

func TestAuditTextIsBoundedAndPrintable(t *testing.T) {
	got := auditText("a\r\nb\x00"+strings.Repeat("é", 400), 100)
	if len(got) > 100 || strings.ContainsAny(got, "\r\n\x00") || !strings.HasSuffix(got, "(truncated)") || !strings.HasPrefix(got, "a??b?") {
		t.Fatalf("%q (%d bytes)", got, len(got))
	}
}
