package ai

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"sync"
	"text/template"
)

// TemplateVersion names the prompt template new prompts use
// (prompts/v2.tmpl: v1 and the candles' width). Older versions still render
// when a request asks for them (Request.PromptVersion), so the decisions
// recorded with them stay replayable: a prompt's hash covers its text, and
// the text differs between versions.
const TemplateVersion = "v2"

// TemplateVersions lists the templates that render, oldest first. v3 is
// v2 with the trade memory section; without memory it renders v2's text
// byte for byte, yet v2 stays the default: a decision's template_version
// then changes only when the text the model reads does (turning memory on).
var TemplateVersions = []string{"v1", "v2", "v3"}

//go:embed prompts/*.tmpl
var promptFiles embed.FS

// lastCloses is how many recent closes the prompt lists one by one.
const lastCloses = 5

var loadTemplates = sync.OnceValues(func() (map[string]*template.Template, error) {
	out := map[string]*template.Template{}
	for _, v := range TemplateVersions {
		raw, err := promptFiles.ReadFile("prompts/" + v + ".tmpl")
		if err != nil {
			return nil, fmt.Errorf("prompt template %s: %w", v, err)
		}
		if out[v], err = parseTemplate(v, string(raw)); err != nil {
			return nil, err
		}
	}
	return out, nil
})

func parseTemplate(version, text string) (*template.Template, error) {
	t, err := newTemplate(version, nil).Parse(text)
	if err != nil {
		return nil, fmt.Errorf("prompt template %s: %w", version, err)
	}
	if t.Lookup("system") == nil {
		return nil, fmt.Errorf("prompt template %s: no system block", version)
	}
	return t, nil
}

// newTemplate is an empty template with the prompt's options and functions
// (funcs, when given, replace or add to join).
func newTemplate(name string, funcs template.FuncMap) *template.Template {
	t := template.New(name).Option("missingkey=error").Funcs(template.FuncMap{"join": strings.Join})
	if funcs != nil {
		t = t.Funcs(funcs)
	}
	return t
}

// PromptVersion is the template version r renders with: custom:<hash> for
// a request with its own template (the shipped version whose text it is,
// when it is one unchanged), else the shipped version it names.
func PromptVersion(r Request) string {
	if r.PromptTemplate != "" {
		if v, ok := shippedTexts()[r.PromptTemplate]; ok {
			return v
		}
		return CustomVersion(r.PromptTemplate)
	}
	if r.PromptVersion == "" && r.Memory != nil {
		return MemoryVersion
	}
	if r.PromptVersion == "" {
		return TemplateVersion
	}
	return r.PromptVersion
}

func templateFor(version string) (*template.Template, error) {
	ts, err := loadTemplates()
	if err != nil {
		return nil, err
	}
	t, ok := ts[version]
	if !ok {
		return nil, fmt.Errorf("unknown prompt template version %q", version)
	}
	return t, nil
}

// requestTemplate is the parsed template r renders with: its own, or the
// shipped version it names.
func requestTemplate(r Request) (*template.Template, error) {
	if r.PromptTemplate != "" {
		return customTemplate(r.PromptTemplate)
	}
	return templateFor(PromptVersion(r))
}

// Rendered is what a model is sent for one request.
type Rendered struct {
	System, Prompt string
	// Hash identifies the messages: backtests replay recorded answers by
	// it. It is Prompt's hash alone while the system message is the
	// shipped one (so every answer recorded before custom templates still
	// replays); a custom system message is hashed with the prompt, so an
	// answer given under another system message is never replayed as if
	// it were this one's.
	Hash    string
	Version string // v1, v2 or custom:<hash>
}

// Render renders both messages of r with its template.
func Render(r Request) (Rendered, error) {
	t, err := requestTemplate(r)
	if err != nil {
		return Rendered{}, err
	}
	prompt, err := execute(t, "", r)
	if err != nil {
		return Rendered{}, err
	}
	system, err := execute(t, "system", r)
	if err != nil {
		return Rendered{}, err
	}
	out := Rendered{System: system, Prompt: prompt, Hash: HashPrompt(prompt), Version: PromptVersion(r)}
	if shipped, err := shippedSystem(); err != nil {
		return Rendered{}, err
	} else if system != shipped {
		out.Hash = HashPrompt("system:\n" + system + "\nuser:\n" + prompt)
	}
	return out, nil
}

// RenderPrompt renders the user prompt for r with its template. A missing
// or broken template is an error; there is no fallback text.
func RenderPrompt(r Request) (string, error) {
	t, err := requestTemplate(r)
	if err != nil {
		return "", err
	}
	return execute(t, "", r)
}

// shippedSystem is the system message of the shipped templates (the same
// in every version).
var shippedSystem = sync.OnceValues(func() (string, error) {
	t, err := templateFor(TemplateVersion)
	if err != nil {
		return "", err
	}
	return execute(t, "system", Request{})
})

func execute(t *template.Template, block string, r Request) (string, error) {
	b := &boundedWriter{max: MaxRenderedBytes}
	var err error
	if block == "" {
		err = t.Execute(b, newPromptData(r))
	} else {
		err = t.ExecuteTemplate(b, block, newPromptData(r))
	}
	if err != nil {
		return "", fmt.Errorf("render prompt %s: %w", t.Name(), err)
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
