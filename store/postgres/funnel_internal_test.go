package postgres

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// Every store call goes through db, whose errors pass through unreachable:
// a method reaching the pool directly would answer a lost connection with
// the driver's error (a 500) instead of EUnavailable (a 503).
func TestPoolIsReachedOnlyThroughTheFunnel(t *testing.T) {
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
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "pool" {
				t.Errorf("%s: the pool is used directly; go through db so errors reach unreachable", fset.Position(sel.Pos()))
			}
			return true
		})
	}
}
