package httpapi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
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
	"sync"
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
		SessionTimeout: mcpIdleSession,
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
		if r.Method != http.MethodPost || r.Header.Get(mcpSessionHeader) != "" {
			h.ServeHTTP(w, r)
			return
		}
		// A POST without a session starts one: counted against the
		// credential's and the address's caps until it ends.
		release, err := s.mcpSessions.reserve(bearerToken(r), clientAddr(r))
		if err != nil {
			fail(w, r, err)
			return
		}
		h.ServeHTTP(w, r)
		id := w.Header().Get(mcpSessionHeader)
		for ss := range srv.Sessions() {
			if id != "" && ss.ID() == id {
				go func() { ss.Wait(); release() }()
				return
			}
		}
		release() // no session, or it has ended already
	})))
}

// mcpIdleSession is how long an MCP session lives without a request; the
// client starts another when it comes back.
const mcpIdleSession = 5 * time.Minute

// The MCP sessions one credential (API token or sign-in session) and one
// client address may hold at once. An agent needs one or two; the cap keeps
// one token or host from holding thousands for the idle time.
const (
	mcpSessionsPerCredential = 16
	mcpSessionsPerAddress    = 64
)

const mcpSessionHeader = "Mcp-Session-Id"

// mcpSessionCount counts the live MCP sessions per credential (a hash of
// the bearer) and per client address (an IPv6 address by its /64).
type mcpSessionCount struct {
	mu   sync.Mutex
	live map[string]int
}

// reserve counts a new session, or says which cap refuses it; release
// uncounts it (once).
func (c *mcpSessionCount) reserve(bearer, addr string) (release func(), err error) {
	sum := sha256.Sum256([]byte(bearer))
	cred, host := "c:"+hex.EncodeToString(sum[:16]), "a:"+addressKey(addr)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.live == nil {
		c.live = map[string]int{}
	}
	switch {
	case c.live[cred] >= mcpSessionsPerCredential:
		return nil, domain.Errorf(domain.ETooMany, "This credential already has %d MCP sessions open, the most it may hold; end one (DELETE /mcp) or wait for an idle one to close (after %s)", mcpSessionsPerCredential, mcpIdleSession)
	case c.live[host] >= mcpSessionsPerAddress:
		return nil, domain.Errorf(domain.ETooMany, "This address already has %d MCP sessions open, the most it may hold; end one (DELETE /mcp) or wait for an idle one to close (after %s)", mcpSessionsPerAddress, mcpIdleSession)
	}
	c.live[cred]++
	c.live[host]++
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			for _, k := range []string{cred, host} {
				if c.live[k]--; c.live[k] <= 0 {
					delete(c.live, k)
				}
			}
		})
	}, nil
}

// addressKey is an address as a limit counts it: an IPv6 address by its
// /64 (one host's usual allocation), anything else as it is.
func addressKey(addr string) string {
	ip := net.ParseIP(addr)
	if ip == nil || ip.To4() != nil {
		return addr
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
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
		// The one handler chain every request goes through: the same
		// concurrency slots, urgent lane and request timeout as REST.
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
