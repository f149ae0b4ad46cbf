package postgres

import (
	"go/ast"
	"testing"

	"kestrel/store/storetest"
)

// Every store call goes through db, whose errors pass through unreachable:
// a method reaching the pool directly would answer a lost connection with
// the driver's error (a 500) instead of EUnavailable (a 503).
func TestPoolIsReachedOnlyThroughTheFunnel(t *testing.T) {
	storetest.ForbidSelectors(t, "db.go", func(sel *ast.SelectorExpr) bool { return sel.Sel.Name == "pool" },
		"the pool is used directly; go through db so errors reach unreachable")
}
