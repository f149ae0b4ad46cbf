package httpapi

import (
	"encoding/json"

	"kestrel/domain"
	"kestrel/httpapi/openapi"
	"kestrel/mcp"
)

// mcpRoute mounts the MCP server (package mcp) at /mcp: its tools are the
// routes API tokens may call, each call replayed through Handler, the one
// chain every request goes through (the same slots, urgent lane, request
// timeout, gateway, risk check and audit log as REST). /mcp itself needs
// a valid session or API token of any scope.
func (s *Server) mcpRoute() {
	routes := make([]mcp.Route, len(s.routes))
	for i, r := range s.routes {
		routes[i] = mcp.Route{Method: r.Method, Path: r.Path, Token: r.Token}
	}
	h, err := mcp.New(mcp.Config{Version: s.d.Build.Version, OpenAPI: openapi.JSON, Routes: routes,
		API: s.Handler, ClientAddr: clientAddr, Bearer: bearerToken, Fail: fail, ErrorJSON: errorJSON})
	if err != nil {
		panic("mcp server from the OpenAPI description: " + err.Error()) // embedded files: the MCP tests read them
	}
	s.mux.Handle("/mcp", s.requireAuthAs(tokenRead, h))
}

// errorJSON is the error envelope fail writes for e.
func errorJSON(e *domain.Error) []byte {
	b, _ := json.Marshal(envelope{Error: &errorBody{Code: e.Code, Message: e.Message, Fields: e.Fields}})
	return b
}
