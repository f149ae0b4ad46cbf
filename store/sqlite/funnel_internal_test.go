package sqlite

import (
	"go/ast"
	"testing"

	"kestrel/store/storetest"
)

// Every store call goes through db, whose errors pass through unavailable:
// a method reaching a pool directly would answer a full disk or an I/O error with
// the driver's error (a 500) instead of EUnavailable (a 503).
func TestPoolsAreReachedOnlyThroughTheFunnel(t *testing.T) {
	storetest.ForbidSelectors(t, "db.go", func(sel *ast.SelectorExpr) bool {
		x, ok := sel.X.(*ast.Ident)
		return sel.Sel.Name == "pool" || ok && x.Name == "sql" && sel.Sel.Name == "DB"
	}, "a pool is used directly; go through db so errors reach unavailable")
}
