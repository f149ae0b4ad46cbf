// Package mcp is Kestrel's MCP server (Streamable HTTP, mounted by the API
// at /mcp). Its tools are generated from the OpenAPI description: one per
// operation API tokens may call, named by its operationId. A tool call is
// replayed as the REST request it stands for, with the caller's own bearer
// token, through the API's whole handler chain: the same authentication,
// scope check, concurrency slots, gateway, risk check and audit log as a
// direct call. Its resources are the strategy and backtest rules as their
// packages' documentation states them.
package mcp

import (
	"net/http"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"kestrel/domain"
)

// Route is an API route tools may be made of.
type Route struct {
	Method, Path string
	// Token is what API tokens may do there ("read", "work", "trade");
	// empty when only a session may call it: no tool.
	Token string
}

// Config is what the server needs from the API that mounts it.
type Config struct {
	Version string
	// OpenAPI is the API's description, the tools' names and schemas.
	OpenAPI []byte
	Routes  []Route
	// API is the whole HTTP stack a tool call is replayed through (asked
	// at each call: the API builds it once, after its routes).
	API func() http.Handler
	// ClientAddr and Bearer read a request's client address and bearer
	// token: the sessions are counted per credential and per address.
	ClientAddr func(*http.Request) string
	Bearer     func(*http.Request) string
	// Fail answers a refused request (too many sessions) as the API does.
	Fail func(w http.ResponseWriter, r *http.Request, err error)
	// ErrorJSON is the API's error envelope: a tool error carries what the
	// REST call would have answered.
	ErrorJSON func(*domain.Error) []byte
}

// IdleSession is how long an MCP session lives without a request; the
// client starts another when it comes back.
const IdleSession = 5 * time.Minute

const sessionHeader = "Mcp-Session-Id"

// remoteHeader carries the MCP client's address to its tool calls (the
// audit log's remote of each replayed request).
const remoteHeader = "X-Kestrel-Mcp-Remote"

// New builds the server and its HTTP handler. The caller authenticates
// the requests first (/mcp needs a valid session or API token of any scope).
func New(c Config) (http.Handler, error) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "kestrel", Version: c.Version}, nil)
	tools, err := c.tools()
	if err != nil {
		return nil, err
	}
	for _, t := range tools {
		srv.AddTool(t.tool, t.call)
	}
	if err := addResources(srv); err != nil {
		return nil, err
	}
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, &sdk.StreamableHTTPOptions{
		// Idle MCP sessions end (each request is authenticated anyway).
		SessionTimeout: IdleSession,
		// The SDK's DNS-rebinding guard refuses a loopback peer with
		// another Host: exactly the recommended TLS proxy on loopback. It
		// guards servers without credentials; /mcp needs a bearer token in
		// a header, which a rebound page cannot send.
		DisableLocalhostProtection: true,
	})
	var sessions sessionCount
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The tool calls see this request's header only: it carries the
		// client's address (a client's own value is replaced).
		r.Header.Set(remoteHeader, c.ClientAddr(r))
		if r.Method != http.MethodPost || r.Header.Get(sessionHeader) != "" {
			h.ServeHTTP(w, r)
			return
		}
		// A POST without a session starts one: counted against the
		// credential's and the address's caps until it ends.
		release, err := sessions.reserve(c.Bearer(r), c.ClientAddr(r))
		if err != nil {
			c.Fail(w, r, err)
			return
		}
		h.ServeHTTP(w, r)
		id := w.Header().Get(sessionHeader)
		for ss := range srv.Sessions() {
			if id != "" && ss.ID() == id {
				go func() { ss.Wait(); release() }()
				return
			}
		}
		release() // no session, or it has ended already
	}), nil
}
