package app_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bearer adds an Authorization header to every request of an MCP client.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func (s *server) mcpSession(token string) (*mcp.ClientSession, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "kestrel-test", Version: "1"}, nil)
	return c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.url + "/mcp", HTTPClient: &http.Client{Transport: bearer{token}}, MaxRetries: -1}, nil)
}

// toolReply is a tool result's JSON envelope.
func toolReply(t *testing.T, res *mcp.CallToolResult) reply {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("tool result content %+v", res.Content)
	}
	var r reply
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// An MCP client (the official SDK) lists the tools generated from the
// OpenAPI description and, with a paper token, places and cancels a sandbox
// order through the risk check; a read token is refused any order; every
// call is in the audit log with the token's name.
func TestMCPWithTokens(t *testing.T) {
	s := start(t, t.TempDir())
	op, trader := s.accounts()
	paper := s.newToken(trader, "", "agent-paper", "paper")
	read := s.newToken(trader, "", "agent-read", "read")
	ctx := context.Background()

	if _, err := s.mcpSession("kst_not-a-token"); err == nil {
		t.Fatal("an unknown token connected")
	}
	cs, err := s.mcpSession(paper.Token)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tl := range tools.Tools {
		names[tl.Name] = true
	}
	for _, want := range []string{"getMarketDataTickerSymbol", "getTradingBalances", "postTradingOrdersLimit", "deleteTradingOrdersId", "postBacktests", "getStrategyList"} {
		if !names[want] {
			t.Errorf("no tool %s among %d", want, len(names))
		}
	}
	for _, never := range []string{"createAPIToken", "listAPITokens", "getUsers", "putSettings", "postAuthPassword"} {
		if names[never] {
			t.Errorf("tool %s is offered to tokens", never)
		}
	}

	// The product's rules are resources.
	resources, err := cs.ListResources(ctx, nil)
	if err != nil || len(resources.Resources) != 2 {
		t.Fatalf("resources %+v, %v", resources, err)
	}
	doc, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "kestrel://docs/strategy"})
	if err != nil || len(doc.Contents) != 1 || !strings.HasPrefix(doc.Contents[0].Text, "Package strategy runs automated strategies") {
		t.Fatalf("strategy rules resource: %+v, %v", doc, err)
	}

	call := func(cs *mcp.ClientSession, name string, args map[string]any) (*mcp.CallToolResult, reply) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res, toolReply(t, res)
	}
	res, r := call(cs, "postTradingExecute", map[string]any{"body": map[string]any{"symbol": "BTC-USD", "action": "BUY", "quantity": 1}})
	if !res.IsError || r.Status != 0 || r.Error.Code != "rejected" || !strings.Contains(r.Error.Message, "maximum trade amount") {
		t.Fatalf("over-limit order through MCP: %+v %+v", res.IsError, r.Error)
	}
	res, r = call(cs, "postTradingOrdersLimit", map[string]any{"body": map[string]any{"symbol": "BTC-USD", "side": "BUY", "quantity": 0.02, "price": 1000}})
	var placed struct{ Order order }
	if res.IsError || json.Unmarshal(r.Data, &placed) != nil || placed.Order.Status != "open" {
		t.Fatalf("paper limit order through MCP: %+v %s", r.Error, r.Data)
	}
	if res, r = call(cs, "deleteTradingOrdersId", map[string]any{"id": placed.Order.ID}); res.IsError {
		t.Fatalf("cancel through MCP: %+v", r.Error)
	}
	if res, r = call(cs, "getTradingOrders", nil); res.IsError || !strings.Contains(string(r.Data), placed.Order.ID) {
		t.Fatalf("orders through MCP: %+v", r)
	}

	rs, err := s.mcpSession(read.Token)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	res, r = call(rs, "postTradingOrdersLimit", map[string]any{"body": map[string]any{"symbol": "BTC-USD", "side": "BUY", "quantity": 0.02, "price": 1000}})
	if !res.IsError || r.Error.Code != "forbidden" || !strings.Contains(r.Error.Message, "read scope") {
		t.Fatalf("read token order through MCP: %+v", r.Error)
	}

	var audit struct {
		Entries []struct {
			Actor, Action, Remote string
			Status                int
		}
	}
	s.into(s.do("GET", "/api/audit?limit=200", op, ""), &audit)
	seen := map[string]bool{}
	for _, e := range audit.Entries {
		seen[e.Actor+" "+e.Action+" "+itoa(e.Status)] = true
		if strings.Contains(e.Actor, "via token") && e.Remote != "127.0.0.1" {
			t.Errorf("entry %+v: remote is not the MCP client's", e)
		}
	}
	for _, want := range []string{
		"t@example.com via token 'agent-paper' POST /api/trading/execute 422",
		"t@example.com via token 'agent-paper' POST /api/trading/orders/limit 201",
		"t@example.com via token 'agent-paper' DELETE /api/trading/orders/" + placed.Order.ID + " 200",
		"t@example.com via token 'agent-read' POST /api/trading/orders/limit 403",
	} {
		if !seen[want] {
			t.Errorf("audit has no %q", want)
		}
	}
}

