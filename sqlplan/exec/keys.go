package exec

import (
	"cmp"
	"encoding/binary"
	"math"
	"strings"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// CompareScalars orders two non-null scalars of type t: the values a
// kernel does not read typed (a column's A: intervals, nested values, ...)
// and the engine's own comparisons of scalars. Values of no order of
// their own (nested ones) compare by their text.
func CompareScalars(t vec.Type, a, b any) int {
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
			return vec.CompareBitText(x, b.(string))
		}
		return strings.Compare(x, b.(string))
	case []byte:
		return vec.CompareStrings(t, x, b.([]byte))
	case value.Decimal:
		return x.Cmp(b.(value.Decimal))
	case vec.Interval:
		return vec.CompareIntervals(x, b.(vec.Interval))
	}
	return strings.Compare(vec.ScalarText(t, a), vec.ScalarText(t, b))
}

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
func AppendScalarKey(buf []byte, t vec.Type, v any) []byte {
	if iv, ok := v.(vec.Interval); ok {
		return vec.AppendIntervalKey(buf, iv)
	}
	buf = append(buf, 5)
	s := vec.ScalarText(t, v)
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

// AppendKey encodes slot i of c for hashing and equality: NULL, numbers,
// and strings get distinct, unambiguous encodings.
func AppendKey(buf []byte, c *vec.Col, i int) []byte {
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

// JoinKey encodes row i's keys after buf[:0]; ok is false when one is
// NULL (never equal).
func JoinKey(buf []byte, keys []*vec.Col, i int) ([]byte, bool) {
	buf = buf[:0]
	for _, c := range keys {
		if c.IsNull(i) {
			return buf, false
		}
		buf = AppendKey(buf, c, i)
	}
	return buf, true
}
