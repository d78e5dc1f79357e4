package sqlplan

import (
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// extremeCmp orders two non-NULL scalars of type t as DuckDB's min, max,
// arg_min, arg_max, greatest, least and list_min/list_max do: as vec.CompareScalars, but a
// TIMETZ by its local time of day, then the larger offset first
// (timetzLocalKey), where DuckDB's comparisons and ORDER BY take the UTC
// time first.
func extremeCmp(t Type, a, b any) int {
	if t.Kind == KTimeTZ {
		x, okx := a.(int64)
		y, oky := b.(int64)
		if okx && oky {
			return cmpOrdered(timetzLocalKey(x), timetzLocalKey(y))
		}
	}
	return vec.CompareScalars(t, a, b)
}

// extremeColCmp is extremeCmp of row i of a and row j of b, two columns
// of one type.
func extremeColCmp(a *Col, i int, b *Col, j int) int {
	if a.T.Kind == KTimeTZ && a.I != nil && b.I != nil && a.Dict == nil && b.Dict == nil {
		return cmpOrdered(timetzLocalKey(a.I[i]), timetzLocalKey(b.I[j]))
	}
	return vec.CompareAt(a, i, b, j)
}