// Enable, disable and Test AI are three operations on their own paths, so
// MCP offers three tools (not one opaque "action" tool): an operator's
// trade token enables and disables a strategy through them; a read token
// of the same operator is refused both.
func TestMCPStrategyOperations(t *testing.T) {
	s := start(t, t.TempDir())
	op, _ := s.accounts()
	opTrade := s.newToken(op, "", "op-agent", "trade")
	opRead := s.newToken(op, "", "op-reader", "read")
	ctx := context.Background()

	cs, err := s.mcpSession(opTrade.Token)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, tl := range tools.Tools {
		names[tl.Name] = tl.Description
	}
	for tool, path := range map[string]string{
		"enableStrategy":  "POST /api/strategy/{name}/enable",
		"disableStrategy": "POST /api/strategy/{name}/disable",
		"testAIAnalyze":   "POST /api/strategy/ai-analyze/{symbol}",
	} {
		if !strings.Contains(names[tool], path) {
			t.Errorf("tool %s: %q, want one for %s", tool, names[tool], path)
		}
	}
	if _, ok := names["postStrategyNameAction"]; ok {
		t.Error("the folded action tool is still offered")
	}

	call := func(cs *mcp.ClientSession, name string, args map[string]any) (*mcp.CallToolResult, reply) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res, toolReply(t, res)
	}
	var toggled struct {
		Name    string
		Enabled bool
	}
	for _, c := range []struct {
		tool string
		want bool
	}{{"enableStrategy", true}, {"disableStrategy", false}, {"enableStrategy", true}} {
		res, r := call(cs, c.tool, map[string]any{"name": "technical_strategy"})
		if res.IsError || json.Unmarshal(r.Data, &toggled) != nil || toggled.Name != "technical_strategy" || toggled.Enabled != c.want {
			t.Fatalf("%s through MCP: %+v %s", c.tool, r.Error, r.Data)
		}
		var cfg struct{ Enabled bool }
		s.into(s.do("GET", "/api/strategy/config/technical_strategy", op, ""), &cfg)
		if cfg.Enabled != c.want {
			t.Fatalf("after %s the strategy's enabled is %v", c.tool, cfg.Enabled)
		}
	}
	// Test AI through its own tool: the built-in model decides and the
	// decision is recorded.
	res, r := call(cs, "testAIAnalyze", map[string]any{"symbol": "BTC-USD"})
	var ev struct{ StrategyName, Symbol string }
	if res.IsError || json.Unmarshal(r.Data, &ev) != nil || ev.Symbol != "BTC-USD" {
		t.Fatalf("Test AI through MCP: %+v %s", r.Error, r.Data)
	}

	rs, err := s.mcpSession(opRead.Token)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	for _, tool := range []string{"enableStrategy", "disableStrategy", "testAIAnalyze"} {
		res, r := call(rs, tool, map[string]any{"name": "technical_strategy", "symbol": "BTC-USD"})
		if !res.IsError || r.Error.Code != "forbidden" || !strings.Contains(r.Error.Message, "read scope") {
			t.Errorf("%s with a read token: %+v", tool, r.Error)
		}
	}
	var cfg struct{ Enabled bool }
	s.into(s.do("GET", "/api/strategy/config/technical_strategy", op, ""), &cfg)
	if !cfg.Enabled {
		t.Error("a refused disable changed the strategy")
	}
}
