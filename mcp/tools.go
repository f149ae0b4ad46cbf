package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"sort"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"kestrel/domain"
)

type tool struct {
	tool *sdk.Tool
	call sdk.ToolHandler
}

type oaParam struct {
	Name        string          `json:"name"`
	In          string          `json:"in"`
	Required    bool            `json:"required"`
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
}

type oaOperation struct {
	OperationID string    `json:"operationId"`
	Summary     string    `json:"summary"`
	Parameters  []oaParam `json:"parameters"`
	RequestBody *struct {
		Required bool `json:"required"`
		Content  map[string]struct {
			Schema json.RawMessage `json:"schema"`
		} `json:"content"`
	} `json:"requestBody"`
}

var schemaRef = regexp.MustCompile(`"#/components/schemas/([A-Za-z0-9_]+)"`)

// tools makes a tool of every operation in the description whose route
// tokens may call.
func (c Config) tools() ([]tool, error) {
	var doc struct {
		Paths      map[string]map[string]oaOperation `json:"paths"`
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(c.OpenAPI, &doc); err != nil {
		return nil, err
	}
	var out []tool
	for _, r := range c.Routes {
		if r.Token == "" {
			continue
		}
		op, ok := doc.Paths[r.Path][strings.ToLower(r.Method)]
		if !ok || op.OperationID == "" {
			return nil, fmt.Errorf("%s %s has no operationId", r.Method, r.Path)
		}
		schema, err := toolSchema(op, doc.Components.Schemas)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op.OperationID, err)
		}
		desc := op.Summary + " (" + r.Method + " " + r.Path + "; token scope: " + scopesFor(r.Token) + ")"
		out = append(out, tool{
			tool: &sdk.Tool{Name: op.OperationID, Description: desc, InputSchema: schema},
			call: c.toolCall(r.Method, r.Path, op),
		})
	}
	return out, nil
}

func scopesFor(use string) string {
	switch use {
	case "read":
		return "read, paper or trade"
	case "trade":
		return "trade, or paper on the sandbox"
	}
	return "paper or trade"
}

// toolSchema is the tool's input: the operation's path and query parameters
// by name and its JSON body as "body", with the schemas it refers to inlined
// under $defs.
func toolSchema(op oaOperation, components map[string]json.RawMessage) (json.RawMessage, error) {
	props := map[string]json.RawMessage{}
	required := []string{}
	for _, p := range op.Parameters {
		if p.In != "path" && p.In != "query" {
			continue
		}
		sch := map[string]any{}
		if len(p.Schema) > 0 {
			if err := json.Unmarshal(p.Schema, &sch); err != nil {
				return nil, err
			}
		}
		if p.Description != "" {
			sch["description"] = p.Description
		}
		b, _ := json.Marshal(sch)
		props[p.Name] = b
		if p.Required || p.In == "path" {
			required = append(required, p.Name)
		}
	}
	if op.RequestBody != nil {
		if c, ok := op.RequestBody.Content["application/json"]; ok && len(c.Schema) > 0 {
			props["body"] = c.Schema
			if op.RequestBody.Required {
				required = append(required, "body")
			}
		}
	}
	sort.Strings(required)
	root := map[string]any{"type": "object", "properties": props, "required": required}
	raw, err := json.Marshal(root)
	if err != nil {
		return nil, err
	}
	// Inline every schema the input refers to, transitively.
	defs := map[string]json.RawMessage{}
	pending := [][]byte{raw}
	for len(pending) > 0 {
		cur := pending[0]
		pending = pending[1:]
		for _, m := range schemaRef.FindAllSubmatch(cur, -1) {
			name := string(m[1])
			if _, done := defs[name]; done {
				continue
			}
			def, ok := components[name]
			if !ok {
				return nil, fmt.Errorf("unknown schema %s", name)
			}
			defs[name] = def
			pending = append(pending, def)
		}
	}
	if len(defs) > 0 {
		root["$defs"] = defs
		if raw, err = json.Marshal(root); err != nil {
			return nil, err
		}
	}
	return schemaRef.ReplaceAll(raw, []byte(`"#/$$defs/$1"`)), nil
}

// toolCall replays a tool call as its REST request with the caller's
// credentials and answers the response's JSON envelope; an error answer
// (4xx, 5xx) is a tool error carrying the same envelope.
func (c Config) toolCall(method, pattern string, op oaOperation) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		args := map[string]json.RawMessage{}
		if len(req.Params.Arguments) > 0 {
			if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
				return c.toolError(&domain.Error{Code: domain.EInvalid, Message: "The arguments must be a JSON object"}), nil
			}
		}
		path, query := pattern, url.Values{}
		for _, p := range op.Parameters {
			v, ok := args[p.Name]
			if !ok {
				if p.In == "path" {
					// A tool error, as the REST answer would be: the
					// model reads it and calls again (a protocol error
					// would end the call without a word it can use).
					return c.toolError(&domain.Error{Code: domain.EInvalid, Message: "Missing required argument " + p.Name,
						Fields: map[string]string{p.Name: "Required"}}), nil
				}
				continue
			}
			text := argText(v)
			switch p.In {
			case "path":
				path = strings.Replace(path, "{"+p.Name+"}", url.PathEscape(text), 1)
			case "query":
				query.Set(p.Name, text)
			}
		}
		if len(query) > 0 {
			path += "?" + query.Encode()
		}
		var body io.Reader = http.NoBody
		if b, ok := args["body"]; ok {
			body = bytes.NewReader(b)
		}
		inner, err := http.NewRequestWithContext(ctx, method, path, body)
		if err != nil {
			return nil, err
		}
		if req.Extra != nil {
			inner.Header.Set("Authorization", req.Extra.Header.Get("Authorization"))
			inner.Header.Set("User-Agent", req.Extra.Header.Get("User-Agent"))
		}
		inner.Header.Set("Content-Type", "application/json")
		inner.RemoteAddr = "mcp"
		if req.Extra != nil && req.Extra.Header.Get(remoteHeader) != "" {
			inner.RemoteAddr = net.JoinHostPort(req.Extra.Header.Get(remoteHeader), "0")
		}
		rec := httptest.NewRecorder()
		// The one handler chain every request goes through: the same
		// concurrency slots, urgent lane and request timeout as REST.
		c.API().ServeHTTP(rec, inner)
		return &sdk.CallToolResult{
			Content: []sdk.Content{&sdk.TextContent{Text: rec.Body.String()}},
			IsError: rec.Code >= 400,
		}, nil
	}
}

// toolError is a tool result carrying the error envelope a REST call
// would have answered.
func (c Config) toolError(e *domain.Error) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(c.ErrorJSON(e))}}, IsError: true}
}

// argText is a parameter's value as it goes in a path or query: a JSON
// string unquoted, anything else as written.
func argText(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(v)
}
