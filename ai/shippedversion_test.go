package ai

import (
	"strings"
	"testing"
)

// A template left as shipped is that version; one changed by a character
// is a custom one.
func TestAnUntouchedShippedTemplateIsItsVersion(t *testing.T) {
	for _, v := range TemplateVersions {
		text, err := ShippedTemplate(v)
		if err != nil {
			t.Fatal(err)
		}
		if got := PromptVersion(Request{PromptTemplate: text}); got != v {
			t.Errorf("the shipped %s as a template: version %q", v, got)
		}
		if got := PromptVersion(Request{PromptTemplate: text + " "}); !strings.HasPrefix(got, "custom:") {
			t.Errorf("the shipped %s changed: version %q, want custom:", v, got)
		}
	}
}
