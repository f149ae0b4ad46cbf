package settings

import (
	"encoding/json"
	"strings"
)

// Retired are the keys earlier builds offered and stored but never acted
// on. They are no longer part of the document: a stored document that still
// has them loads (they are ignored, and dropped at the next save), and an
// older export file imports with them dropped.
var Retired = []string{
	"trading.defaultParameters.timeInForce",
	"ui.theme.primaryColor", "ui.theme.accentColor",
	"ui.dashboard.layout",
	"ui.charts.indicators", "ui.charts.showVolume", "ui.charts.showGrid",
	"ui.notifications.sound",
	"ui.language.locale",
	"system.monitoring.enablePerformanceMetrics", "system.monitoring.metricsRetention",
	"system.logging.enableFileLogging", "system.logging.enableRemoteLogging",
	"system.backup.backupLocation",
	"system.security.enableApiKeyRotation", "system.security.apiKeyRotationInterval", "system.security.enableAuditLog",
}

// DropRetired removes the retired keys from a settings document; anything
// else, unknown keys included, is left for the caller's decoder to judge.
func DropRetired(raw []byte) ([]byte, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	changed := false
	for _, key := range Retired {
		parts := strings.Split(key, ".")
		if dropPath(doc, parts) {
			changed = true
		}
	}
	if !changed {
		return raw, nil
	}
	return json.Marshal(doc)
}

// dropPath deletes parts from doc, re-encoding each object on the way down
// that changed. It reports whether anything was deleted.
func dropPath(doc map[string]json.RawMessage, parts []string) bool {
	if len(parts) == 1 {
		_, ok := doc[parts[0]]
		delete(doc, parts[0])
		return ok
	}
	var child map[string]json.RawMessage
	if json.Unmarshal(doc[parts[0]], &child) != nil || child == nil {
		return false
	}
	if !dropPath(child, parts[1:]) {
		return false
	}
	b, err := json.Marshal(child)
	if err != nil {
		return false
	}
	doc[parts[0]] = b
	return true
}
