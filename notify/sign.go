package notify

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"
)

const secretPrefix = "whsec_"

// NewSecret returns a fresh signing secret in the Standard Webhooks form
// (whsec_ and 32 random bytes in base64).
func NewSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand never fails on supported platforms
	return secretPrefix + base64.StdEncoding.EncodeToString(b)
}

// secretKey decodes a whsec_ secret to its HMAC key.
func secretKey(secret string) ([]byte, error) {
	k, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, secretPrefix))
	if err != nil || len(k) < 24 || len(k) > 64 {
		return nil, fmt.Errorf("a webhook secret is whsec_ followed by 24 to 64 bytes in base64")
	}
	return k, nil
}

// ValidSecret reports whether secret is a usable whsec_ secret.
func ValidSecret(secret string) bool {
	_, err := secretKey(secret)
	return strings.HasPrefix(secret, secretPrefix) && err == nil
}

// Sign returns the webhook-signature header value for a message:
// "v1," and the base64 HMAC-SHA256 of "id.timestamp.body".
func Sign(secret, id string, at time.Time, body []byte) (string, error) {
	k, err := secretKey(secret)
	if err != nil {
		return "", err
	}
	mac := hmac.New(sha256.New, k)
	mac.Write([]byte(id + "." + strconv.FormatInt(at.Unix(), 10) + "."))
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}
