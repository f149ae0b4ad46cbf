package settings

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Sealed values carry a version prefix. v2 binds each ciphertext to its
// field (the field's name is GCM's associated data), so a ciphertext moved
// to another field of the stored document does not open; v1, written before
// that, is still opened, and becomes v2 at the next save or rekey.
const (
	sealedPrefix   = "sealed:v2:"
	sealedPrefixV1 = "sealed:v1:"
)

// Sealer encrypts secrets at rest with AES-256-GCM.
type Sealer struct{ aead cipher.AEAD }

// NewSealer uses a base64 32-byte key.
func NewSealer(key []byte) (*Sealer, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("secret key must be 32 bytes, got %d", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Sealer{aead: aead}, nil
}

// LoadOrCreateKey returns the key from configured (base64) if set, otherwise
// from the key file in dir, creating it with mode 0600 on first start.
func LoadOrCreateKey(configured, dir string) ([]byte, error) {
	if configured != "" {
		k, err := base64.StdEncoding.DecodeString(strings.TrimSpace(configured))
		if err != nil {
			return nil, fmt.Errorf("secret key is not base64: %w", err)
		}
		return k, nil
	}
	path := filepath.Join(dir, "secret.key")
	raw, err := os.ReadFile(path)
	if err == nil {
		return base64.StdEncoding.DecodeString(strings.TrimSpace(string(raw)))
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create key file: %w", err)
	}
	defer f.Close()
	if _, err := f.WriteString(base64.StdEncoding.EncodeToString(k) + "\n"); err != nil {
		return nil, err
	}
	return k, nil
}

// Seal encrypts plain for field ("" stays "").
func (s *Sealer) Seal(field, plain string) (string, error) {
	if plain == "" {
		return "", nil
	}
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	out := s.aead.Seal(nonce, nonce, []byte(plain), []byte(field))
	return sealedPrefix + base64.StdEncoding.EncodeToString(out), nil
}

// Open decrypts the sealed value of field.
func (s *Sealer) Open(field, sealed string) (string, error) {
	if sealed == "" {
		return "", nil
	}
	var ad []byte
	switch {
	case strings.HasPrefix(sealed, sealedPrefix):
		sealed, ad = strings.TrimPrefix(sealed, sealedPrefix), []byte(field)
	case strings.HasPrefix(sealed, sealedPrefixV1):
		sealed = strings.TrimPrefix(sealed, sealedPrefixV1) // not bound to a field
	default:
		return "", errors.New("stored secret is not sealed")
	}
	raw, err := base64.StdEncoding.DecodeString(sealed)
	if err != nil || len(raw) < s.aead.NonceSize() {
		return "", errors.New("stored secret is corrupt")
	}
	n := s.aead.NonceSize()
	plain, err := s.aead.Open(nil, raw[:n], raw[n:], ad)
	if err != nil {
		return "", fmt.Errorf("stored secret %s cannot be decrypted with this key (or was moved from another field)", field)
	}
	return string(plain), nil
}

// maskPrefix starts every masked secret the API returns.
const maskPrefix = "••••"

// Mask shows only the last 4 characters of a secret.
func Mask(secret string) string {
	if secret == "" {
		return ""
	}
	r := []rune(secret)
	if len(r) <= 8 {
		return maskPrefix
	}
	return maskPrefix + string(r[len(r)-4:])
}

// IsMask reports whether v is a mask sent back unchanged.
func IsMask(v string) bool { return strings.HasPrefix(v, maskPrefix) }
