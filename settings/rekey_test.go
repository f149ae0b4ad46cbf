package settings

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
)

func sealerFor(t *testing.T) *Sealer {
	t.Helper()
	k := make([]byte, 32)
	rand.Read(k)
	s, err := NewSealer(k)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sealV1 is how secrets were sealed before field binding (no associated data).
func sealV1(t *testing.T, s *Sealer, plain string) string {
	t.Helper()
	nonce := make([]byte, s.aead.NonceSize())
	rand.Read(nonce)
	return sealedPrefixV1 + base64.StdEncoding.EncodeToString(s.aead.Seal(nonce, nonce, []byte(plain), nil))
}

// A sealed value opens only as the field it was sealed for; values sealed
// before field binding still open.
func TestSealedValueBoundToField(t *testing.T) {
	s := sealerFor(t)
	v, err := s.Seal("api.exchange.apiSecret", "the-secret")
	if err != nil || !strings.HasPrefix(v, "sealed:v2:") {
		t.Fatalf("seal: %q %v", v, err)
	}
	if got, err := s.Open("api.exchange.apiSecret", v); err != nil || got != "the-secret" {
		t.Fatalf("open: %q %v", got, err)
	}
	if _, err := s.Open("api.ai.apiToken", v); err == nil {
		t.Fatal("a ciphertext moved to another field opened")
	}
	old := sealV1(t, s, "older-secret")
	if got, err := s.Open("api.ai.apiToken", old); err != nil || got != "older-secret" {
		t.Fatalf("v1 value: %q %v", got, err)
	}
	if _, err := sealerFor(t).Open("api.exchange.apiSecret", v); err == nil {
		t.Fatal("opened with another key")
	}
}

// Rekey re-seals every stored secret, v1 or v2, under the new key, bound to
// its field; the old key opens none of them afterwards, and the other
// settings are untouched.
func TestRekey(t *testing.T) {
	ctx := context.Background()
	svc, st, _ := newService(t)
	s, _ := svc.Get(ctx, op.ID)
	s.API.Exchange.Provider = "coinbase"
	s.API.Exchange.APIKey = "KEY-PLAINTEXT-1234"
	s.API.Exchange.APISecret = "SECRET-PLAINTEXT-9876"
	s.API.AI.APIToken = "TOKEN-PLAINTEXT-5555"
	s.Trading.RiskManagement.MaxOpenPositions = 4
	if _, _, err := svc.Save(ctx, op, s); err != nil {
		t.Fatal(err)
	}
	// Make one stored value a v1 ciphertext, as an older version wrote it.
	raw, _ := st.GetValue(ctx, kvPlatform)
	sealedToken, _ := lookupRaw(t, raw, "api.ai.apiToken")
	raw = strings.Replace(raw, sealedToken, sealV1(t, svc.sealer, "TOKEN-PLAINTEXT-5555"), 1)
	if err := st.PutValue(ctx, kvPlatform, raw); err != nil {
		t.Fatal(err)
	}

	next := sealerFor(t)
	n, err := Rekey(ctx, st, svc.sealer, next)
	if err != nil || n != 3 {
		t.Fatalf("rekey: %d %v, want 3", n, err)
	}
	after, _ := st.GetValue(ctx, kvPlatform)
	if strings.Contains(after, "PLAINTEXT") || strings.Contains(after, "sealed:v1:") {
		t.Fatalf("stored after rekey: %s", after)
	}
	if _, err := NewService(ctx, st, svc.sealer, clock{}); err == nil {
		t.Fatal("the old key still opens the stored secrets")
	}
	svc2, err := NewService(ctx, st, next, clock{})
	if err != nil {
		t.Fatal(err)
	}
	p := svc2.Platform()
	if p.API.Exchange.APIKey != "KEY-PLAINTEXT-1234" || p.API.Exchange.APISecret != "SECRET-PLAINTEXT-9876" || p.API.AI.APIToken != "TOKEN-PLAINTEXT-5555" ||
		p.Trading.RiskManagement.MaxOpenPositions != 4 {
		t.Fatalf("after rekey: %+v %+v", p.API, p.Trading.RiskManagement)
	}
	// A wrong "old" key changes nothing.
	if _, err := Rekey(ctx, st, sealerFor(t), sealerFor(t)); err == nil {
		t.Fatal("rekey with a wrong old key succeeded")
	}
	if again, _ := st.GetValue(ctx, kvPlatform); again != after {
		t.Fatal("a failed rekey changed the stored settings")
	}
}

func lookupRaw(t *testing.T, raw, path string) (string, bool) {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(raw), &doc); err != nil {
		t.Fatal(err)
	}
	return lookup(doc, path)
}
