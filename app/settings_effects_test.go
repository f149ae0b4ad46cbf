package app

import (
	"encoding/json"
	"sort"
	"testing"

	"kestrel/settings"
)

// leaves lists the dotted keys of every leaf value in a JSON object.
func leaves(prefix string, v any, out *[]string) {
	m, ok := v.(map[string]any)
	if !ok {
		*out = append(*out, prefix)
		return
	}
	for k, x := range m {
		key := k
		if prefix != "" {
			key = prefix + "." + k
		}
		leaves(key, x, out)
	}
}

// Every leaf setting says, by its own key, whether it is applied or stored.
func TestEverySettingHasAnExplicitEffect(t *testing.T) {
	b, _ := json.Marshal(settings.Defaults())
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	var keys []string
	leaves("", v, &keys)
	sort.Strings(keys)
	for _, k := range keys {
		if k == "lastUpdated" || k == "version" { // metadata, not settings
			continue
		}
		switch settingsEffects[k] {
		case "applied", "stored":
		default:
			t.Errorf("%s has no explicit effect (applied or stored)", k)
		}
	}
}
