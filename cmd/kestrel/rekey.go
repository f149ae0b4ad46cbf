package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"kestrel/app"
	"kestrel/auth"
	"kestrel/notify"
	"kestrel/settings"
)

// rekeyCmd re-seals every stored secret (exchange key and secret, AI token)
// under a new key: for a key that may have leaked, or routine rotation. The
// server must be stopped: it keeps the secrets in memory and would write
// them back under the old key at its next settings save.
func rekeyCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("kestrel rekey", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := bindConfig(fs)
	newKey := fs.String("new-key", "", "base64 32-byte key to seal with; default: a new random key")
	fs.Usage = func() {
		fmt.Fprint(stderr, `Usage: kestrel rekey [--data-dir D | --database-url U] [--secret-key OLD] [--new-key NEW]

Re-seals the stored exchange and AI credentials, the notification
channels' secrets and the Web Push (VAPID) private key under a new key. Stop the
server (every instance of a cluster) first. With the key file in the data
directory (the default), the file is replaced by the new key. With
--secret-key (KESTREL_SECRET_KEY), the new key is printed (unless given with
--new-key): configure it on every instance before starting them again.

`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	next, err := rekeyNewKey(*newKey)
	if err != nil {
		return err
	}
	keyFile := filepath.Join(cfg.DataDir, "secret.key")
	pending := keyFile + ".new"
	fromFile := cfg.SecretKey == ""
	if fromFile {
		if _, err := os.Stat(keyFile); err != nil {
			return fmt.Errorf("no key file to replace: %w (nothing is sealed without one; or pass --secret-key)", err)
		}
		if _, err := os.Stat(pending); err == nil {
			return fmt.Errorf("%s exists: an earlier rekey stopped half-way; the stored secrets are sealed with the key in %s or %s: "+
				"start the server with the one that opens them (--secret-key), then remove the other before rekeying again", pending, keyFile, pending)
		}
	}
	old, err := settings.LoadOrCreateKey(cfg.SecretKey, cfg.DataDir)
	if err != nil {
		return fmt.Errorf("current key: %w", err)
	}
	oldSealer, err := settings.NewSealer(old)
	if err != nil {
		return fmt.Errorf("current key: %w", err)
	}
	nextSealer, err := settings.NewSealer(next)
	if err != nil {
		return fmt.Errorf("new key: %w", err)
	}
	encoded := base64.StdEncoding.EncodeToString(next)
	if fromFile {
		// The new key is on disk before anything is sealed with it.
		if err := writeKeyFile(pending, encoded); err != nil {
			return err
		}
	}
	store, err := app.OpenStore(ctx, *cfg)
	if err != nil {
		return err
	}
	defer store.Close()
	// Each store of secrets is re-sealed whole or not at all (notification
	// channels, the VAPID key, then two-factor secrets, each in one pass that opens every
	// secret before writing; then the settings document, one write). When a
	// later one fails, the earlier ones are sealed back under the old key,
	// so every secret is always sealed with one key.
	steps := []struct {
		name string
		run  func(old, next *settings.Sealer) (int, error)
	}{
		{"the notification channels' secrets", func(o, x *settings.Sealer) (int, error) { return notify.Rekey(ctx, store, o, x) }},
		{"the Web Push (VAPID) private key", func(o, x *settings.Sealer) (int, error) { return notify.RekeyVAPID(ctx, store, o, x) }},
		{"the two-factor secrets", func(o, x *settings.Sealer) (int, error) { return auth.RekeyTOTP(ctx, store, o, x) }},
		{"the settings' secrets", func(o, x *settings.Sealer) (int, error) { return settings.Rekey(ctx, store, o, x) }},
	}
	n := 0
	for i, st := range steps {
		k, err := st.run(oldSealer, nextSealer)
		if err != nil {
			for _, done := range steps[:i] {
				if _, back := done.run(nextSealer, oldSealer); back != nil {
					return fmt.Errorf("%w; and %s, already sealed with the new key, could not be sealed back: %v", err, done.name, back)
				}
			}
			if fromFile {
				os.Remove(pending) // nothing is left re-sealed
			}
			return err
		}
		n += k
	}
	if fromFile {
		if err := os.Rename(pending, keyFile); err != nil {
			return fmt.Errorf("the secrets are sealed with the key in %s, but it could not replace %s: %w", pending, keyFile, err)
		}
		fmt.Fprintf(stdout, "re-sealed %d secret(s); %s holds the new key\n", n, keyFile)
		return nil
	}
	fmt.Fprintf(stdout, "re-sealed %d secret(s) under the new key\n", n)
	if *newKey == "" {
		fmt.Fprintf(stdout, "set KESTREL_SECRET_KEY (or --secret-key) on every instance to:\n%s\n", encoded)
	}
	return nil
}

func rekeyNewKey(given string) ([]byte, error) {
	if given == "" {
		k := make([]byte, 32)
		_, err := rand.Read(k)
		return k, err
	}
	k, err := base64.StdEncoding.DecodeString(strings.TrimSpace(given))
	if err != nil || len(k) != 32 {
		return nil, errors.New("--new-key must be a base64 32-byte key (openssl rand -base64 32)")
	}
	return k, nil
}

func writeKeyFile(path, encoded string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("write new key: %w", err)
	}
	if _, err := f.WriteString(encoded + "\n"); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
