package httpapi

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The MCP SDK's client over compression (issue 34, item 10): a tool reply
// sent as several events (three progress notices, then a 5,000-byte
// result) reaches a client whose HTTP transport asks for gzip (Go's does,
// as Node's fetch does) whole: every notice and the result.
func TestMCPMultiPartReplyThroughGzip(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	big := strings.Repeat("a long answer ", 400)[:5000]
	mcp.AddTool(srv, &mcp.Tool{Name: "work"}, func(ctx context.Context, req *mcp.CallToolRequest, _ any) (*mcp.CallToolResult, any, error) {
		for i := range 3 {
			if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: float64(i + 1), Total: 3, Message: "working"}); err != nil {
				t.Errorf("progress: %v (token %v)", err, req.Params.GetProgressToken())
			}
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: big}}}, nil, nil
	})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{DisableLocalhostProtection: true})
	hs := httptest.NewServer(withTuning(func() Tuning { return Tuning{Compression: true} }, h))
	defer hs.Close()

	notices := make(chan float64, 3)
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) { notices <- r.Params.Progress },
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // a guard against a hang, not a measurement
	defer cancel()
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "work"}
	params.SetProgressToken("p-1")
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		t.Fatalf("tool call: %v", err)
	}
	if len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != big {
		t.Fatalf("result: %+v", res.Content)
	}
	for want := 1.0; want <= 3; want++ { // the client hands notices to its handler on its own
		select {
		case got := <-notices:
			if got != want {
				t.Fatalf("progress notice %v, want %v", got, want)
			}
		case <-ctx.Done():
			t.Fatalf("progress notice %v never arrived", want)
		}
	}
}
