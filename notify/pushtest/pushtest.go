// Package pushtest is a push service for tests, written from RFC 8030
// (the push protocol), RFC 8291 (message encryption) and RFC 8292 (VAPID)
// rather than from the sender's code: it checks what a real push service
// checks and decrypts each message as the browser would.
package pushtest

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"kestrel/notify"
)

// Browser is a push subscriber as a browser makes one: a P-256 key pair
// and a 16-byte auth secret (RFC 8291 section 2), the public half handed
// to the server, the private half kept to decrypt.
type Browser struct {
	key  *ecdh.PrivateKey
	auth []byte
}

func NewBrowser(t testing.TB) Browser {
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	_, _ = rand.Read(auth)
	return Browser{key: k, auth: auth}
}

func (b Browser) Subscription(endpoint string) *notify.PushSubscription {
	return &notify.PushSubscription{Endpoint: endpoint, Keys: notify.PushKeys{
		P256dh: base64.RawURLEncoding.EncodeToString(b.key.PublicKey().Bytes()), Auth: base64.RawURLEncoding.EncodeToString(b.auth)}}
}

// Decrypt opens an aes128gcm body (RFC 8188) encrypted for b (RFC 8291),
// written from the RFCs: the header's salt, record size and the sender's
// one-time public key; the key and nonce from HKDF over the ECDH secret
// and the auth secret; one record whose padding ends with the 0x02 delimiter.
func (b Browser) Decrypt(body []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("body shorter than the aes128gcm header")
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if idlen != 65 || len(body) < 21+idlen {
		return nil, fmt.Errorf("keyid of %d bytes, want the sender's 65-byte P-256 key", idlen)
	}
	keyid, ct := body[21:21+idlen], body[21+idlen:]
	if len(ct) > int(rs) {
		return nil, fmt.Errorf("%d bytes of ciphertext in records of %d: Web Push messages are one record", len(ct), rs)
	}
	as, err := ecdh.P256().NewPublicKey(keyid)
	if err != nil {
		return nil, err
	}
	shared, err := b.key.ECDH(as)
	if err != nil {
		return nil, err
	}
	prkKey, err := hkdf.Extract(sha256.New, shared, b.auth)
	if err != nil {
		return nil, err
	}
	info := "WebPush: info\x00" + string(b.key.PublicKey().Bytes()) + string(keyid)
	ikm, err := hkdf.Expand(sha256.New, prkKey, info, 32)
	if err != nil {
		return nil, err
	}
	prk, err := hkdf.Extract(sha256.New, ikm, salt)
	if err != nil {
		return nil, err
	}
	cek, _ := hkdf.Expand(sha256.New, prk, "Content-Encoding: aes128gcm\x00", 16)
	nonce, _ := hkdf.Expand(sha256.New, prk, "Content-Encoding: nonce\x00", 12)
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, ct, nil)
	if err != nil {
		return nil, fmt.Errorf("aes-gcm: %w", err)
	}
	i := len(plain) - 1
	for i >= 0 && plain[i] == 0 {
		i--
	}
	if i < 0 || plain[i] != 2 {
		return nil, errors.New("no last-record delimiter (0x02) before the padding")
	}
	return plain[:i], nil
}

// Pushed is one message the fake push service accepted.
type Pushed struct {
	TTL      int
	Urgency  string
	Endpoint string
	Note     notify.PushNote
}

// Service is a push service (RFC 8030) as far as a sender sees
// it: it checks the VAPID Authorization (RFC 8292) against the public key
// the server published, the aes128gcm body and the TTL, decrypts the
// message with the browser's private key, and answers status (201 unless set).
type Service struct {
	mu       sync.Mutex
	t        testing.TB
	vapid    []byte // the published public key
	browser  Browser
	status   int
	retry    string // Retry-After with status
	requests int
	got      []Pushed
	Srv      *httptest.Server
}

func NewService(t testing.TB, b Browser) *Service {
	f := &Service{t: t, browser: b, status: http.StatusCreated}
	f.Srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Srv.Close)
	return f
}

