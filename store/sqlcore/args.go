package sqlcore

import "strconv"

// args collects the arguments of a query built piece by piece; add returns
// the next argument's $n placeholder.
type args []any

func (a *args) add(v any) string {
	*a = append(*a, v)
	return "$" + strconv.Itoa(len(*a))
}
