package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kestrel/domain"
	"kestrel/notify"
	"kestrel/settings"
	"kestrel/store/sqlite"
)

func TestRekeyReSealsNotificationSecrets(t *testing.T) {
	dir := t.TempDir()
	storeSecrets(t, dir)
	old := readKey(t, dir)
	ctx := context.Background()
	secret := notify.NewSecret()
	st, err := sqlite.Open(ctx, filepath.Join(dir, "kestrel.db"))
	if err != nil {
		t.Fatal(err)
	}
	sealer, _ := settings.NewSealer(old)
	sealed, _ := sealer.Seal(notify.SecretField, secret)
	if err := st.CreateNotifyChannel(ctx, domain.NotifyChannel{ID: "ch1", Owner: "op", Kind: "webhook", Name: "h", URL: "https://example.com/h", Secret: sealed, Enabled: true, CreatedAt: time.Now()}); err != nil {
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
	ch, _ := st.NotifyChannel(ctx, "ch1")
	next, _ := settings.NewSealer(readKey(t, dir))
	if got, err := next.Open(notify.SecretField, ch.Secret); err != nil || got != secret {
		t.Fatalf("with the new key: %q, %v", got, err)
	}
	if _, err := sealer.Open(notify.SecretField, ch.Secret); err == nil {
		t.Fatal("the old key still opens the channel's secret")
	}
}

// The Web Push key pair is made on first use with its private half sealed;
// a rekey re-seals it, so the same public key (the one browsers subscribed
// with) still signs after the rotation.
func TestRekeyReSealsTheVAPIDKey(t *testing.T) {
	dir := t.TempDir()
	storeSecrets(t, dir)
	old := readKey(t, dir)
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(dir, "kestrel.db"))
	if err != nil {
		t.Fatal(err)
	}
	sealer, _ := settings.NewSealer(old)
	pub, err := notify.New(st, sealer, domain.SystemClock{}, notify.Options{}).PushKey(ctx)
	if err != nil || pub == "" {
		t.Fatalf("push key: %q, %v", pub, err)
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
	next, _ := settings.NewSealer(readKey(t, dir))
	if got, err := notify.New(st, next, domain.SystemClock{}, notify.Options{}).PushKey(ctx); err != nil || got != pub {
		t.Fatalf("with the new key: %q, %v; want %q", got, err, pub)
	}
	if _, err := notify.New(st, sealer, domain.SystemClock{}, notify.Options{}).PushKey(ctx); err == nil {
		t.Fatal("the old key still opens the VAPID private key")
	}
}
