package function

import (
	"cmp"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// ExtremeCmp orders two non-NULL scalars of type t as DuckDB's min, max,
// arg_min, arg_max, greatest, least and list_min/list_max do: as
// vec.CompareScalars, but a TIMETZ by its local time of day, then the
// larger offset first (vec.TimeTZLocalKey), where DuckDB's comparisons
// and ORDER BY take the UTC time first.
func ExtremeCmp(t vec.Type, a, b any) int {
	if t.Kind == vec.KTimeTZ {
		x, okx := a.(int64)
		y, oky := b.(int64)
		if okx && oky {
			return cmp.Compare(vec.TimeTZLocalKey(x), vec.TimeTZLocalKey(y))
		}
	}
	return vec.CompareScalars(t, a, b)
}

// ExtremeColCmp is ExtremeCmp of row i of a and row j of b, two columns
// of one type.
func ExtremeColCmp(a *vec.Col, i int, b *vec.Col, j int) int {
	if a.T.Kind == vec.KTimeTZ && a.I != nil && b.I != nil && a.Dict == nil && b.Dict == nil {
		return cmp.Compare(vec.TimeTZLocalKey(a.I[i]), vec.TimeTZLocalKey(b.I[j]))
	}
	return vec.CompareAt(a, i, b, j)
}
