package httpapi

import "testing"

// A development build's version is its commit: the label says it once.
func TestBuildLabelSaysTheCommitOnce(t *testing.T) {
	for _, c := range []struct {
		b    BuildInfo
		want string
	}{
		{BuildInfo{Version: "8e69b5d", Commit: "8e69b5d"}, "8e69b5d"},
		{BuildInfo{Version: "8e69b5d-dirty", Commit: "8e69b5d"}, "8e69b5d-dirty"},
		{BuildInfo{Version: "v1.4.0", Commit: "8e69b5d"}, "v1.4.0 8e69b5d"},
		{BuildInfo{Version: "test"}, "test"},
	} {
		if got := c.b.Label(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.b, got, c.want)
		}
	}
}
