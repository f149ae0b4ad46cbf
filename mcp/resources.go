package mcp

import (
	"context"
	"go/parser"
	"go/token"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"kestrel/backtest"
	"kestrel/strategy"
)

// addResources offers the product's rules as the source states them: the
// strategy and backtest package documentation, read from their doc.go.
func addResources(srv *sdk.Server) error {
	for _, d := range []struct {
		uri, name, desc string
		src             []byte
	}{
		{"kestrel://docs/strategy", "strategy-rules", "How strategies decide and trade: the rules, the confidence formula, sizing and the risk gate", strategy.DocSource},
		{"kestrel://docs/backtest", "backtest-rules", "How backtests fill, charge fees and apply risk on a simulated clock", backtest.DocSource},
	} {
		text, err := packageDoc(d.src)
		if err != nil {
			return err
		}
		uri := d.uri
		srv.AddResource(&sdk.Resource{URI: uri, Name: d.name, Description: d.desc, MIMEType: "text/plain"},
			func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
				return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: text}}}, nil
			})
	}
	return nil
}

// packageDoc is the package comment of a Go source file, as plain text.
func packageDoc(src []byte) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", src, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return "", err
	}
	if f.Doc == nil {
		return "", nil
	}
	return f.Doc.Text(), nil
}
