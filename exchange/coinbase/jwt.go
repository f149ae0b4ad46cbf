package coinbase

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"time"
)

// Key is a CDP API key: its name (organizations/.../apiKeys/...) and the
// private key that signs each request's JWT, Ed25519 (alg EdDSA) or EC
// P-256 (alg ES256). The standard library signs both, so no JWT package is
// pulled in. ParseKey (keyparse.go) reads the secret in the forms CDP issues.
type Key struct {
	Name    string
	ec      *ecdsa.PrivateKey
	ed      ed25519.PrivateKey
	present bool
}

// jwtLifetime is how long a token is valid; Coinbase accepts at most 2 minutes.
const jwtLifetime = 120 * time.Second

// IsZero reports whether there is no key (public market data needs none).
func (k Key) IsZero() bool { return !k.present }

// Alg is the JWT algorithm the key signs with: EdDSA or ES256.
func (k Key) Alg() string {
	if k.ed != nil {
		return "EdDSA"
	}
	return "ES256"
}

// Public is the key's public half: ed25519.PublicKey or *ecdsa.PublicKey.
func (k Key) Public() crypto.PublicKey {
	if k.ed != nil {
		return k.ed.Public()
	}
	return &k.ec.PublicKey
}

// claims are the JWT claims Coinbase reads (CDP API key authentication).
// URI is "METHOD host/path" for REST and absent for WebSocket subscriptions.
type claims struct {
	Sub string `json:"sub"`
	Iss string `json:"iss"`
	Nbf int64  `json:"nbf"`
	Exp int64  `json:"exp"`
	URI string `json:"uri,omitempty"`
}

type header struct {
	Alg   string `json:"alg"`
	Kid   string `json:"kid"`
	Nonce string `json:"nonce"`
	Typ   string `json:"typ"`
}

var b64 = base64.RawURLEncoding

// Sign returns a fresh JWT; uri is "" for a WebSocket subscription. The
// header names the algorithm, the key (kid) and a random nonce; the claims
// are sub = key name, iss "cdp", nbf now, exp now + 2 minutes and uri.
func (k Key) Sign(now time.Time, uri string) (string, error) {
	nonce := make([]byte, 16)
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	h, _ := json.Marshal(header{Alg: k.Alg(), Kid: k.Name, Nonce: hex.EncodeToString(nonce), Typ: "JWT"})
	c, _ := json.Marshal(claims{Sub: k.Name, Iss: "cdp", Nbf: now.Unix(), Exp: now.Add(jwtLifetime).Unix(), URI: uri})
	signing := b64.EncodeToString(h) + "." + b64.EncodeToString(c)
	sig, err := k.signature([]byte(signing))
	if err != nil {
		return "", err
	}
	return signing + "." + b64.EncodeToString(sig), nil
}

// signature signs msg: Ed25519 over the message itself; ES256 over its
// SHA-256 as r||s, 32 bytes each (RFC 7518 3.4), not ASN.1.
func (k Key) signature(msg []byte) ([]byte, error) {
	if k.ed != nil {
		return ed25519.Sign(k.ed, msg), nil
	}
	sum := sha256.Sum256(msg)
	r, s, err := ecdsa.Sign(rand.Reader, k.ec, sum[:])
	if err != nil {
		return nil, err
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return sig, nil
}

// p256 reports whether an EC key is on the curve ES256 requires.
func p256(k *ecdsa.PrivateKey) bool { return k.Curve == elliptic.P256() }
