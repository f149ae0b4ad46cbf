package research

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// MaxTrials caps the trials of one sweep (a grid's combinations, or a
// random search's trials): 5,000 trials of a year of hourly candles is
// under a minute of both cores, and each stored trial is about 1 KB.
const MaxTrials = 5000

// Range is a random search's dimension: values min, min+step, ... up to max.
type Range struct {
	Min  decimal.Decimal `json:"min"`
	Max  decimal.Decimal `json:"max"`
	Step decimal.Decimal `json:"step"`
}

// point is one trial's values by search-space name, in the names' order.
type point []json.RawMessage

// names returns the search space's parameter names, sorted.
func names[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// checkName refuses a name that is not a dotted path of JSON keys, or one a
// sweep cannot vary (see the package doc).
func checkName(n string) string {
	parts := strings.Split(n, ".")
	for _, p := range parts {
		if p == "" {
			return "A parameter is a dotted path into the strategy's configuration, such as indicators.rsi_period"
		}
	}
	switch parts[0] {
	case "name", "type":
		return "A sweep cannot change the strategy's " + parts[0]
	case "timeframe", "symbols":
		return "A sweep runs one timeframe and one symbol: set " + parts[0] + " in params, not in the search space"
	}
	return ""
}

// grid expands a grid into every combination, the last name varying fastest.
func grid(g map[string][]json.RawMessage) ([]string, []point, map[string]string) {
	ns := names(g)
	f := map[string]string{}
	total := 1
	for _, n := range ns {
		if m := checkName(n); m != "" {
			f["grid."+n] = m
			continue
		}
		if len(g[n]) == 0 {
			f["grid."+n] = "Give at least one value"
			continue
		}
		for _, v := range g[n] {
			var x any
			if err := json.Unmarshal(v, &x); err != nil {
				f["grid."+n] = "Values must be JSON values"
			}
			switch x.(type) {
			case map[string]any, []any:
				f["grid."+n] = "Each value is a number, string or boolean (name nested keys with a dotted path)"
			}
		}
		total *= len(g[n])
		if total > MaxTrials {
			f["grid"] = fmt.Sprintf("The grid has more than %d combinations (the most trials a sweep may run)", MaxTrials)
			return ns, nil, f
		}
	}
	if len(f) > 0 {
		return ns, nil, f
	}
	pts := []point{{}}
	for _, n := range ns {
		next := make([]point, 0, len(pts)*len(g[n]))
		for _, p := range pts {
			for _, v := range g[n] {
				next = append(next, append(append(point{}, p...), v))
			}
		}
		pts = next
	}
	return ns, pts, nil
}

// random draws trials distinct points of the ranges with the seed's
// generator (the same seed, the same trials); fewer when the space holds
// fewer.
func random(rs map[string]Range, trials int, seed uint64) ([]string, []point, map[string]string) {
	ns := names(rs)
	f := map[string]string{}
	steps := make([]int64, len(ns))
	space := int64(1)
	for i, n := range ns {
		r := rs[n]
		switch {
		case checkName(n) != "":
			f["random."+n] = checkName(n)
		case !r.Step.IsPositive():
			f["random."+n] = "step must be greater than 0"
		case r.Max.LessThan(r.Min):
			f["random."+n] = "max must not be below min"
		default:
			k := r.Max.Sub(r.Min).Div(r.Step).Floor()
			if k.GreaterThan(decimal.NewFromInt(MaxTrials * 1000)) {
				f["random."+n] = "Too many steps between min and max: take a larger step"
				continue
			}
			steps[i] = k.IntPart() + 1
			space = min(space*steps[i], int64(MaxTrials)*1000)
		}
	}
	switch {
	case trials <= 0:
		f["trials"] = "A random search needs trials greater than 0"
	case trials > MaxTrials:
		f["trials"] = fmt.Sprintf("At most %d trials per sweep", MaxTrials)
	}
	if len(f) > 0 {
		return ns, nil, f
	}
	trials = int(min(int64(trials), space))
	rng := rand.New(rand.NewPCG(seed, 0x6b657374))
	seen := map[string]bool{}
	pts := make([]point, 0, trials)
	for len(pts) < trials {
		p := make(point, len(ns))
		key := make([]byte, 0, 8*len(ns))
		for i, n := range ns {
			k := rng.Int64N(steps[i])
			v := rs[n].Min.Add(rs[n].Step.Mul(decimal.NewFromInt(k)))
			p[i] = json.RawMessage(v.String())
			key = fmt.Appendf(key, "%d,", k)
		}
		if seen[string(key)] {
			continue
		}
		seen[string(key)] = true
		pts = append(pts, p)
	}
	return ns, pts, nil
}

// overrides merges a point into the base overrides, in the strategy
// config's shape: indicators.rsi_period=7 sets {"indicators":{"rsi_period":7}}.
func overrides(base json.RawMessage, ns []string, p point) (json.RawMessage, json.RawMessage, error) {
	root := map[string]any{}
	if len(base) > 0 && string(base) != "null" {
		if err := json.Unmarshal(base, &root); err != nil || root == nil {
			return nil, nil, domain.FieldErrors(map[string]string{"params": "Parameter overrides must be a JSON object"}, "params")
		}
	}
	vals := make(map[string]json.RawMessage, len(ns))
	for i, n := range ns {
		vals[n] = p[i]
		parts := strings.Split(n, ".")
		m := root
		for _, k := range parts[:len(parts)-1] {
			next, ok := m[k].(map[string]any)
			if !ok {
				next = map[string]any{}
				m[k] = next
			}
			m = next
		}
		m[parts[len(parts)-1]] = p[i]
	}
	params, err := json.Marshal(root)
	if err != nil {
		return nil, nil, err
	}
	v, err := json.Marshal(vals)
	return params, v, err
}
