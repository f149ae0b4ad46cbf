package app_test

import (
	"strings"
	"testing"
)

// The settings' choices and an empty alert list answer as the description
// says (s.do checks every answer against it): the options key by key, and
// no alert as an empty list, never null, which the web client relies on.
func TestOptionsAndEmptyAlertListMatchTheDescription(t *testing.T) {
	s := start(t, t.TempDir())
	_, tok := s.accounts()
	if r := s.do("GET", "/api/settings/options", tok, ""); r.Status != 200 {
		t.Fatalf("options: %+v", r)
	}
	r := s.do("GET", "/api/system/alerts?severity=low&resolved=true", tok, "")
	if r.Status != 200 || !strings.Contains(string(r.Data), `"alerts":[]`) {
		t.Fatalf("alerts: %d %s", r.Status, r.Data)
	}
}
