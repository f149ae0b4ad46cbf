// Package openapitest checks HTTP responses against Kestrel's OpenAPI
// description. Only tests import it, so the validator stays out of the binary.
package openapitest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"kestrel/httpapi/openapi"
	"kestrel/httpapi/routemux"
)

// Operation is one method and path the description has.
type Operation struct {
	Method string
	Path   string
	// Access is the operation's x-access: public, signed-in or operator.
	Access string
	// Security names the schemes any one of which authenticates a call
	// (the operation's own list, else the document's); none: no credential.
	Security []string
}

// Doc is the loaded description with a router that matches requests the way
// the server's own mux does (Go's pattern rules, not a second router's).
type Doc struct {
	T   *openapi3.T
	mux *http.ServeMux
	ops map[string]*openapi3.Operation // by mux pattern
}

var (
	once   sync.Once
	loaded *Doc
	errL   error
)

// Load parses and validates the embedded description once per process.
func Load() (*Doc, error) {
	once.Do(func() { loaded, errL = load(openapi.JSON) })
	return loaded, errL
}

func load(raw []byte) (*Doc, error) {
	l := openapi3.NewLoader()
	t, err := l.LoadFromData(raw)
	if err != nil {
		return nil, fmt.Errorf("openapi: parse: %w", err)
	}
	if err := t.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("openapi: invalid description: %w", err)
	}
	d := &Doc{T: t, mux: http.NewServeMux(), ops: map[string]*openapi3.Operation{}}
	var entries []routemux.Entry
	for path, item := range t.Paths.Map() {
		for method, op := range item.Operations() {
			pattern := method + " " + path
			d.ops[pattern] = op
			entries = append(entries, routemux.Entry{Pattern: pattern, Handler: http.NotFoundHandler()})
		}
	}
	// Mounted as the server mounts its routes, so a request resolves to
	// the operation the server serves it with.
	routemux.Mount(d.mux, entries, http.NotFoundHandler())
	return d, nil
}

// Operations lists every described operation, sorted.
func (d *Doc) Operations() []Operation {
	var out []Operation
	for pattern, op := range d.ops {
		m, p, _ := strings.Cut(pattern, " ")
		acc, _ := op.Extensions["x-access"].(string)
		reqs := d.T.Security
		if op.Security != nil {
			reqs = *op.Security
		}
		var schemes []string
		for _, req := range reqs {
			for name := range req {
				schemes = append(schemes, name)
			}
		}
		sort.Strings(schemes)
		out = append(out, Operation{Method: m, Path: p, Access: acc, Security: schemes})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path+out[i].Method < out[j].Path+out[j].Method })
	return out
}

// Check validates one response to req against the operation the request
// matches. Requests that match no described operation are not checked here
// (the route table test makes sure every real route is described).
func (d *Doc) Check(req *http.Request, status int, header http.Header, body []byte) error {
	probe := req.Clone(context.Background())
	probe.Body = http.NoBody
	_, pattern := routemux.Resolve(d.mux, probe)
	op := d.ops[pattern]
	if op == nil {
		return nil
	}
	method, path, _ := strings.Cut(pattern, " ")
	route := &routers.Route{Spec: d.T, Path: path, PathItem: d.T.Paths.Value(path), Method: method, Operation: op}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: probe, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}},
		Status:  status,
		Header:  header,
		Body:    io.NopCloser(bytes.NewReader(body)),
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		return fmt.Errorf("%s %s -> %d does not match the OpenAPI description (%s): %v\nbody: %.600s", req.Method, req.URL.Path, status, pattern, err, body)
	}
	return nil
}

// TB is the part of testing.TB Checker needs.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// Check validates a response and reports a mismatch as a test error.
func Check(t TB, req *http.Request, status int, header http.Header, body []byte) {
	t.Helper()
	d, err := Load()
	if err != nil {
		t.Fatalf("%v", err)
	}
	if err := d.Check(req, status, header, body); err != nil {
		t.Errorf("%v", err)
	}
}

// CheckSchema validates a JSON document against one of the description's
// component schemas (a webhook's body against NotificationMessage).
func (d *Doc) CheckSchema(name string, body []byte) error {
	ref := d.T.Components.Schemas[name]
	if ref == nil || ref.Value == nil {
		return fmt.Errorf("openapi: no schema %s", name)
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	if err := ref.Value.VisitJSON(v, openapi3.MultiErrors()); err != nil {
		return fmt.Errorf("does not match %s: %v\nbody: %.600s", name, err, body)
	}
	return nil
}

// CheckSchema reports a document that breaks a component schema as a test error.
func CheckSchema(t TB, name string, body []byte) {
	t.Helper()
	d, err := Load()
	if err != nil {
		t.Fatalf("%v", err)
	}
	if err := d.CheckSchema(name, body); err != nil {
		t.Errorf("%v", err)
	}
}

// Answer is one recorded answer of the end-to-end run (e2e/lib/answers.mjs).
type Answer struct {
	Method  string            `json:"method"`
	URL     string            `json:"url"` // path and query
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
}

// CheckRecorded checks every answer recorded in dir's *.jsonl files against
// the description; it returns how many it checked and each mismatch.
func (d *Doc) CheckRecorded(dir string) (int, []error, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return 0, nil, err
	}
	n, seen := 0, map[string]bool{}
	var errs []error
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return n, errs, err
		}
		for i, line := range bytes.Split(raw, []byte("\n")) {
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			var a Answer
			if err := json.Unmarshal(line, &a); err != nil {
				return n, errs, fmt.Errorf("%s:%d: %v", f, i+1, err)
			}
			req := httptest.NewRequest(a.Method, a.URL, nil)
			h := http.Header{}
			for k, v := range a.Headers {
				h.Set(k, v)
			}
			n++
			if err := d.Check(req, a.Status, h, []byte(a.Body)); err != nil {
				// The same mismatch once, whatever the bodies it was seen in.
				key, _, _ := strings.Cut(err.Error(), "\nbody:")
				if !seen[key] {
					seen[key] = true
					errs = append(errs, err)
				}
			}
		}
	}
	return n, errs, nil
}
