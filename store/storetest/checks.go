package storetest

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"kestrel/domain"
)

// LiveHolds sums the holds of a ledger's live orders by currency, the
// figure every balance's hold must equal.
func LiveHolds(t testing.TB, st domain.LedgerStore) (map[string]decimal.Decimal, []domain.Order) {
	t.Helper()
	live, err := st.LedgerLiveOrders(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	holds := map[string]decimal.Decimal{}
	for _, o := range live {
		if cur := o.HoldCurrency(); cur != "" {
			holds[cur] = holds[cur].Add(o.Hold)
		}
	}
	return holds, live
}

// CallEveryMethod calls each method of store that returns an error, with
// ctx first, then args[name] and zero values for the rest, and hands each
// name and error to check. It returns how many it called. Close is left out.
func CallEveryMethod(ctx context.Context, store any, args map[string][]any, check func(name string, err error)) int {
	errType := reflect.TypeFor[error]()
	v := reflect.ValueOf(store)
	called := 0
	for i := range v.NumMethod() {
		m := v.Type().Method(i)
		ft := m.Type // the receiver is argument 0
		if m.Name == "Close" || ft.NumOut() == 0 || ft.Out(ft.NumOut()-1) != errType {
			continue
		}
		in := []reflect.Value{reflect.ValueOf(ctx)}
		given := args[m.Name]
		for j := 2; j < ft.NumIn(); j++ {
			if k := j - 2; k < len(given) {
				in = append(in, reflect.ValueOf(given[k]))
			} else {
				in = append(in, reflect.Zero(ft.In(j)))
			}
		}
		out := v.Method(i).Call(in)
		err, _ := out[len(out)-1].Interface().(error)
		check(m.Name, err)
		called++
	}
	return called
}

// ForbidSelectors parses the package in the current directory (all but its
// tests and the file allowed) and reports every selector forbidden says is
// off limits there: a store's pool reached around its error funnel.
func ForbidSelectors(t *testing.T, allowed string, forbidden func(*ast.SelectorExpr) bool, why string) {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if name == allowed || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && forbidden(sel) {
				t.Errorf("%s: %s", fset.Position(sel.Pos()), why)
			}
			return true
		})
	}
}
