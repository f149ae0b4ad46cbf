package coinbasefake

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// The fake's own CDP key handling, independent of the adapter's: it issues
// keys in the forms the CDP portal does and verifies JWTs as Coinbase's
// CDP API key authentication describes them (header alg, kid and nonce;
// claims sub, iss "cdp", nbf, exp, and uri for REST).

// KeyKind is the signature algorithm of a CDP key.
type KeyKind string

// The two kinds CDP issues.
const (
	Ed25519 KeyKind = "Ed25519" // CDP's default: the secret is base64 of seed||public key, alg EdDSA
	ECDSA   KeyKind = "ECDSA"   // the secret is an EC P-256 PEM (SEC1), alg ES256
)

// Credentials are a key as CDP hands it over: the name, the secret as the
// user pastes it, and the public half Coinbase keeps.
type Credentials struct {
	Name   string
	Secret string
	Public crypto.PublicKey
}

// NewKey issues a fresh key of kind named name.
func NewKey(kind KeyKind, name string) (Credentials, error) {
	switch kind {
	case Ed25519:
		pub, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return Credentials{}, err
		}
		return Credentials{Name: name, Secret: base64.StdEncoding.EncodeToString(priv), Public: pub}, nil
	case ECDSA:
		priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return Credentials{}, err
		}
		der, err := x509.MarshalECPrivateKey(priv)
		if err != nil {
			return Credentials{}, err
		}
		return Credentials{Name: name, Secret: string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der})), Public: &priv.PublicKey}, nil
	}
	return Credentials{}, fmt.Errorf("unknown key kind %q", kind)
}

// Token is what a verified JWT says.
type Token struct {
	Alg, Kid, Nonce string
	Sub, Iss, URI   string
	HasURI          bool
	Nbf, Exp        int64
}

type jwtHeader struct {
	Alg   string `json:"alg"`
	Kid   string `json:"kid"`
	Nonce string `json:"nonce"`
	Typ   string `json:"typ"`
}

type jwtClaims struct {
	Sub string  `json:"sub"`
	Iss string  `json:"iss"`
	Nbf int64   `json:"nbf"`
	Exp int64   `json:"exp"`
	URI *string `json:"uri"`
}

// VerifyJWT checks tok's signature with pub (the algorithm must be the
// key's: EdDSA for Ed25519, ES256 for EC P-256) and returns its header and
// claims; callers judge the claims.
func VerifyJWT(tok string, pub crypto.PublicKey) (Token, error) {
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return Token{}, errors.New("malformed JWT")
	}
	enc := base64.RawURLEncoding
	var h jwtHeader
	if raw, err := enc.DecodeString(parts[0]); err != nil || json.Unmarshal(raw, &h) != nil {
		return Token{}, errors.New("unreadable JWT header")
	}
	sig, err := enc.DecodeString(parts[2])
	if err != nil {
		return Token{}, errors.New("unreadable JWT signature")
	}
	signed := []byte(parts[0] + "." + parts[1])
	switch k := pub.(type) {
	case ed25519.PublicKey:
		if h.Alg != "EdDSA" {
			return Token{}, fmt.Errorf("alg %q for an Ed25519 key, want EdDSA", h.Alg)
		}
		if !ed25519.Verify(k, signed, sig) {
			return Token{}, errors.New("bad signature")
		}
	case *ecdsa.PublicKey:
		if h.Alg != "ES256" {
			return Token{}, fmt.Errorf("alg %q for an EC key, want ES256", h.Alg)
		}
		sum := sha256.Sum256(signed)
		if len(sig) != 64 || !ecdsa.Verify(k, sum[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
			return Token{}, errors.New("bad signature")
		}
	default:
		return Token{}, fmt.Errorf("unsupported public key %T", pub)
	}
	var c jwtClaims
	if raw, err := enc.DecodeString(parts[1]); err != nil || json.Unmarshal(raw, &c) != nil {
		return Token{}, errors.New("unreadable JWT claims")
	}
	t := Token{Alg: h.Alg, Kid: h.Kid, Nonce: h.Nonce, Sub: c.Sub, Iss: c.Iss, Nbf: c.Nbf, Exp: c.Exp}
	if c.URI != nil {
		t.URI, t.HasURI = *c.URI, true
	}
	return t, nil
}

// lifetime is the longest a token may live (Coinbase: two minutes).
const lifetime = 120

// checkClaims judges a verified token for keyName at Unix time now: uri is
// "METHOD host/path" for REST, "" for a WebSocket subscription (no claim).
func checkClaims(t Token, keyName, uri string, now int64) error {
	switch {
	case t.Kid != keyName || t.Sub != keyName:
		return fmt.Errorf("unknown key %q", t.Kid)
	case t.Iss != "cdp":
		return fmt.Errorf("issuer %q, want cdp", t.Iss)
	case t.Nbf > now+5 || t.Exp <= now || t.Exp-t.Nbf > lifetime:
		return fmt.Errorf("token not valid now (nbf %d, exp %d, now %d)", t.Nbf, t.Exp, now)
	case uri == "" && t.HasURI:
		return fmt.Errorf("a WebSocket token carries a uri claim %q", t.URI)
	case uri != "" && t.URI != uri:
		return fmt.Errorf("uri claim %q does not match %q", t.URI, uri)
	case t.Nonce == "":
		return errors.New("missing nonce")
	}
	return nil
}
