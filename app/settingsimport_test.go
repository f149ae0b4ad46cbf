package app_test

import (
	"encoding/json"
	"slices"
	"testing"
)

// An exported settings file leaves the secrets out; importing it (or a file
// carrying the masks the API shows) keeps the stored ones and says which,
// while a secret the file does carry replaces the stored one.
func TestImportKeepsSecretsTheFileLeavesBlank(t *testing.T) {
	s := start(t, t.TempDir())
	op, _ := s.accounts()
	const key, secret, token = "organizations/o/apiKeys/k", "stored-secret-0123456789", "stored-ai-token-abcdef"
	if r := s.do("PUT", "/api/settings", op, `{"api":{"exchange":{"apiKey":"`+key+`","apiSecret":"`+secret+`"},"ai":{"apiToken":"`+token+`"}}}`); r.Status != 200 {
		t.Fatalf("save secrets: %+v", r)
	}
	stored := func() (string, string, string) {
		p := s.app.Settings.Platform()
		return p.API.Exchange.APIKey, p.API.Exchange.APISecret, p.API.AI.APIToken
	}
	var imported struct{ KeptSecrets []string }
	importFile := func(file string) {
		t.Helper()
		r := s.do("POST", "/api/settings/import", op, file)
		if r.Status != 200 {
			t.Fatalf("import: %+v", r)
		}
		s.into(r, &imported)
	}
	all := []string{"api.exchange.apiKey", "api.exchange.apiSecret", "api.ai.apiToken"}

	exported := s.do("GET", "/api/settings/export", op, "")
	importFile(string(exported.Data))
	if k, sec, tok := stored(); k != key || sec != secret || tok != token {
		t.Fatalf("after importing the export: %q %q %q, want the stored secrets kept", k, sec, tok)
	}
	if !slices.Equal(imported.KeptSecrets, all) {
		t.Fatalf("kept %v, want %v", imported.KeptSecrets, all)
	}

	// The masks the settings screen shows stand for the stored secrets too.
	var masked struct{ Settings json.RawMessage }
	s.into(s.do("GET", "/api/settings", op, ""), &masked)
	importFile(`{"settings":` + string(masked.Settings) + `,"exportDate":"2026-01-01T00:00:00Z"}`)
	if k, sec, tok := stored(); k != key || sec != secret || tok != token || !slices.Equal(imported.KeptSecrets, all) {
		t.Fatalf("after importing masks: %q %q %q, kept %v", k, sec, tok, imported.KeptSecrets)
	}

	// A secret the file carries is imported; only the others are kept.
	importFile(`{"settings":{"api":{"exchange":{"apiKey":"","apiSecret":"new-secret-9876543210"},"ai":{"apiToken":""}}}}`)
	if k, sec, tok := stored(); k != key || sec != "new-secret-9876543210" || tok != token {
		t.Fatalf("after importing a new secret: %q %q %q", k, sec, tok)
	}
	if !slices.Equal(imported.KeptSecrets, []string{"api.exchange.apiKey", "api.ai.apiToken"}) {
		t.Fatalf("kept %v", imported.KeptSecrets)
	}
}
