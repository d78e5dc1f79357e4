package exec

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// The engine's values that the kernels do not read typed (a column's A:
// intervals, nested values, ...) are compared and encoded by the
// engine's own functions, which it sets once at init; until then, by
// their text. The kernels call them only for such columns, never on the
// typed paths.
var (
	// CompareScalars orders two non-null values of type t.
	CompareScalars = func(_ vec.Type, a, b any) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) }
	// AppendScalarKey encodes a non-null value of type t after buf, so
	// that equal values (CompareScalars 0) encode alike and others not.
	AppendScalarKey = func(buf []byte, _ vec.Type, v any) []byte {
		s := fmt.Sprint(v)
		buf = append(buf, 5)
		buf = binary.AppendUvarint(buf, uint64(len(s)))
		return append(buf, s...)
	}
)

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
