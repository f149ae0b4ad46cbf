// Package metricstest checks a /metrics scrape against the Prometheus
// conventions Kestrel follows. Only tests import it, so the parser and the
// linter stay out of the binary.
package metricstest

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/prometheus/client_golang/prometheus/testutil/promlint"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Parse reads a scrape in the text exposition format with Prometheus's own
// parser (legacy names: the format every scraper reads).
func Parse(r io.Reader) (map[string]*dto.MetricFamily, error) {
	p := expfmt.NewTextParser(model.LegacyValidation)
	return p.TextToMetricFamilies(r)
}

// kestrelName is the shape of every metric Kestrel defines.
var kestrelName = regexp.MustCompile(`^kestrel_[a-z0-9_]+$`)

// runtimeName matches the client library's Go runtime and process
// collectors: their names are not ours to choose, so only the generic rules
// (and promlint) apply to them.
var runtimeName = regexp.MustCompile(`^(go|process)_`)

// measures maps a word naming a measured quantity to the base unit a name
// that uses it must end in (before _total on a counter).
var measures = map[string]string{
	"duration": "seconds", "latency": "seconds", "age": "seconds", "lag": "seconds", "elapsed": "seconds", "uptime": "seconds",
	"size": "bytes", "memory": "bytes",
}

// nonBase are unit words (and abbreviations) a name must not use: Prometheus
// names carry base units only.
var nonBase = map[string]string{
	"ms": "seconds", "millis": "seconds", "milliseconds": "seconds", "us": "seconds", "microseconds": "seconds",
	"ns": "seconds", "nanoseconds": "seconds", "secs": "seconds", "sec": "seconds", "minutes": "seconds", "hours": "seconds", "days": "seconds",
	"kb": "bytes", "mb": "bytes", "gb": "bytes", "kib": "bytes", "mib": "bytes", "gib": "bytes", "kilobytes": "bytes", "megabytes": "bytes", "bits": "bytes",
}

// Problems parses a scrape and returns every convention it breaks, sorted,
// one line each ("name: problem"); an error when it does not parse.
func Problems(scrape []byte) ([]string, error) {
	fams, err := Parse(bytes.NewReader(scrape))
	if err != nil {
		return nil, fmt.Errorf("parse the scrape: %w", err)
	}
	var out []string
	all := make([]*dto.MetricFamily, 0, len(fams))
	for name, f := range fams {
		all = append(all, f)
		for _, p := range familyProblems(f) {
			out = append(out, name+": "+p)
		}
	}
	lint, err := promlint.NewWithMetricFamilies(all).Lint()
	if err != nil {
		return nil, fmt.Errorf("promlint: %w", err)
	}
	for _, p := range lint {
		out = append(out, p.Metric+": promlint: "+p.Text)
	}
	sort.Strings(out)
	return out, nil
}

// familyProblems checks one family: name shape, help, _total exactly on
// counters, and units.
func familyProblems(f *dto.MetricFamily) []string {
	name, typ := f.GetName(), f.GetType()
	var out []string
	if !runtimeName.MatchString(name) && !kestrelName.MatchString(name) {
		out = append(out, "name does not match "+kestrelName.String())
	}
	if strings.TrimSpace(f.GetHelp()) == "" {
		out = append(out, "no help text")
	}
	counter := typ == dto.MetricType_COUNTER
	if total := strings.HasSuffix(name, "_total"); counter && !total {
		out = append(out, "a counter's name must end in _total")
	} else if !counter && total {
		out = append(out, "a "+strings.ToLower(typ.String())+" must not end in _total (only counters do)")
	}
	if runtimeName.MatchString(name) {
		return out
	}
	return append(out, unitProblems(name, counter)...)
}

// unitProblems: a name that measures time or size ends in its base unit, and
// no name uses a non-base unit.
func unitProblems(name string, counter bool) []string {
	words := strings.Split(name, "_")
	last := words[len(words)-1]
	if counter && last == "total" && len(words) > 1 {
		last = words[len(words)-2]
	}
	var out []string
	for _, w := range words {
		if base, ok := nonBase[w]; ok {
			out = append(out, fmt.Sprintf("unit %q is not a base unit: use %s", w, base))
		}
		if base, ok := measures[w]; ok && last != base {
			out = append(out, fmt.Sprintf("%q is measured in %s: the name must end in _%s", w, base, base))
		}
	}
	return out
}
