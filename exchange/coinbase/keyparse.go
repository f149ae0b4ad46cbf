package coinbase

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
)

// acceptedKeys names the secrets Kestrel reads, for every refusal.
const acceptedKeys = "use the API key's secret as CDP shows it: an Ed25519 key (base64, or a PEM -----BEGIN PRIVATE KEY-----) " +
	"or an EC P-256 key (ECDSA, a PEM -----BEGIN EC PRIVATE KEY----- or -----BEGIN PRIVATE KEY-----)"

// ParseKey reads a CDP key from its name and secret. The secret is either
//   - Ed25519 (CDP's default): the base64 of 64 bytes (seed then public key)
//     or of the 32-byte seed, or a PKCS8 PEM; or
//   - EC P-256 (ECDSA, ES256): a PEM, SEC1 (EC PRIVATE KEY) or PKCS8 (PRIVATE KEY).
//
// A PEM pasted with literal "\n" sequences (as the CDP key file's JSON holds
// it) or with its line breaks lost (a one-line field) is read too. Anything
// else is refused with a message naming both accepted kinds.
func ParseKey(name, secret string) (Key, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return Key{}, errors.New("the API key name is empty")
	}
	secret = strings.ReplaceAll(strings.TrimSpace(secret), `\n`, "\n")
	if secret == "" {
		return Key{}, errors.New("the API secret is empty; " + acceptedKeys)
	}
	if strings.HasPrefix(secret, "-----BEGIN") {
		block, _ := pem.Decode([]byte(secret))
		if block == nil {
			block = flatPEM(secret)
		}
		if block == nil {
			return Key{}, errors.New("the API secret looks like a PEM but cannot be read; " + acceptedKeys)
		}
		return fromDER(name, block.Bytes)
	}
	raw, ok := decodeBase64(secret)
	if !ok {
		return Key{}, errors.New("the API secret is neither base64 nor a PEM; " + acceptedKeys)
	}
	switch len(raw) {
	case ed25519.PrivateKeySize: // seed || public key, as CDP issues it
		k := ed25519.NewKeyFromSeed(raw[:ed25519.SeedSize])
		if !bytes.Equal(k[ed25519.SeedSize:], raw[ed25519.SeedSize:]) {
			return Key{}, errors.New("the API secret's 64 bytes are not an Ed25519 seed followed by its public key; " + acceptedKeys)
		}
		return Key{Name: name, ed: k, present: true}, nil
	case ed25519.SeedSize:
		return Key{Name: name, ed: ed25519.NewKeyFromSeed(raw), present: true}, nil
	}
	return fromDER(name, raw) // a PEM body pasted without its header lines
}

// fromDER reads a SEC1 or PKCS8 private key.
func fromDER(name string, der []byte) (Key, error) {
	if ec, err := x509.ParseECPrivateKey(der); err == nil {
		return ecKey(name, ec)
	}
	k, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return Key{}, errors.New("the API secret is not a private key Kestrel can read; " + acceptedKeys)
	}
	switch k := k.(type) {
	case ed25519.PrivateKey:
		return Key{Name: name, ed: k, present: true}, nil
	case *ecdsa.PrivateKey:
		return ecKey(name, k)
	}
	return Key{}, fmt.Errorf("the API secret is a %T, which Coinbase does not issue; %s", k, acceptedKeys)
}

func ecKey(name string, k *ecdsa.PrivateKey) (Key, error) {
	if !p256(k) {
		return Key{}, fmt.Errorf("the API secret is an EC key on %s, not P-256; %s", k.Curve.Params().Name, acceptedKeys)
	}
	return Key{Name: name, ec: k, present: true}, nil
}

// decodeBase64 reads standard or URL-safe base64, padded or not, ignoring
// spaces and line breaks.
func decodeBase64(s string) ([]byte, bool) {
	s = strings.Join(strings.Fields(s), "")
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if raw, err := enc.DecodeString(s); err == nil {
			return raw, true
		}
	}
	return nil, false
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
