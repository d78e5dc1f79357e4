package vec

import (
	"math/big"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/num"
)

// Col is one column of values in the engine: typed slices by Kind (see
// Kind), Null[i] set for NULL rows (nil when there are none). Strings and
// byte strings are one Data buffer plus Len+1 offsets, as in the scan's
// vectors, whose buffers a Col shares where it can.
type Col struct {
	T    Type
	Len  int
	Null []bool
	I    []int64
	F    []float64
	B    []bool
	Data []byte
	Off  []int32
	// H holds DECIMAL(p, s) with 18 < p <= 38: unscaled 128-bit values.
	H []num.Int128
	A []any
	// Dict, when set, makes a coded column: row i is Dict's value
	// Codes[i] and the slices above are empty. Only the scan node makes
	// them, for the one GROUP BY key of an aggregation right above it that
	// reads the column for nothing else (the engine's useCodes); the grouper
	// reads them by code, and Get and Decoded work on them.
	Dict  *Col
	Codes []int32
	// Scratch: I or F is a pooled vector (Scratch.go) that the
	// consumer of this column gives back.
	Scratch bool
	// Dropped: a column of a relation that nothing reads after the
	// relation's own filter (DroppedCol); it keeps its place and row
	// count, holds no values, and copies for free.
	Dropped bool
}

// DroppedCol stands for a column nothing reads any more.
func DroppedCol(t Type, n int) *Col { return &Col{T: t, Len: n, Dropped: true} }

// Batch is a set of rows as columns.
type Batch struct {
	Cols []*Col
	N    int
	// Recycle, set on a scan's batches, gives the scan back the buffers
	// of the batch's columns that it gathered (scan.Scanner.Recycle): a
	// consumer calls it only once nothing refers to the batch any more.
	Recycle func()
}

func (c *Col) IsNull(i int) bool { return c.Null != nil && c.Null[i] }

// Str returns the bytes of a string slot (aliasing the buffer).
func (c *Col) Str(i int) []byte { return c.Data[c.Off[i]:c.Off[i+1]] }

// NewCol allocates a column of n rows of type t (zero values, no NULLs).
func NewCol(t Type, n int) *Col {
	c := &Col{T: t, Len: n}
	switch Storage(t) {
	case StInt:
		c.I = make([]int64, n)
	case StFloat:
		c.F = make([]float64, n)
	case StBool:
		c.B = make([]bool, n)
	case StBytes:
		c.Off = make([]int32, n+1)
	case StHuge:
		c.H = make([]num.Int128, n)
	default:
		c.A = make([]any, n)
	}
	return c
}

type StorageKind uint8

const (
	StAny StorageKind = iota
	StInt
	StFloat
	StBool
	StBytes
	StHuge // num.Int128: DECIMAL(19..38)
)

func Storage(t Type) StorageKind {
	switch t.Kind {
	case KInt, KUint, KDate, KTime, KTimeTZ, KTimestamp, KEnum:
		return StInt
	case KDecimal:
		switch {
		case t.Prec <= 18:
			return StInt
		case t.Prec <= 38:
			return StHuge
		}
		return StAny
	case KUHuge:
		return StHuge
	case KFloat:
		return StFloat
	case KBool:
		return StBool
	case KString, KBytes, KUUID:
		return StBytes
	}
	return StAny
}

// NullCol is a column of n NULLs.
func NullCol(t Type, n int) *Col {
	c := NewCol(t, n)
	c.Null = make([]bool, n)
	for i := range c.Null {
		c.Null[i] = true
	}
	return c
}

// SetNull marks row i NULL, allocating the null slice on first use.
func (c *Col) SetNull(i int) {
	if c.Null == nil {
		c.Null = make([]bool, c.Len)
	}
	c.Null[i] = true
}

