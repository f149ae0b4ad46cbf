package coinbase_test

import (
	"strings"
	"testing"
	"time"

	"kestrel/exchange/coinbase"
)

// A CDP secret reaches Kestrel as a PEM with real line breaks, with "\n"
// escapes (copied from the key's JSON file) or with none at all (pasted into
// a one-line field); each signs tokens the public key verifies.
func TestKeyFormsAndClaims(t *testing.T) {
	k, pemText, err := coinbase.NewTestKey("organizations/o/apiKeys/k")
	if err != nil {
		t.Fatal(err)
	}
	forms := map[string]string{
		"lines":   pemText,
		"escaped": strings.ReplaceAll(pemText, "\n", `\n`),
		"flat":    strings.ReplaceAll(pemText, "\n", ""),
		"spaced":  strings.ReplaceAll(pemText, "\n", " "),
	}
	now := time.Unix(1_800_000_000, 0)
	for name, secret := range forms {
		key, err := coinbase.ParseKey(k.Name, secret)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		tok, err := key.Sign(now, "GET api.coinbase.com/api/v3/brokerage/accounts")
		if err != nil {
			t.Fatal(err)
		}
		kid, nonce, c, err := coinbase.Verify(tok, k.Public())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if kid != k.Name || nonce == "" || c.Sub != k.Name || c.Iss != "cdp" || c.Nbf != now.Unix() || c.Exp != now.Unix()+120 ||
			c.URI != "GET api.coinbase.com/api/v3/brokerage/accounts" {
			t.Fatalf("%s: kid %q nonce %q claims %+v", name, kid, nonce, c)
		}
	}
	for _, bad := range []string{"", "not a key", "-----BEGIN EC PRIVATE KEY-----AAAA-----END EC PRIVATE KEY-----"} {
		if _, err := coinbase.ParseKey(k.Name, bad); err == nil {
			t.Fatalf("accepted %q", bad)
		}
	}
	other, _, _ := coinbase.NewTestKey(k.Name)
	tok, _ := other.Sign(now, "")
	if _, _, _, err := coinbase.Verify(tok, k.Public()); err == nil {
		t.Fatal("a token signed by another key verified")
	}
}
