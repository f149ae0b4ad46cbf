// Package docs holds no code: its test checks that every relative link in
// README.md and docs/*.md names a file that exists and, with a #fragment, a
// heading (or id) that the target renders, so moved sections leave no dead links.
package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

var (
	linkRE   = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	codeRE   = regexp.MustCompile("`[^`]*`")
	headRE   = regexp.MustCompile(`^#{1,6}\s+(.+?)\s*#*\s*$`)
	idAttrRE = regexp.MustCompile(`(?:id|name)="([^"]+)"`)
)

func TestRelativeLinksResolve(t *testing.T) {
	files, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join("..", "README.md"))
	anchors := map[string]map[string]bool{}
	checked := 0
	for _, file := range files {
		for _, l := range links(t, file) {
			if strings.Contains(l.target, "://") || strings.HasPrefix(l.target, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(l.target, "#")
			target := file
			if path != "" {
				target = filepath.Join(filepath.Dir(file), path)
				if _, err := os.Stat(target); err != nil {
					t.Errorf("%s:%d: %s: no such file", file, l.line, l.target)
					continue
				}
			}
			checked++
			if frag == "" {
				continue
			}
			if !strings.HasSuffix(target, ".md") {
				t.Errorf("%s:%d: %s: a fragment into a file that is not Markdown", file, l.line, l.target)
				continue
			}
			if anchors[target] == nil {
				anchors[target] = headingAnchors(t, target)
			}
			if !anchors[target][frag] {
				t.Errorf("%s:%d: %s: %s has no heading #%s", file, l.line, l.target, target, frag)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative links found: the test reads the wrong files")
	}
}

type link struct {
	target string
	line   int
}

// links lists the Markdown links outside code blocks and code spans.
func links(t *testing.T, file string) []link {
	var out []link
	fenced := false
	for i, line := range readLines(t, file) {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		for _, m := range linkRE.FindAllStringSubmatch(codeRE.ReplaceAllString(line, ""), -1) {
			out = append(out, link{m[1], i + 1})
		}
	}
	return out
}

// headingAnchors gives the fragments a file's headings render to, as the
// repository host makes them: lower case, punctuation dropped, spaces to
// hyphens, repeats numbered.
func headingAnchors(t *testing.T, file string) map[string]bool {
	seen := map[string]int{}
	out := map[string]bool{}
	fenced := false
	for _, line := range readLines(t, file) {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		for _, m := range idAttrRE.FindAllStringSubmatch(line, -1) {
			out[m[1]] = true
		}
		m := headRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		slug := slugify(m[1])
		if n := seen[slug]; n > 0 {
			out[slug+"-"+strconv.Itoa(n)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	return out
}

func slugify(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case unicode.IsLetter(r) || unicode.IsNumber(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

func readLines(t *testing.T, file string) []string {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(data), "\n")
}