// Take returns the rows of c at idx.
func (c *Col) Take(idx []int32) *Col {
	if c.Dropped {
		return DroppedCol(c.T, len(idx))
	}
	out := &Col{T: c.T, Len: len(idx)}
	if c.Null != nil {
		out.Null = make([]bool, len(idx))
		any := false
		for k, i := range idx {
			if c.Null[i] {
				out.Null[k] = true
				any = true
			}
		}
		if !any {
			out.Null = nil
		}
	}
	switch {
	case c.Dict != nil:
		// Coded: the same dictionary, the taken rows' codes (the
		// values are not in I, Off or A, and a CASE branch taken of
		// such a column read NULLs).
		out.Dict = c.Dict
		out.Codes = make([]int32, len(idx))
		for k, i := range idx {
			out.Codes[k] = c.Codes[i]
		}
	case c.I != nil:
		out.I = make([]int64, len(idx))
		for k, i := range idx {
			out.I[k] = c.I[i]
		}
	case c.F != nil:
		out.F = make([]float64, len(idx))
		for k, i := range idx {
			out.F[k] = c.F[i]
		}
	case c.B != nil:
		out.B = make([]bool, len(idx))
		for k, i := range idx {
			out.B[k] = c.B[i]
		}
	case c.H != nil:
		out.H = make([]num.Int128, len(idx))
		for k, i := range idx {
			out.H[k] = c.H[i]
		}
	case c.Off != nil:
		out.Off = make([]int32, len(idx)+1)
		size := 0
		for _, i := range idx {
			size += int(c.Off[i+1] - c.Off[i])
		}
		out.Data = make([]byte, 0, size)
		for k, i := range idx {
			out.Data = append(out.Data, c.Data[c.Off[i]:c.Off[i+1]]...)
			out.Off[k+1] = int32(len(out.Data))
		}
	default:
		out.A = make([]any, len(idx))
		for k, i := range idx {
			if c.A != nil {
				out.A[k] = c.A[i]
			}
		}
	}
	return out
}

// AppendCol appends the rows of src to dst (same storage).
func AppendCol(dst, src *Col) {
	if src.Len == 0 {
		return
	}
	if dst.Dropped || src.Dropped {
		dst.Len += src.Len
		dst.Dropped = true
		return
	}
	base := dst.Len
	if src.Null != nil || dst.Null != nil {
		if dst.Null == nil {
			dst.Null = make([]bool, base, base+src.Len)
		}
		if src.Null != nil {
			dst.Null = append(dst.Null, src.Null[:src.Len]...)
		} else {
			dst.Null = append(dst.Null, make([]bool, src.Len)...)
		}
	}
	dst.Len += src.Len
	switch Storage(dst.T) {
	case StInt:
		dst.I = append(dst.I, src.I[:src.Len]...)
	case StFloat:
		dst.F = append(dst.F, src.F[:src.Len]...)
	case StBool:
		dst.B = append(dst.B, src.B[:src.Len]...)
	case StBytes:
		if len(dst.Off) == 0 {
			dst.Off = append(dst.Off, 0)
		}
		shift := int32(len(dst.Data)) - src.Off[0]
		for _, o := range src.Off[1 : src.Len+1] {
			dst.Off = append(dst.Off, o+shift)
		}
		dst.Data = append(dst.Data, src.Data[src.Off[0]:src.Off[src.Len]]...)
	case StHuge:
		dst.H = append(dst.H, src.H[:src.Len]...)
	default:
		if src.A == nil {
			dst.A = append(dst.A, make([]any, src.Len)...)
		} else {
			dst.A = append(dst.A, src.A[:src.Len]...)
		}
	}
}

// emptyLike returns an empty column of c's type for appending.
func EmptyCol(t Type) *Col {
	c := &Col{T: t}
	if Storage(t) == StBytes {
		c.Off = []int32{0}
	}
	return c
}

// Decoded returns c with its values in place of codes (c itself when it
// is not coded).
func (c *Col) Decoded() *Col {
	if c.Dict == nil {
		return c
	}
	b := NewBuilder(c.T, c.Len)
	for i := 0; i < c.Len; i++ {
		b.Add(c.Get(i))
	}
	return b.C
}

// bigOf returns a Decimal slot as value.Decimal.
func (c *Col) Decimal(i int) value.Decimal {
	if c.H != nil && c.T.Kind == KUHuge {
		return UHugeValue(c.H[i])
	}
	if c.H != nil {
		return value.Decimal{Unscaled: c.H[i].Big(), Scale: int32(c.T.Scale)}
	}
	if c.A != nil {
		return c.A[i].(value.Decimal)
	}
	return value.DecimalFromInt64(c.I[i], int32(c.T.Scale))
}

// BigInt returns row i of a HUGEINT (or any DECIMAL's unscaled value) as
// a new big integer.
func (c *Col) BigInt(i int) *big.Int { return c.Decimal(i).Unscaled }

// Bytes returns the bytes of a string or binary row (aliasing the buffer).
func (c *Col) Bytes(i int) []byte { return c.Str(i) }

// Value returns row i as a Go value: int64, uint64, float64, bool, string,
// []byte, time.Time, exact decimal text, or nested Go values; nil for NULL.
func (c *Col) Value(i int) any { return GoValue(c.T, c.Get(i)) }

// MergeNulls returns the OR of the null slices of cols (nil if none).
func MergeNulls(n int, cols ...*Col) []bool {
	var out []bool
	for _, c := range cols {
		if c.Null == nil {
			continue
		}
		if out == nil {
			out = make([]bool, n)
			copy(out, c.Null[:n])
			continue
		}
		for i, x := range c.Null[:n] {
			if x {
				out[i] = true
			}
		}
	}
	return out
}
