package app_test

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"
)

// Every setting the server offers takes effect: walking the whole document
// a client is given, each key's most specific entry in the effects map is
// "applied". A setting that would only be stored is not offered at all.
func TestEverySettingOfferedIsApplied(t *testing.T) {
	s := start(t, t.TempDir())
	op, _ := s.accounts()
	var got struct {
		Settings map[string]any    `json:"settings"`
		Effects  map[string]string `json:"effects"`
	}
	s.into(s.do("GET", "/api/settings", op, ""), &got)
	var stored []string
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		if m, ok := v.(map[string]any); ok && len(m) > 0 {
			for k, child := range m {
				walk(prefix+"."+k, child)
			}
			return
		}
		key := strings.TrimPrefix(prefix, ".")
		if key == "version" || key == "lastUpdated" {
			return
		}
		if effect(got.Effects, key) != "applied" {
			stored = append(stored, key)
		}
	}
	walk("", got.Settings)
	sort.Strings(stored)
	if len(stored) > 0 {
		t.Errorf("offered but not applied (%d): %s", len(stored), strings.Join(stored, ", "))
	}
}

// effect is a key's most specific entry, as the Settings screen reads it.
func effect(effects map[string]string, key string) string {
	parts := strings.Split(key, ".")
	for n := len(parts); n > 0; n-- {
		if v, ok := effects[strings.Join(parts[:n], ".")]; ok {
			return v
		}
	}
	return ""
}

// An export file from an older build, which still holds the settings no
// longer offered, imports: those are dropped, the rest applies; a key that
// was never a setting still makes the file invalid.
func TestImportOfAnOlderExportDropsRetiredSettings(t *testing.T) {
	s := start(t, t.TempDir())
	op, _ := s.accounts()
	var file map[string]any
	s.into(s.do("GET", "/api/settings/export", op, ""), &file)
	doc := file["settings"].(map[string]any)
	sys := doc["system"].(map[string]any)
	sys["logging"].(map[string]any)["level"] = "ERROR"
	sys["logging"].(map[string]any)["enableRemoteLogging"] = true
	sys["backup"].(map[string]any)["backupLocation"] = "azure"
	sys["security"].(map[string]any)["enableAuditLog"] = false
	ui := doc["ui"].(map[string]any)
	ui["theme"].(map[string]any)["primaryColor"] = "#ef4444"
	ui["charts"].(map[string]any)["indicators"] = []string{"SMA", "RSI"}
	doc["trading"].(map[string]any)["defaultParameters"].(map[string]any)["timeInForce"] = "FOK"
	body, _ := json.Marshal(file)
	if r := s.do("POST", "/api/settings/import", op, string(body)); r.Status != 200 {
		t.Fatalf("import of an older export: %+v", r)
	}
	if got := s.app.Settings.Platform().System.Logging.Level; got != "ERROR" {
		t.Errorf("log level after the import %q, want ERROR", got)
	}
	ui["theme"].(map[string]any)["colour"] = "#ef4444"
	body, _ = json.Marshal(file)
	if r := s.do("POST", "/api/settings/import", op, string(body)); r.Status != 400 {
		t.Errorf("a file with a key that was never a setting: %d, want 400", r.Status)
	}
}
