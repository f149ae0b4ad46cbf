package settings

import (
	"context"
	"strings"
	"testing"
)

// A document stored by an older build, with settings that are no longer
// offered, loads without error: the rest of it is kept, the retired keys
// are ignored and dropped at the next save of their part.
func TestStoredRetiredSettingsLoadAndAreDropped(t *testing.T) {
	ctx := context.Background()
	svc, st, _ := newService(t)
	platform := `{"version":"1.0.0","trading":{"defaultParameters":{"quantity":0.02,"orderType":"limit","timeInForce":"IOC"}},
		"system":{"monitoring":{"enableHealthChecks":true,"healthCheckInterval":60000,"enablePerformanceMetrics":false,"metricsRetention":9},
		"logging":{"level":"ERROR","enableFileLogging":true,"logRetention":7,"enableRemoteLogging":true},
		"backup":{"enableAutoBackup":true,"backupInterval":86400000,"backupRetention":7,"backupLocation":"s3"},
		"security":{"enableTwoFactor":false,"sessionTimeout":3600000,"enableApiKeyRotation":true,"apiKeyRotationInterval":30,"enableAuditLog":false}}}`
	ui := `{"theme":{"mode":"light","primaryColor":"#ef4444","accentColor":"#10b981","fontSize":"large"},
		"dashboard":{"layout":"compact","showMetrics":true,"showCharts":true,"showRecentTrades":true,"refreshInterval":5000},
		"charts":{"type":"line","timeframe":"4h","indicators":["SMA"],"showVolume":false,"showGrid":false},
		"notifications":{"trades":true,"alerts":true,"system":true,"email":false,"push":false,"sound":true},
		"display":{"currency":"USD","decimalPlaces":2,"thousandsSeparator":",","dateFormat":"MM/DD/YYYY","timeFormat":"24h"},
		"language":{"locale":"de-DE","timezone":"Europe/Berlin"}}`
	if err := st.PutValue(ctx, kvPlatform, platform); err != nil {
		t.Fatal(err)
	}
	if err := st.PutValue(ctx, kvUIPrefix+op.ID, ui); err != nil {
		t.Fatal(err)
	}
	svc2, err := NewService(ctx, st, svc.sealer, clock{})
	if err != nil {
		t.Fatalf("an older document does not load: %v", err)
	}
	s, err := svc2.Get(ctx, op.ID)
	if err != nil {
		t.Fatal(err)
	}
	if s.Trading.DefaultParameters.OrderType != "limit" || s.System.Logging.Level != "ERROR" || s.UI.Theme.Mode != "light" ||
		s.UI.Charts.Timeframe != "4h" || s.UI.Language.Timezone != "Europe/Berlin" {
		t.Fatalf("the kept settings were not loaded: %+v", s)
	}
	if res := Validate(&s); !res.IsValid {
		t.Fatalf("the loaded document does not validate: %+v", res.Errors)
	}
	s.System.Logging.Level, s.UI.Theme.FontSize = "WARNING", "small" // the next save of each part
	if _, _, err := svc2.Save(ctx, op, s); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{kvPlatform, kvUIPrefix + op.ID} {
		raw, err := st.GetValue(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		for _, retired := range Retired {
			leaf := retired[strings.LastIndex(retired, ".")+1:]
			if strings.Contains(raw, `"`+leaf+`"`) {
				t.Errorf("%s still stores %s after a save: %s", key, retired, raw)
			}
		}
	}
}

// An export file from an older build imports with the retired keys dropped;
// an unknown key elsewhere is still the caller's to refuse.
func TestDropRetired(t *testing.T) {
	in := `{"ui":{"theme":{"mode":"dark","primaryColor":"#3b82f6"},"language":{"locale":"en-US","timezone":"UTC"}},"system":{"backup":{"backupLocation":"local","backupRetention":7}},"other":1}`
	out, err := DropRetired([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"other":1,"system":{"backup":{"backupRetention":7}},"ui":{"language":{"timezone":"UTC"},"theme":{"mode":"dark"}}}`
	if string(out) != want {
		t.Errorf("DropRetired = %s, want %s", out, want)
	}
	if _, err := DropRetired([]byte(`[1]`)); err == nil {
		t.Error("a document that is not an object was accepted")
	}
}
