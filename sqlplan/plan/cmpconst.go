package plan

import (
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// A comparison of a column with a constant of a wider type (a DATE with a
// TIMESTAMP, a DECIMAL(15,2) with an INTEGER) would cast every row of the
// column; comparing with the constant converted to the column's type
// gives the same answers, keeps the typed fast path, and lets the scan
// prune with the comparison (statistics, page indexes, bloom filters).

// constInColumnType returns k converted to col's type t such that
// `col op k` keeps its answer for every value of col; ok is false when no
// such constant is known.
func constInColumnType(op cmpOp, t Type, k *ConstExpr) (*ConstExpr, bool) {
	if k.V == nil {
		return nil, false
	}
	same := func(v any) *ConstExpr { return &ConstExpr{named: k.named, T: t, V: v} }
	switch {
	case t.Kind == KDate && k.T.Kind == KTimestamp && !k.T.TZ && !k.T.Nanos:
		us, ok := k.V.(int64)
		if !ok {
			return nil, false
		}
		const day = 86400e6
		floor := us / day
		if us%day < 0 {
			floor--
		}
		exact := us%day == 0
		ceil := floor
		if !exact {
			ceil++
		}
		// A date d is the timestamp at its midnight: d < c holds for the
		// days before c's ceiling, d <= c for those up to its floor.
		switch op {
		case opLt, opGe:
			return same(ceil), true
		case opLe, opGt:
			return same(floor), true
		}
		if exact {
			return same(floor), true
		}
	case t.Kind == KDecimal && !t.Huge && (k.T.Kind == KDecimal || k.T.Kind == KInt):
		// Only a constant that the column's type holds exactly.
		v, err := CastScalar(k.V, k.T, t)
		if err != nil {
			return nil, false
		}
		back, err := CastScalar(v, t, k.T)
		if err != nil || vec.CompareScalars(k.T, back, k.V) != 0 {
			return nil, false
		}
		return same(v), true
	}
	return nil, false
}
