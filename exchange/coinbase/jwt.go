package coinbase

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"
)

// Key is a CDP API key: its name (organizations/.../apiKeys/...) and the EC
// P-256 private key that signs each request's JWT (ES256). The standard
// library is enough for one algorithm, so no JWT package is pulled in.
type Key struct {
	Name string
	priv *ecdsa.PrivateKey
}

// jwtLifetime is how long a token is valid; Coinbase accepts at most 2 minutes.
const jwtLifetime = 120 * time.Second

// ParseKey reads a CDP key from its name and PEM secret. A secret pasted with
// literal "\n" sequences (as the CDP download's JSON holds it) is accepted.
func ParseKey(name, secret string) (Key, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return Key{}, errors.New("the API key name is empty")
	}
	secret = strings.ReplaceAll(strings.TrimSpace(secret), `\n`, "\n")
	block, _ := pem.Decode([]byte(secret))
	if block == nil {
		block = flatPEM(secret)
	}
	if block == nil {
		return Key{}, errors.New("the API secret is not a PEM private key (-----BEGIN EC PRIVATE KEY-----)")
	}
	var priv *ecdsa.PrivateKey
	if k, err := x509.ParseECPrivateKey(block.Bytes); err == nil {
		priv = k
	} else if k8, err8 := x509.ParsePKCS8PrivateKey(block.Bytes); err8 == nil {
		ec, ok := k8.(*ecdsa.PrivateKey)
		if !ok {
			return Key{}, errors.New("the API secret is not an ECDSA key; create the CDP key with the ECDSA (ES256) algorithm")
		}
		priv = ec
	} else {
		return Key{}, fmt.Errorf("the API secret cannot be read: %v", err)
	}
	if priv.Curve != elliptic.P256() {
		return Key{}, errors.New("the API secret is not a P-256 key (ES256)")
	}
	return Key{Name: name, priv: priv}, nil
}

// flatPEM reads a PEM whose line breaks were lost (pasted into a one-line
// field): the header, the base64 body in any spacing, the footer.
func flatPEM(s string) *pem.Block {
	rest, ok := strings.CutPrefix(s, "-----BEGIN ")
	if !ok {
		return nil
	}
	typ, body, ok := strings.Cut(rest, "-----")
	if !ok {
		return nil
	}
	body, _, ok = strings.Cut(body, "-----END "+typ+"-----")
	if !ok {
		return nil
	}
	der, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(body), ""))
	if err != nil {
		return nil
	}
	return &pem.Block{Type: typ, Bytes: der}
}

// Public is the key's public half (the fake exchange verifies with it).
func (k Key) Public() *ecdsa.PublicKey { return &k.priv.PublicKey }

// Claims are the JWT claims Coinbase reads. URI is "METHOD host/path" for
// REST and absent for WebSocket subscriptions.
type Claims struct {
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

// Sign returns a fresh JWT; uri is "" for a WebSocket subscription.
func (k Key) Sign(now time.Time, uri string) (string, error) {
	nonce := make([]byte, 16)
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	h, _ := json.Marshal(header{Alg: "ES256", Kid: k.Name, Nonce: hex.EncodeToString(nonce), Typ: "JWT"})
	c, _ := json.Marshal(Claims{Sub: k.Name, Iss: "cdp", Nbf: now.Unix(), Exp: now.Add(jwtLifetime).Unix(), URI: uri})
	signing := b64.EncodeToString(h) + "." + b64.EncodeToString(c)
	sum := sha256.Sum256([]byte(signing))
	r, s, err := ecdsa.Sign(rand.Reader, k.priv, sum[:])
	if err != nil {
		return "", err
	}
	sig := make([]byte, 64) // ES256 is r||s, 32 bytes each (RFC 7518 3.4), not ASN.1
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return signing + "." + b64.EncodeToString(sig), nil
}

// Verify checks a token's ES256 signature with pub and returns its key id,
// nonce and claims. It checks the signature only; callers judge the claims.
func Verify(token string, pub *ecdsa.PublicKey) (kid, nonce string, c Claims, err error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return "", "", c, errors.New("malformed JWT")
	}
	sig, err := b64.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return "", "", c, errors.New("malformed ES256 signature")
	}
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(pub, sum[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return "", "", c, errors.New("bad signature")
	}
	var h header
	raw, err := b64.DecodeString(parts[0])
	if err != nil || json.Unmarshal(raw, &h) != nil || h.Alg != "ES256" {
		return "", "", c, errors.New("bad JWT header")
	}
	raw, err = b64.DecodeString(parts[1])
	if err != nil || json.Unmarshal(raw, &c) != nil {
		return "", "", c, errors.New("bad JWT claims")
	}
	return h.Kid, h.Nonce, c, nil
}

// NewTestKey makes a fresh P-256 key and its PEM (SEC1, as CDP issues it),
// for tests and the fake exchange.
func NewTestKey(name string) (Key, string, error) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return Key{}, "", err
	}
	der, err := x509.MarshalECPrivateKey(priv)
	if err != nil {
		return Key{}, "", err
	}
	return Key{Name: name, priv: priv}, string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der})), nil
}
