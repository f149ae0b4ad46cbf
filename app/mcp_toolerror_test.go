package app_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A call that leaves out a required path parameter is a tool error the
// model can read and correct (the envelope a REST call would answer), not
// a protocol error that ends the call.
func TestMCPMissingPathParameterIsAToolError(t *testing.T) {
	s := start(t, t.TempDir())
	_, trader := s.accounts()
	cs, err := s.mcpSession(s.newToken(trader, "", "agent", "read").Token)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "getMarketDataTickerSymbol", Arguments: map[string]any{}})
	if err != nil {
		t.Fatalf("a protocol error: %v", err)
	}
	r := toolReply(t, res)
	if !res.IsError || r.Error.Code != "invalid" || r.Error.Message != "Missing required argument symbol" || r.Error.Fields["symbol"] != "Required" {
		t.Fatalf("missing symbol: isError %v, %+v", res.IsError, r.Error)
	}
}
