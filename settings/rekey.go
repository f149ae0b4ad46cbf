package settings

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"kestrel/domain"
)

func sealSecrets(sealer *Sealer, p *Settings) error {
	for i, f := range secretFields(p) {
		var err error
		if *f, err = sealer.Seal(SecretNames[i], *f); err != nil {
			return fmt.Errorf("seal %s: %w", SecretNames[i], err)
		}
	}
	return nil
}

func openSecrets(sealer *Sealer, p *Settings) error {
	for i, f := range secretFields(p) {
		plain, err := sealer.Open(SecretNames[i], *f)
		if err != nil {
			return fmt.Errorf("stored settings: %w", err)
		}
		*f = plain
	}
	return nil
}

// Rekey re-seals every stored secret under next: each is opened with old
// (v1 or v2) and sealed again, bound to its field, in one write of the
// stored document. It returns how many secrets were set. The server must
// not be running: it would write its copy back sealed with the old key.
func Rekey(ctx context.Context, kv domain.KVStore, old, next *Sealer) (int, error) {
	raw, err := kv.GetValue(ctx, kvPlatform)
	if domain.ErrorCode(err) == domain.ENotFound {
		return 0, nil // nothing stored yet
	} else if err != nil {
		return 0, err
	}
	// A map keeps every stored field as it is, known to this version or not.
	var doc map[string]any
	if err := json.Unmarshal([]byte(raw), &doc); err != nil {
		return 0, fmt.Errorf("stored settings are corrupt: %w", err)
	}
	n := 0
	for _, name := range SecretNames {
		v, ok := lookup(doc, name)
		if !ok || v == "" {
			continue
		}
		plain, err := old.Open(name, v)
		if err != nil {
			return 0, fmt.Errorf("stored settings: %w", err)
		}
		sealed, err := next.Seal(name, plain)
		if err != nil {
			return 0, err
		}
		set(doc, name, sealed)
		n++
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return 0, err
	}
	return n, kv.PutValue(ctx, kvPlatform, string(b))
}

// lookup reads the string at a dotted path of doc.
func lookup(doc map[string]any, path string) (string, bool) {
	var cur any = doc
	for _, k := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return "", false
		}
		cur = m[k]
	}
	s, ok := cur.(string)
	return s, ok
}

// set writes the string at a dotted path lookup found.
func set(doc map[string]any, path, v string) {
	keys := strings.Split(path, ".")
	m := doc
	for _, k := range keys[:len(keys)-1] {
		m = m[k].(map[string]any)
	}
	m[keys[len(keys)-1]] = v
}
