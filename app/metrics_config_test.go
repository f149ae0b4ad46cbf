package app

import (
	"strings"
	"testing"
)

func TestMetricsTokenValidation(t *testing.T) {
	for _, c := range []struct {
		token string
		ok    bool
	}{
		{"", true}, // open, as before
		{"0123456789abcdef", true},
		{"scrape-8f3a.Kq_~+/==", true},
		{"short-token", false},
		{"with a space inside it", false},
		{"0123456789abcdef\n", false},
		{"equals=in-the-middle", false},
		{"ünïcode-not-a-b64token", false},
	} {
		cfg := Defaults()
		cfg.MetricsToken = c.token
		err := cfg.Validate()
		if c.ok && err != nil {
			t.Errorf("%q: %v", c.token, err)
		}
		if !c.ok && (err == nil || !strings.Contains(err.Error(), "metrics token")) {
			t.Errorf("%q: error %v, want one about the metrics token", c.token, err)
		}
	}
}
