package coinbase_test

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"strings"
	"testing"
	"time"

	"kestrel/exchange/coinbase"
	"kestrel/exchange/coinbase/coinbasefake"
)

const keyName = "organizations/o/apiKeys/k"

func pemOf(t *testing.T, typ string, der []byte, err error) string {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}))
}

// Every form a CDP secret reaches Kestrel in signs tokens that the fake's
// own verifier accepts with the right algorithm and claims: Ed25519 as CDP
// shows it (base64 of seed and public key), as its bare 32-byte seed and as
// PKCS8 PEM; EC P-256 as SEC1 and PKCS8 PEM, each with line breaks, with
// "\n" escapes (the key file's JSON), with none (a one-line field) or with
// spaces for line breaks.
func TestKeyFormsSignWhatCoinbaseVerifies(t *testing.T) {
	edPub, edPriv, _ := ed25519.GenerateKey(rand.Reader)
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	sec1, err := x509.MarshalECPrivateKey(ec)
	sec1PEM := pemOf(t, "EC PRIVATE KEY", sec1, err)
	ecPKCS8, err := x509.MarshalPKCS8PrivateKey(ec)
	ecPKCS8PEM := pemOf(t, "PRIVATE KEY", ecPKCS8, err)
	edPKCS8, err := x509.MarshalPKCS8PrivateKey(edPriv)
	edPKCS8PEM := pemOf(t, "PRIVATE KEY", edPKCS8, err)
	type form struct {
		secret string
		pub    crypto.PublicKey
		alg    string
	}
	forms := map[string]form{
		"ed25519 base64 seed+public": {base64.StdEncoding.EncodeToString(edPriv), edPub, "EdDSA"},
		"ed25519 base64 seed":        {base64.StdEncoding.EncodeToString(edPriv.Seed()), edPub, "EdDSA"},
		"ed25519 unpadded":           {base64.RawStdEncoding.EncodeToString(edPriv), edPub, "EdDSA"},
	}
	for name, p := range map[string]struct {
		text string
		pub  crypto.PublicKey
		alg  string
	}{"ec sec1": {sec1PEM, &ec.PublicKey, "ES256"}, "ec pkcs8": {ecPKCS8PEM, &ec.PublicKey, "ES256"}, "ed25519 pkcs8": {edPKCS8PEM, edPub, "EdDSA"}} {
		forms[name+" lines"] = form{p.text, p.pub, p.alg}
		forms[name+" escaped"] = form{strings.ReplaceAll(p.text, "\n", `\n`), p.pub, p.alg}
		forms[name+" flat"] = form{strings.ReplaceAll(p.text, "\n", ""), p.pub, p.alg}
		forms[name+" spaced"] = form{strings.ReplaceAll(p.text, "\n", " "), p.pub, p.alg}
	}
	now := time.Unix(1_800_000_000, 0)
	const uri = "GET api.coinbase.com/api/v3/brokerage/accounts"
	for name, f := range forms {
		key, err := coinbase.ParseKey(keyName, f.secret)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		tok, err := key.Sign(now, uri)
		if err != nil {
			t.Fatal(err)
		}
		got, err := coinbasefake.VerifyJWT(tok, f.pub)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.Alg != f.alg || got.Kid != keyName || got.Nonce == "" || got.Sub != keyName || got.Iss != "cdp" || got.Nbf != now.Unix() ||
			got.Exp != now.Unix()+120 || got.URI != uri {
			t.Fatalf("%s: token %+v", name, got)
		}
		ws, _ := key.Sign(now, "")
		if got, err := coinbasefake.VerifyJWT(ws, f.pub); err != nil || got.HasURI {
			t.Fatalf("%s: a WebSocket token %+v %v, want no uri claim", name, got, err)
		}
	}
	// The same key never verifies under the other algorithm's key.
	key, _ := coinbase.ParseKey(keyName, base64.StdEncoding.EncodeToString(edPriv))
	tok, _ := key.Sign(now, "")
	if _, err := coinbasefake.VerifyJWT(tok, &ec.PublicKey); err == nil {
		t.Fatal("an EdDSA token verified with an EC key")
	}
}

// A secret that is no key Coinbase issues is refused with a message that
// names both accepted kinds.
func TestMalformedKeysNameTheAcceptedKinds(t *testing.T) {
	rsaKey, _ := rsa.GenerateKey(rand.Reader, 1024)
	rsaDER, err := x509.MarshalPKCS8PrivateKey(rsaKey)
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	p384DER, err384 := x509.MarshalECPrivateKey(p384)
	_, edPriv, _ := ed25519.GenerateKey(rand.Reader)
	wrongPub := append(append([]byte{}, edPriv.Seed()...), make([]byte, 32)...)
	for name, secret := range map[string]string{
		"empty":               "",
		"words":               "not a key",
		"short base64":        base64.StdEncoding.EncodeToString([]byte("sixteen bytes!!!")),
		"broken PEM":          "-----BEGIN EC PRIVATE KEY-----AAAA-----END EC PRIVATE KEY-----",
		"RSA":                 pemOf(t, "PRIVATE KEY", rsaDER, err),
		"P-384":               pemOf(t, "EC PRIVATE KEY", p384DER, err384),
		"64 bytes, wrong pub": base64.StdEncoding.EncodeToString(wrongPub),
	} {
		_, err := coinbase.ParseKey(keyName, secret)
		if err == nil {
			t.Fatalf("%s: accepted", name)
		}
		if msg := err.Error(); !strings.Contains(msg, "Ed25519") || !strings.Contains(msg, "EC P-256") {
			t.Fatalf("%s: %q does not name both accepted kinds", name, msg)
		}
	}
	if _, err := coinbase.ParseKey(" ", base64.StdEncoding.EncodeToString(edPriv)); err == nil {
		t.Fatal("accepted an empty key name")
	}
}
