package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kestrel/auth"
	"kestrel/domain"
	"kestrel/settings"
	"kestrel/store/sqlite"
)

// storeSecrets saves exchange credentials in a fresh data directory, sealed
// with its key file, as a running server would.
func storeSecrets(t *testing.T, dir string) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(dir, "kestrel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	key, err := settings.LoadOrCreateKey("", dir)
	if err != nil {
		t.Fatal(err)
	}
	sealer, _ := settings.NewSealer(key)
	svc, err := settings.NewService(ctx, st, sealer, domain.SystemClock{})
	if err != nil {
		t.Fatal(err)
	}
	op := domain.User{ID: "op", Role: domain.RoleOperator}
	s, _ := svc.Get(ctx, op.ID)
	s.API.Exchange.Provider = "coinbase"
	s.API.Exchange.APIKey, s.API.Exchange.APISecret = "the-api-key-1234", "the-api-secret-5678"
	if _, _, err := svc.Save(ctx, op, s); err != nil {
		t.Fatal(err)
	}
}

// opensWith reports the stored API secret as the key opens it.
func opensWith(t *testing.T, dir string, key []byte) (string, error) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(dir, "kestrel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sealer, _ := settings.NewSealer(key)
	svc, err := settings.NewService(context.Background(), st, sealer, domain.SystemClock{})
	if err != nil {
		return "", err
	}
	return svc.Platform().API.Exchange.APISecret, nil
}

func readKey(t *testing.T, dir string) []byte {
	t.Helper()
	k, err := settings.LoadOrCreateKey("", dir)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestRekeyWithKeyFile(t *testing.T) {
	dir := t.TempDir()
	storeSecrets(t, dir)
	old := readKey(t, dir)
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"rekey", "--data-dir", dir}, strings.NewReader(""), &out, &errOut); err != nil {
		t.Fatalf("rekey: %v (%s)", err, errOut.String())
	}
	if !strings.Contains(out.String(), "re-sealed 2 secret(s)") {
		t.Fatalf("output %q", out.String())
	}
	next := readKey(t, dir)
	if bytes.Equal(old, next) {
		t.Fatal("the key file still holds the old key")
	}
	if fi, err := os.Stat(filepath.Join(dir, "secret.key")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("new key file: %v, %v", fi, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "secret.key.new")); !os.IsNotExist(err) {
		t.Fatalf("secret.key.new left behind: %v", err)
	}
	if got, err := opensWith(t, dir, next); err != nil || got != "the-api-secret-5678" {
		t.Fatalf("with the new key: %q, %v", got, err)
	}
	if _, err := opensWith(t, dir, old); err == nil {
		t.Fatal("the old key still opens the secrets")
	}
}

func TestRekeyWithConfiguredKey(t *testing.T) {
	dir := t.TempDir()
	storeSecrets(t, dir)
	old := base64.StdEncoding.EncodeToString(readKey(t, dir))
	os.Remove(filepath.Join(dir, "secret.key")) // the key comes from the configuration now
	next := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32))
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"rekey", "--data-dir", dir, "--secret-key", old, "--new-key", next}, strings.NewReader(""), &out, &errOut)
	if err != nil {
		t.Fatalf("rekey: %v (%s)", err, errOut.String())
	}
	if strings.Contains(out.String(), next) {
		t.Fatal("a key the user gave was printed back")
	}
	if got, err := opensWith(t, dir, bytes.Repeat([]byte{7}, 32)); err != nil || got != "the-api-secret-5678" {
		t.Fatalf("with the new key: %q, %v", got, err)
	}
	// A wrong current key is refused and changes nothing.
	err = run(context.Background(), []string{"rekey", "--data-dir", dir, "--secret-key", old}, strings.NewReader(""), &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "cannot be decrypted") {
		t.Fatalf("rekey with the wrong current key: %v", err)
	}
	if got, err := opensWith(t, dir, bytes.Repeat([]byte{7}, 32)); err != nil || got != "the-api-secret-5678" {
		t.Fatalf("after a refused rekey: %q, %v", got, err)
	}
}

// A key rotation carries the two-factor secrets too: sealed with the old
// key, they open with the new one after rekey and no longer with the old.
func TestRekeyCarriesTwoFactorSecrets(t *testing.T) {
	dir := t.TempDir()
	storeSecrets(t, dir)
	old := readKey(t, dir)
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(dir, "kestrel.db"))
	if err != nil {
		t.Fatal(err)
	}
	oldSealer, _ := settings.NewSealer(old)
	sealed, _ := oldSealer.Seal(auth.TOTPField("u1"), "JBSWY3DPEHPK3PXP")
	if err := st.CreateUser(ctx, domain.User{ID: "u1", Email: "u1@example.com", Name: "U", Role: domain.RoleOperator}, "h", false); err != nil {
		t.Fatal(err)
	}
	if err := st.PutPendingTOTP(ctx, "u1", sealed); err != nil {
		t.Fatal(err)
	}
	st.Close()
	var out, errOut bytes.Buffer
	if err := run(ctx, []string{"rekey", "--data-dir", dir}, strings.NewReader(""), &out, &errOut); err != nil {
		t.Fatalf("rekey: %v (%s)", err, errOut.String())
	}
	if !strings.Contains(out.String(), "re-sealed 3 secret(s)") {
		t.Fatalf("output %q", out.String())
	}
	st, err = sqlite.Open(ctx, filepath.Join(dir, "kestrel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	got, err := st.TOTPByUser(ctx, "u1")
	if err != nil {
		t.Fatal(err)
	}
	nextSealer, _ := settings.NewSealer(readKey(t, dir))
	if plain, err := nextSealer.Open(auth.TOTPField("u1"), got.Secret); err != nil || plain != "JBSWY3DPEHPK3PXP" {
		t.Fatalf("with the new key: %q, %v", plain, err)
	}
	if _, err := oldSealer.Open(auth.TOTPField("u1"), got.Secret); err == nil {
		t.Fatal("the old key still opens the two-factor secret")
	}
}
