package httpapi

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
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"kestrel/domain"
	"kestrel/httpapi/openapi"
)

// mcpRoute serves the MCP server at /mcp (Streamable HTTP). Its tools are
// generated from the OpenAPI description: one per operation API tokens may
// call (tokenscope.go), named by its operationId. A tool call is replayed as
// the REST request it stands for, with the caller's own bearer token, through
// the whole HTTP stack: the same authentication, scope check, gateway, risk
// check and audit log as a direct call. /mcp itself needs a valid session or
// API token of any scope.
func (s *Server) mcpRoute() {
	srv := mcp.NewServer(&mcp.Implementation{Name: "kestrel", Version: s.d.Build.Version}, nil)
	tools, err := s.mcpTools()
	if err != nil {
		panic("mcp tools from the OpenAPI description: " + err.Error()) // the embedded file is checked by tests
	}
	for _, t := range tools {
		srv.AddTool(t.tool, t.call)
	}
	if err := mcpResources(srv); err != nil {
		panic("mcp resources: " + err.Error()) // embedded files: the MCP test reads them
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		// Idle MCP sessions end (each request is authenticated anyway).
		SessionTimeout: 30 * time.Minute,
		// The SDK's DNS-rebinding guard refuses a loopback peer with
		// another Host: exactly the recommended TLS proxy on loopback. It
		// guards servers without credentials; /mcp needs a bearer token in
		// a header, which a rebound page cannot send.
		DisableLocalhostProtection: true,
	})
	s.mux.Handle("/mcp", s.requireAuthAs(tokenRead, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The tool calls see this request's header only: it carries the
		// client's address (a client's own value is replaced).
		r.Header.Set(mcpRemoteHeader, clientAddr(r))
		h.ServeHTTP(w, r)
	})))
}

// mcpRemoteHeader carries the MCP client's address to its tool calls (the
// audit log's remote of each replayed request).
const mcpRemoteHeader = "X-Kestrel-Mcp-Remote"

type mcpTool struct {
	tool *mcp.Tool
	call mcp.ToolHandler
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

// mcpTools makes a tool of every operation in the description whose route
// tokens may call.
func (s *Server) mcpTools() ([]mcpTool, error) {
	var doc struct {
		Paths      map[string]map[string]oaOperation `json:"paths"`
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openapi.JSON, &doc); err != nil {
		return nil, err
	}
	var out []mcpTool
	for _, r := range s.routes {
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
		out = append(out, mcpTool{
			tool: &mcp.Tool{Name: op.OperationID, Description: desc, InputSchema: schema},
			call: s.toolCall(r.Method, r.Path, op),
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
func (s *Server) toolCall(method, pattern string, op oaOperation) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := map[string]json.RawMessage{}
		if len(req.Params.Arguments) > 0 {
			if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
				return toolError(&domain.Error{Code: domain.EInvalid, Message: "The arguments must be a JSON object"}), nil
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
					return toolError(&domain.Error{Code: domain.EInvalid, Message: "Missing required argument " + p.Name,
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
		if req.Extra != nil && req.Extra.Header.Get(mcpRemoteHeader) != "" {
			inner.RemoteAddr = net.JoinHostPort(req.Extra.Header.Get(mcpRemoteHeader), "0")
		}
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, inner)
		return &mcp.CallToolResult{
			Content: []mcp.Content{&mcp.TextContent{Text: rec.Body.String()}},
			IsError: rec.Code >= 400,
		}, nil
	}
}

// toolError is a tool result carrying the error envelope a REST call
// would have answered.
func toolError(e *domain.Error) *mcp.CallToolResult {
	b, _ := json.Marshal(envelope{Error: &errorBody{Code: e.Code, Message: e.Message, Fields: e.Fields}})
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}, IsError: true}
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
