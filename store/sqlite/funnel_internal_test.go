package sqlite

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// Every store call goes through db, whose errors pass through unavailable:
// a method reaching a pool directly would answer a full disk or an I/O error with
// the driver's error (a 500) instead of EUnavailable (a 503).
func TestPoolsAreReachedOnlyThroughTheFunnel(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if name == "db.go" || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); sel.Sel.Name == "pool" || ok && x.Name == "sql" && sel.Sel.Name == "DB" {
				t.Errorf("%s: a pool is used directly; go through db so errors reach unavailable", fset.Position(sel.Pos()))
			}
			return true
		})
	}
}