func (f *Service) Publish(key string) {
	k, err := base64.RawURLEncoding.DecodeString(key)
	if err != nil {
		f.t.Fatal(err)
	}
	f.mu.Lock()
	f.vapid = k
	f.mu.Unlock()
}

func (f *Service) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests++
	body, _ := io.ReadAll(r.Body)
	if err := f.check(r, body); err != nil {
		f.t.Errorf("push service refused the request: %v", err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if f.status != http.StatusCreated {
		if f.retry != "" {
			w.Header().Set("Retry-After", f.retry)
		}
		w.WriteHeader(f.status)
		return
	}
	w.Header().Set("Location", "/m/"+strconv.Itoa(f.requests))
	w.WriteHeader(http.StatusCreated)
}

func (f *Service) check(r *http.Request, body []byte) error {
	if r.Method != http.MethodPost {
		return fmt.Errorf("method %s", r.Method)
	}
	if ce := r.Header.Get("Content-Encoding"); ce != "aes128gcm" {
		return fmt.Errorf("Content-Encoding %q", ce)
	}
	ttl, err := strconv.Atoi(r.Header.Get("TTL"))
	if err != nil || ttl <= 0 {
		return fmt.Errorf("TTL %q", r.Header.Get("TTL"))
	}
	if err := f.checkVAPID(r.Header.Get("Authorization"), "http://"+r.Host); err != nil {
		return err
	}
	plain, err := f.browser.Decrypt(body)
	if err != nil {
		return fmt.Errorf("decrypt: %w", err)
	}
	var n notify.PushNote
	if err := json.Unmarshal(plain, &n); err != nil {
		return fmt.Errorf("decrypted payload %q: %w", plain, err)
	}
	f.got = append(f.got, Pushed{TTL: ttl, Urgency: r.Header.Get("Urgency"), Endpoint: r.URL.Path, Note: n})
	return nil
}

// checkVAPID verifies "vapid t=<JWT>, k=<key>": k is the published key,
// the JWT is ES256-signed by it for this push service's origin, not expired
// and not valid for more than 24 hours, with a contact in sub.
func (f *Service) checkVAPID(h, audience string) error {
	params, ok := strings.CutPrefix(h, "vapid ")
	if !ok {
		return fmt.Errorf("Authorization %q is not vapid", h)
	}
	var tok, key string
	for _, p := range strings.Split(params, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		switch k {
		case "t":
			tok = v
		case "k":
			key = v
		}
	}
	if kb, err := base64.RawURLEncoding.DecodeString(key); err != nil || string(kb) != string(f.vapid) {
		return fmt.Errorf("k=%q is not the published key", key)
	}
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return fmt.Errorf("t is not a JWT: %q", tok)
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), f.vapid)
	if err != nil {
		return err
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return errors.New("the JWT's signature is not an ES256 signature")
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(pub, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return errors.New("the JWT is not signed by the published key")
	}
	var head struct{ Alg string }
	var claims struct {
		Aud string
		Exp int64
		Sub string
	}
	hb, _ := base64.RawURLEncoding.DecodeString(parts[0])
	cb, _ := base64.RawURLEncoding.DecodeString(parts[1])
	if json.Unmarshal(hb, &head) != nil || head.Alg != "ES256" || json.Unmarshal(cb, &claims) != nil {
		return fmt.Errorf("JWT header %s claims %s", hb, cb)
	}
	now := time.Now().Unix()
	if claims.Aud != audience || claims.Exp <= now || claims.Exp > now+24*3600 ||
		!(strings.HasPrefix(claims.Sub, "mailto:") || strings.HasPrefix(claims.Sub, "https:")) {
		return fmt.Errorf("JWT claims %s (audience %s)", cb, audience)
	}
	return nil
}

func (f *Service) Messages() ([]Pushed, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Pushed(nil), f.got...), f.requests
}

func (f *Service) Answer(status int, retryAfter string) {
	f.mu.Lock()
	f.status, f.retry = status, retryAfter
	f.mu.Unlock()
}
