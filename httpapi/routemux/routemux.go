// Package routemux mounts routes on a Go http.ServeMux, including patterns
// the ServeMux refuses together: two patterns that match some request in
// common with neither more specific, such as
//
//	POST /api/strategy/{name}/enable
//	POST /api/strategy/ai-analyze/{symbol}
//
// (both match /api/strategy/ai-analyze/enable). ServeMux panics on
// registering the second; an API whose operations each have their own path
// needs both. Such patterns are mounted as one pattern of their common
// shape whose handler chooses among them by the rule ServeMux itself uses
// where it can decide, extended to every case: at the leftmost path segment
// where two matching patterns differ, the literal beats the wildcard. The
// chosen pattern's path values and r.Pattern are set as ServeMux would.
//
// Only simple patterns are grouped ("METHOD /a/{b}/c": a method, no host,
// no {x...}, {$} or trailing slash); anything else goes to the ServeMux as
// it is, conflicts and all.
package routemux

import (
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// Entry is one pattern and its handler.
type Entry struct {
	Pattern string
	Handler http.Handler
}

// Mount registers entries on mux, grouping those that conflict (see the
// package comment). notFound answers a request that matches a group's
// shape but none of its patterns.
func Mount(mux *http.ServeMux, entries []Entry, notFound http.Handler) {
	parsed := make([]*pattern, len(entries))
	for i, e := range entries {
		parsed[i] = parse(e.Pattern)
	}
	// Union the conflicting simple patterns into groups.
	parent := make([]int, len(entries))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	for i := range parsed {
		for j := i + 1; j < len(parsed); j++ {
			if parsed[i] != nil && parsed[j] != nil && conflict(parsed[i], parsed[j]) {
				parent[find(j)] = find(i)
			}
		}
	}
	members := map[int][]int{}
	for i := range entries {
		r := find(i)
		members[r] = append(members[r], i)
	}
	for i, e := range entries {
		m := members[find(i)]
		if len(m) == 1 {
			mux.Handle(e.Pattern, e.Handler)
			continue
		}
		if m[0] != i {
			continue // the group is mounted at its first member
		}
		g := &group{notFound: notFound}
		for _, k := range m {
			g.members = append(g.members, member{p: parsed[k], h: entries[k].Handler})
		}
		sort.SliceStable(g.members, func(a, b int) bool { return moreSpecific(g.members[a].p, g.members[b].p) })
		mux.Handle(g.shape(), g)
	}
}

// Resolve is the handler and pattern mux chooses for r, looking inside a
// group to the member pattern that would serve it ("" when none).
func Resolve(mux *http.ServeMux, r *http.Request) (http.Handler, string) {
	h, p := mux.Handler(r)
	if g, ok := h.(*group); ok {
		if m, _ := g.match(r); m != nil {
			return m.h, m.p.raw
		}
		return g.notFound, ""
	}
	return h, p
}

// pattern is a simple pattern: its method and segments, a wildcard
// segment being its name in braces.
type pattern struct {
	raw    string
	method string
	segs   []string
}

func parse(raw string) *pattern {
	method, path, ok := strings.Cut(raw, " ")
	if !ok || method == "" || !strings.HasPrefix(path, "/") || strings.HasSuffix(path, "/") {
		return nil
	}
	segs := strings.Split(path[1:], "/")
	for _, s := range segs {
		if s == "" || strings.Contains(s, "...") || s == "{$}" {
			return nil
		}
		if strings.ContainsAny(s, "{}") && !wild(s) {
			return nil // a partial wildcard ServeMux refuses anyway
		}
	}
	return &pattern{raw: raw, method: method, segs: segs}
}

func wild(seg string) bool {
	return len(seg) > 2 && seg[0] == '{' && seg[len(seg)-1] == '}'
}

// conflict is ServeMux's refusal: the same method and length, a request in
// common, and neither more specific.
func conflict(a, b *pattern) bool {
	if a.method != b.method || len(a.segs) != len(b.segs) {
		return false
	}
	aMore, bMore := true, true
	for i := range a.segs {
		x, y := a.segs[i], b.segs[i]
		switch {
		case !wild(x) && !wild(y):
			if x != y {
				return false // no request in common
			}
		case wild(x) && !wild(y):
			aMore = false
		case !wild(x) && wild(y):
			bMore = false
		}
	}
	return !aMore && !bMore
}

// moreSpecific orders a group: at the leftmost segment where one is a
// literal and the other a wildcard, the literal comes first.
func moreSpecific(a, b *pattern) bool {
	for i := range a.segs {
		if wa, wb := wild(a.segs[i]), wild(b.segs[i]); wa != wb {
			return !wa
		}
	}
	return false
}

type member struct {
	p *pattern
	h http.Handler
}

type group struct {
	members  []member
	notFound http.Handler
}

// shape is the one pattern the group takes on the ServeMux: the members'
// common literal segments, and a wildcard wherever they differ.
func (g *group) shape() string {
	first := g.members[0].p
	segs := make([]string, len(first.segs))
	for i := range segs {
		segs[i] = first.segs[i]
		for _, m := range g.members {
			if m.p.segs[i] != first.segs[i] || wild(m.p.segs[i]) {
				segs[i] = "{routemux" + strconv.Itoa(i) + "}"
				break
			}
		}
	}
	return first.method + " /" + strings.Join(segs, "/")
}

// match is the first (most specific) member matching r's path, with its
// path values.
func (g *group) match(r *http.Request) (*member, map[string]string) {
	raw := strings.Split(strings.TrimPrefix(r.URL.EscapedPath(), "/"), "/")
	segs := make([]string, len(raw))
	for i, s := range raw {
		u, err := url.PathUnescape(s)
		if err != nil {
			return nil, nil
		}
		segs[i] = u
	}
	for k := range g.members {
		m := &g.members[k]
		if len(m.p.segs) != len(segs) {
			continue
		}
		vals := map[string]string{}
		matched := true
		for i, s := range m.p.segs {
			switch {
			case wild(s):
				if segs[i] == "" {
					matched = false
				}
				vals[s[1:len(s)-1]] = segs[i]
			case s != segs[i]:
				matched = false
			}
			if !matched {
				break
			}
		}
		if matched {
			return m, vals
		}
	}
	return nil, nil
}

func (g *group) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m, vals := g.match(r)
	if m == nil {
		g.notFound.ServeHTTP(w, r)
		return
	}
	for k, v := range vals {
		r.SetPathValue(k, v)
	}
	r.Pattern = m.p.raw
	m.h.ServeHTTP(w, r)
}
