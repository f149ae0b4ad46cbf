package ai

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// The shipped template's text, as the editor starts from it, is a valid
// custom template that renders exactly what the shipped one does: same
// messages, same hash, so answers recorded under v2 replay under a copy.
func TestShippedTextAsCustomRendersTheSame(t *testing.T) {
	text, err := ShippedTemplate(TemplateVersion)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text, "Change the wording only") || !strings.HasPrefix(text, `{{define "system"`) {
		t.Fatalf("the file's comment is kept:\n%s", text)
	}
	if err := CheckTemplate(text); err != nil {
		t.Fatal(err)
	}
	r := SampleRequest()
	shipped, err := Render(r)
	if err != nil {
		t.Fatal(err)
	}
	r.PromptTemplate = text
	own, err := Render(r)
	if err != nil {
		t.Fatal(err)
	}
	if own.Prompt != shipped.Prompt || own.System != shipped.System || own.Hash != shipped.Hash || own.Hash != HashPrompt(own.Prompt) {
		t.Errorf("a copy of v2 renders differently:\n%+v\n%+v", own, shipped)
	}
	if own.Version != shipped.Version { // an untouched copy is the shipped version, not a custom one
		t.Errorf("version %q, want %q", own.Version, shipped.Version)
	}
	if v := CustomVersion(text + "\n"); !strings.HasPrefix(v, "custom:") || len(v) != len("custom:")+12 {
		t.Errorf("custom version %q", v)
	}
	if _, err := ShippedTemplate("v9"); err == nil {
		t.Error("an unknown version has a text")
	}
}

// A custom template renders both messages with the request's data; a
// system message of its own is part of the hash, so answers recorded
// under another system message are not replayed for it.
func TestCustomTemplateRenders(t *testing.T) {
	r := SampleRequest()
	r.PromptTemplate = `{{define "system"}}You trade {{.Base}} only.{{end}}{{.Symbol}} at {{.Price}}; RSI {{range .Indicators}}{{if eq .Name "rsi"}}{{.Value}}{{end}}{{end}}`
	m, err := Render(r)
	if err != nil {
		t.Fatal(err)
	}
	if m.System != "You trade BTC only.\n" || m.Prompt != "BTC-USD at 103; RSI 55.00\n" {
		t.Fatalf("rendered %+v", m)
	}
	if m.Hash == HashPrompt(m.Prompt) {
		t.Error("a custom system message is not part of the hash")
	}
	if p, _ := RenderPrompt(r); p != m.Prompt {
		t.Errorf("RenderPrompt %q, Render %q", p, m.Prompt)
	}
}

func TestCheckTemplateErrors(t *testing.T) {
	sys := `{{define "system"}}s{{end}}`
	for _, c := range []struct {
		name, text     string
		line, col      int
		want           string
		wantNoInternal bool
	}{
		{name: "syntax", text: sys + "\nok\n{{.Symbol", line: 3, want: "unclosed action"},
		{name: "unknown field", text: sys + "\n\n{{.Symbol}} {{.NoSuchField}}", line: 3, col: 15, want: "can't evaluate field NoSuchField", wantNoInternal: true},
		{name: "missing system block", text: "{{.Symbol}}", want: "No system block"},
		{name: "unknown function", text: sys + "{{nosuch .Symbol}}", line: 1, want: `function "nosuch" not defined`},
		{name: "fails on empty data", text: sys + "{{index .Indicators 3}}", line: 1, want: "index out of range"},
		{name: "empty prompt", text: sys + "  \n", want: "empty prompt"},
		{name: "template call", text: sys + "\n {{template \"system\"}}", line: 2, want: "{{template}} and {{block}} are not allowed"},
		{name: "block", text: `{{block "system" .}}s{{end}}x`, line: 1, want: "not allowed"},
		{name: "range over a number", text: sys + "{{range 100000000}}{{end}}x", line: 1, want: "only go over one of the data's lists"},
		{name: "range over a variable", text: sys + "{{$n := 5}}{{range $n}}{{end}}x", want: "only go over"},
		{name: "nested range", text: sys + "{{range .Indicators}}{{range $.LastCloses}}{{end}}{{end}}", want: "inside another range"},
		{name: "too long", text: sys + strings.Repeat("x", MaxTemplateBytes), want: "at most 16384"},
		{name: "renders too much", text: sys + `{{range .Indicators}}{{printf "%09000d" 1}}{{end}}`, want: "longer than 32768 bytes"},
		{name: "a string that doubles", text: sys + `{{$x := printf "%09000d" 1}}{{$x = print $x $x}}{{$x = print $x $x}}{{len $x}}`, want: "at most 16384"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := CheckTemplate(c.text)
			te, ok := err.(*TemplateError)
			if !ok {
				t.Fatalf("error %v (%T), want a *TemplateError", err, err)
			}
			if !strings.Contains(te.Message, c.want) || (c.line != 0 && te.Line != c.line) || (c.col != 0 && te.Column != c.col) {
				t.Errorf("got %+v, want %q at %d:%d", te, c.want, c.line, c.col)
			}
			if c.wantNoInternal && (strings.Contains(te.Message, "ai.") || strings.Contains(te.Message, "template:")) {
				t.Errorf("the message names internals: %q", te.Message)
			}
		})
	}
}

// A template that loops as far as the bounds allow still renders quickly.
func TestBoundedTemplateIsQuick(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{{define "system"}}s{{end}}{{range .Indicators}}`)
	for b.Len() < MaxTemplateBytes-200 {
		b.WriteString(`{{$x := printf "%0900d" 1}}`)
	}
	b.WriteString(`{{end}}ok`)
	start := time.Now()
	if err := CheckTemplate(b.String()); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("checking took %v", d)
	}
}

// The editor's list of fields is promptData's.
func TestTemplateFieldsArePromptData(t *testing.T) {
	var want []string
	for _, f := range reflect.VisibleFields(reflect.TypeFor[promptData]()) {
		want = append(want, "."+f.Name)
	}
	var got []string
	for _, f := range TemplateFields {
		got = append(got, f.Name)
	}
	if len(got) != len(want) {
		t.Fatalf("fields %v, promptData has %v", got, want)
	}
	for _, w := range want {
		found := false
		for _, g := range got {
			found = found || g == w
		}
		if !found {
			t.Errorf("%s is not listed", w)
		}
	}
}
