package ai

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"sync"
	"text/template"
)

// TemplateVersion names the prompt template in use (prompts/v1.tmpl).
const TemplateVersion = "v1"

//go:embed prompts/*.tmpl
var promptFiles embed.FS

// lastCloses is how many recent closes the prompt lists one by one.
const lastCloses = 5

var loadTemplate = sync.OnceValues(func() (*template.Template, error) {
	raw, err := promptFiles.ReadFile("prompts/" + TemplateVersion + ".tmpl")
	if err != nil {
		return nil, fmt.Errorf("prompt template %s: %w", TemplateVersion, err)
	}
	return parseTemplate(string(raw))
})

func parseTemplate(text string) (*template.Template, error) {
	t, err := template.New(TemplateVersion).Option("missingkey=error").
		Funcs(template.FuncMap{"join": strings.Join}).Parse(text)
	if err != nil {
		return nil, fmt.Errorf("prompt template %s: %w", TemplateVersion, err)
	}
	if t.Lookup("system") == nil {
		return nil, fmt.Errorf("prompt template %s: no system block", TemplateVersion)
	}
	return t, nil
}

// RenderPrompt renders the user prompt for r with the current template (the
// AI configuration screen previews it). A missing or broken template is an
// error; there is no fallback text.
func RenderPrompt(r Request) (string, error) {
	t, err := loadTemplate()
	if err != nil {
		return "", err
	}
	return execute(t, "", r)
}

// systemPrompt renders the template's system block.
func systemPrompt() (string, error) {
	t, err := loadTemplate()
	if err != nil {
		return "", err
	}
	return execute(t, "system", Request{})
}

func execute(t *template.Template, block string, r Request) (string, error) {
	var b bytes.Buffer
	var err error
	if block == "" {
		err = t.Execute(&b, newPromptData(r))
	} else {
		err = t.ExecuteTemplate(&b, block, newPromptData(r))
	}
	if err != nil {
		return "", fmt.Errorf("render prompt %s: %w", TemplateVersion, err)
	}
	return strings.TrimSpace(b.String()) + "\n", nil
}

// HashPrompt is the hex SHA-256 of a rendered prompt.
func HashPrompt(prompt string) string {
	sum := sha256.Sum256([]byte(prompt))
	return hex.EncodeToString(sum[:])
}

type namedValue struct{ Name, Value string }

// sortedIndicators lists indicators by name so the prompt (and its hash) is stable.
func sortedIndicators(m map[string]float64) []namedValue {
	out := make([]namedValue, 0, len(m))
	for k, v := range m {
		out = append(out, namedValue{k, num(v)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
