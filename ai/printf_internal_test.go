package ai

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

func TestPrintfSameAsFmt(t *testing.T) {
	cases := []struct {
		f string
		a []any
	}{
		{"%d", []any{5}}, {"%08.2f|%-6s|%x", []any{3.14159, "ab", 255}}, {"100%%", nil}, {"%d %d", []any{1}}, {"%d", []any{1, "x", nil}},
		{"%v and %q", []any{[]string{"a"}, "q"}}, {"trail %", nil}, {"%5.1f%%", []any{12.345}}, {"héllo %s é", []any{"wörld"}}, {"%!", nil}, {"%ä", []any{1}},
	}
	for _, c := range cases {
		got, err := boundedPrintf(c.f, c.a...)
		want := fmt.Sprintf(c.f, c.a...)
		if err != nil || got != want {
			t.Errorf("%q: got %q %v, want %q", c.f, got, err, want)
		}
	}
}

// A template's functions refuse a text too long before building it (issue
// 33, item 10): a printf width or precision over the cap, an argument
// index or a width from an argument, and print of strings that together
// pass the cap are refused, and checking such a template allocates a few
// megabytes at most (before, each verb was built first: a 303-byte
// template built 200 MB in one preview).
func TestTemplateFunctionsRefuseBeforeBuilding(t *testing.T) {
	sys := `{{define "system"}}s{{end}}`
	for _, c := range []struct{ name, text, want string }{
		{"width", sys + `{{printf "%0999999d" 1}}`, "width and precision are at most 16384"},
		{"precision", sys + `{{printf "%.999999f" 1.5}}`, "width and precision are at most 16384"},
		{"width from an argument", sys + `{{printf "%0*d" 200000000 1}}`, "widths from arguments"},
		{"argument index", sys + `{{$x := printf "%09000d" 1}}{{printf "%[1]s%[1]s%[1]s" $x}}`, "argument indexes"},
		{"print of many strings", sys + `{{$x := printf "%09000d" 1}}{{print $x $x $x $x $x $x $x $x $x $x $x $x}}`, "would build a text of at least 108000 bytes"},
		{"join", sys + `{{$x := printf "%09000d" 1}}{{join (slice .LastCloses 0 0) $x}}ok`, ""},
		{"verbs that add up", sys + `{{$x := printf "%09000d" 1}}{{printf "%s%s%s" $x $x $x}}`, "at most 16384"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			err := CheckTemplate(c.text)
			runtime.ReadMemStats(&after)
			if c.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			te, ok := err.(*TemplateError)
			if !ok || !strings.Contains(te.Message, c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
				t.Errorf("checking it allocated %d MB", grew>>20)
			}
		})
	}
}
