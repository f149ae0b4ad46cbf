package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	"kestrel/backtest"
	"kestrel/domain"
)

// One credential holds 16 sessions, one address 64 (an IPv6 address by its
// /64); a release makes room once, however often it is called.
func TestSessionCaps(t *testing.T) {
	var c sessionCount
	var releases []func()
	for i := range 16 {
		r, err := c.reserve("tok", "2001:db8::1")
		if err != nil {
			t.Fatalf("session %d: %v", i+1, err)
		}
		releases = append(releases, r)
	}
	if _, err := c.reserve("tok", "10.0.0.1"); domain.ErrorCode(err) != domain.ETooMany || !strings.Contains(domain.ErrorMessage(err), "16 MCP sessions") {
		t.Fatalf("17th session of one credential: %v", err)
	}
	releases[0]()
	releases[0]()
	if _, err := c.reserve("tok", "10.0.0.1"); err != nil {
		t.Fatalf("after a release: %v", err)
	}
	if _, err := c.reserve("tok", "10.0.0.1"); err == nil {
		t.Fatal("a second release of the same session made room twice")
	}
	for i := range 49 { // 15 live from 2001:db8::/64 already
		if _, err := c.reserve(string(rune('a'+i)), "2001:db8::ffff"); err != nil {
			t.Fatalf("address session %d: %v", 16+i, err)
		}
	}
	if _, err := c.reserve("other", "2001:db8::2"); domain.ErrorCode(err) != domain.ETooMany || !strings.Contains(domain.ErrorMessage(err), "This address already has 64") {
		t.Fatalf("65th session of one /64: %v", err)
	}
}

// A tool's input: path and query parameters by name, the body as "body",
// the schemas it refers to inlined under $defs (transitively).
func TestToolSchemaInlinesItsSchemas(t *testing.T) {
	op := oaOperation{Parameters: []oaParam{{Name: "id", In: "path", Schema: json.RawMessage(`{"type":"string"}`)},
		{Name: "limit", In: "query", Description: "At most", Schema: json.RawMessage(`{"type":"integer"}`)}}}
	op.RequestBody = &struct {
		Required bool `json:"required"`
		Content  map[string]struct {
			Schema json.RawMessage `json:"schema"`
		} `json:"content"`
	}{Required: true}
	op.RequestBody.Content = map[string]struct {
		Schema json.RawMessage `json:"schema"`
	}{"application/json": {Schema: json.RawMessage(`{"$ref":"#/components/schemas/A"}`)}}
	comps := map[string]json.RawMessage{"A": json.RawMessage(`{"properties":{"b":{"$ref":"#/components/schemas/B"}}}`), "B": json.RawMessage(`{"type":"string"}`)}
	raw, err := toolSchema(op, comps)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Required []string                   `json:"required"`
		Props    map[string]json.RawMessage `json:"properties"`
		Defs     map[string]json.RawMessage `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Required, ",") != "body,id" || len(got.Props) != 3 || len(got.Defs) != 2 ||
		!strings.Contains(string(raw), `"#/$defs/A"`) || strings.Contains(string(raw), "#/components/") {
		t.Fatalf("schema %s", raw)
	}
	if _, err := toolSchema(oaOperation{RequestBody: op.RequestBody}, map[string]json.RawMessage{}); err == nil {
		t.Fatal("an unknown schema was accepted")
	}
}

// The backtest rules resource is its package's documentation, as text.
func TestPackageDoc(t *testing.T) {
	text, err := packageDoc(backtest.DocSource)
	if err != nil || !strings.HasPrefix(text, "Package backtest") {
		t.Fatalf("%v %.40q", err, text)
	}
}
