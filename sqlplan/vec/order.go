package vec

import (
	"cmp"
	"encoding/binary"
	"math"
	"strings"

	"github.com/carquet-go/carquet/parquet/value"
)

// The order and the key encoding of values of every type: the kernels
// that sort, group, join and aggregate compare and hash through these
// where they do not read a column's typed slice themselves.

// CompareScalars orders two non-null scalars of type t: the values a
// kernel does not read typed (a column's A: intervals, nested values, ...)
// and the engine's own comparisons of scalars. Nested values compare by
// CompareNested; others of no order of their own by their text.
func CompareScalars(t Type, a, b any) int {
	switch x := a.(type) {
	case int64:
		return cmp.Compare(x, b.(int64))
	case uint64:
		return cmp.Compare(x, b.(uint64))
	case float64:
		return CmpFloat(x, b.(float64))
	case bool:
		return compareBools(x, b.(bool))
	case string:
		if t.Bit { // DuckDB's order of bit strings, the padding first
			return CompareBitText(x, b.(string))
		}
		return strings.Compare(x, b.(string))
	case []byte:
		return CompareStrings(t, x, b.([]byte))
	case value.Decimal:
		return x.Cmp(b.(value.Decimal))
	case Interval:
		return CompareIntervals(x, b.(Interval))
	}
	if t.Kind == KNested && CompareNested != nil {
		return CompareNested(t, a, b)
	}
	return strings.Compare(ScalarText(t, a), ScalarText(t, b))
}

// CompareNested orders two non-null nested values of type t (DuckDB's
// order: element by element, field by field, NULLs last). Package sqlplan,
// which knows nested types, sets it in its init.
var CompareNested func(t Type, a, b any) int

// compareBools orders false before true.
func compareBools(x, y bool) int {
	switch {
	case x == y:
		return 0
	case !x:
		return -1
	}
	return 1
}

// AppendScalarKey encodes a non-null value of type t that the kernels do
// not read typed (a column's A) after buf, so that equal values
// (CompareScalars 0) encode alike and others not: intervals by their
// normalized parts, others by their text.
func AppendScalarKey(buf []byte, t Type, v any) []byte {
	if iv, ok := v.(Interval); ok {
		return AppendIntervalKey(buf, iv)
	}
	buf = append(buf, 5)
	s := ScalarText(t, v)
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

// AppendKey encodes slot i of c for hashing and equality: NULL, numbers,
// and strings get distinct, unambiguous encodings.
func AppendKey(buf []byte, c *Col, i int) []byte {
	if c.IsNull(i) {
		return append(buf, 0)
	}
	switch {
	case c.I != nil:
		buf = append(buf, 1)
		return binary.LittleEndian.AppendUint64(buf, uint64(c.I[i]))
	case c.F != nil:
		f := c.F[i]
		if f == 0 {
			f = 0 // -0 == +0
		}
		bits := math.Float64bits(f)
		if f != f {
			bits = 0x7ff8000000000001
		}
		buf = append(buf, 2)
		return binary.LittleEndian.AppendUint64(buf, bits)
	case c.B != nil:
		if c.B[i] {
			return append(buf, 3, 1)
		}
		return append(buf, 3, 0)
	case c.Off != nil:
		s := c.Str(i)
		buf = append(buf, 4)
		buf = binary.AppendUvarint(buf, uint64(len(s)))
		return append(buf, s...)
	}
	if c.H != nil {
		buf = append(buf, 6)
		buf = binary.LittleEndian.AppendUint64(buf, uint64(c.H[i].Hi))
		return binary.LittleEndian.AppendUint64(buf, c.H[i].Lo)
	}
	return AppendScalarKey(buf, c.T, c.A[i])
}

// CompareAt orders the non-null values a[i] and b[j] of one type.
func CompareAt(a *Col, i int, b *Col, j int) int {
	switch {
	case a.I != nil && b.I != nil:
		if a.T.Kind == KUint {
			return cmp.Compare(uint64(a.I[i]), uint64(b.I[j]))
		}
		return cmp.Compare(a.I[i], b.I[j])
	case a.F != nil && b.F != nil:
		return CmpFloat(a.F[i], b.F[j])
	case a.H != nil && b.H != nil && a.T.Scale == b.T.Scale:
		// Wide decimals of one type share a scale: their unscaled values
		// order them (sorting a SUM of decimals without math/big).
		return a.H[i].Cmp(b.H[j])
	case a.Off != nil && b.Off != nil:
		return CompareStrings(a.T, a.Str(i), b.Str(j))
	case a.B != nil && b.B != nil:
		return compareBools(a.B[i], b.B[j])
	}
	return CompareScalars(a.T, a.Get(i), b.Get(j))
}

// CmpFloat orders floats as DuckDB does: NaN equals NaN and is above all.
func CmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	case a == b:
		return 0
	}
	an, bn := a != a, b != b
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	}
	return -1
}
