package openapitest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRecordedAnswers checks every API answer the end-to-end run recorded
// (make test-e2e sets KESTREL_E2E_ANSWERS) against the description.
func TestRecordedAnswers(t *testing.T) {
	dir := os.Getenv("KESTREL_E2E_ANSWERS")
	if dir == "" {
		t.Skip("KESTREL_E2E_ANSWERS names no directory of recorded answers (make test-e2e records them)")
	}
	d, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	n, errs, err := d.CheckRecorded(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("no answers recorded in %s", dir)
	}
	for _, e := range errs {
		t.Error(e)
	}
	t.Logf("%d recorded answers checked against the description, %d distinct mismatches", n, len(errs))
}

// The recorded-answer check reads the recorder's lines and reports a
// mismatch (an answer without its required field) once, however often seen.
func TestCheckRecordedFindsAMismatch(t *testing.T) {
	d, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	lines := `{"method":"GET","url":"/api/trading/balances","status":200,"headers":{"content-type":"application/json; charset=utf-8"},"body":"{\"success\":true,\"data\":{\"balances\":[]}}"}
{"method":"GET","url":"/api/trading/balances","status":200,"headers":{"content-type":"application/json; charset=utf-8"},"body":"{\"success\":true,\"data\":{}}"}
{"method":"GET","url":"/api/trading/balances","status":200,"headers":{"content-type":"application/json; charset=utf-8"},"body":"{\"success\":true,\"data\":{}}"}
{"method":"GET","url":"/api/auth/me","status":401,"headers":{"content-type":"application/json; charset=utf-8"},"body":"{\"success\":false,\"error\":{\"code\":\"unauthorized\",\"message\":\"Authentication required\"}}"}
`
	if err := os.WriteFile(filepath.Join(dir, "answers-1.jsonl"), []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	n, errs, err := d.CheckRecorded(dir)
	if err != nil || n != 4 {
		t.Fatalf("checked %d, %v", n, err)
	}
	if len(errs) != 2 {
		t.Fatalf("mismatches %v, want the missing balances once and the 401 without its challenge", errs)
	}
}
