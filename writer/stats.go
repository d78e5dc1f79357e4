package writer

import (
	"bytes"
	"encoding/binary"
	"math"
	"unicode/utf8"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/simd"
)

// sortOrder is how min and max compare for a column (the ColumnOrder
// TYPE_ORDER rules of parquet.thrift and the per-type orders of
// LogicalTypes.md).
type sortOrder uint8

const (
	orderNone     sortOrder = iota // undefined (INT96, INTERVAL, GEOMETRY, GEOGRAPHY): no min/max
	orderSigned                    // signed integers, BOOLEAN (false < true)
	orderUnsigned                  // INTEGER(bits, false)
	orderFloat                     // FLOAT, DOUBLE: no NaN in min/max, -0.0 min, +0.0 max
	orderBytes                     // unsigned byte-wise
	orderDecimal                   // big-endian two's complement of any length
	orderFloat16                   // FLOAT16 bytes ordered as numbers
)

func orderOf(n *schema.Node) sortOrder {
	lt := n.Logical
	if n.Converted.Set && n.Converted.Value == format.Interval {
		return orderNone
	}
	switch n.Physical {
	case format.Boolean:
		return orderSigned
	case format.Int32, format.Int64:
		if lt != nil && lt.Integer != nil && !lt.Integer.IsSigned {
			return orderUnsigned
		}
		return orderSigned
	case format.Int96:
		return orderNone
	case format.Float, format.Double:
		return orderFloat
	case format.ByteArray, format.FixedLenByteArray:
		if lt != nil {
			switch {
			case lt.Decimal != nil:
				return orderDecimal
			case lt.Float16 != nil:
				return orderFloat16
			case lt.Geometry != nil, lt.Geography != nil:
				return orderNone
			}
		}
		return orderBytes
	}
	return orderNone
}

// statsAcc accumulates the statistics of a page or a column chunk.
type statsAcc struct {
	has         bool
	nulls, nans int64
	minI, maxI  int64 // BOOLEAN, INT32, INT64 (unsigned ones as bit patterns)
	minF, maxF  float64
	minB, maxB  []byte // byte arrays, FLBA
}

func (s *statsAcc) reset() {
	s.has, s.nulls, s.nans = false, 0, 0
	s.minB, s.maxB = s.minB[:0], s.maxB[:0]
}

func (s *statsAcc) setI(lo, hi int64, unsigned bool) {
	if !s.has {
		s.minI, s.maxI, s.has = lo, hi, true
		return
	}
	if unsigned {
		if uint64(lo) < uint64(s.minI) {
			s.minI = lo
		}
		if uint64(hi) > uint64(s.maxI) {
			s.maxI = hi
		}
		return
	}
	s.minI = min(s.minI, lo)
	s.maxI = max(s.maxI, hi)
}

func (s *statsAcc) setF(lo, hi float64) {
	if !s.has {
		s.minF, s.maxF, s.has = lo, hi, true
		return
	}
	if lo < s.minF {
		s.minF = lo
	}
	if hi > s.maxF {
		s.maxF = hi
	}
}

func (s *statsAcc) updateBool(v []bool) {
	if len(v) == 0 {
		return
	}
	hasTrue, hasFalse := false, false
	for _, b := range v {
		if b {
			hasTrue = true
		} else {
			hasFalse = true
		}
		if hasTrue && hasFalse {
			break
		}
	}
	lo, hi := int64(1), int64(0)
	if hasFalse {
		lo = 0
	}
	if hasTrue {
		hi = 1
	}
	s.setI(lo, hi, false)
}

func (s *statsAcc) updateInt32(v []int32, order sortOrder) {
	if len(v) == 0 {
		return
	}
	if order == orderUnsigned {
		lo, hi := uint32(v[0]), uint32(v[0])
		for _, x := range v[1:] {
			lo = min(lo, uint32(x))
			hi = max(hi, uint32(x))
		}
		s.setI(int64(lo), int64(hi), true)
		return
	}
	lo, hi, _ := simd.MinMaxInt32(v)
	s.setI(int64(lo), int64(hi), false)
}

func (s *statsAcc) updateInt64(v []int64, order sortOrder) {
	if len(v) == 0 {
		return
	}
	if order == orderUnsigned {
		lo, hi := uint64(v[0]), uint64(v[0])
		for _, x := range v[1:] {
			lo = min(lo, uint64(x))
			hi = max(hi, uint64(x))
		}
		s.setI(int64(lo), int64(hi), true)
		return
	}
	lo, hi, _ := simd.MinMaxInt64(v)
	s.setI(lo, hi, false)
}

func (s *statsAcc) updateFloat32(v []float32) {
	lo, hi, ok, nan := simd.MinMaxFloat32(v)
	if nan {
		for _, x := range v {
			if x != x {
				s.nans++
			}
		}
	}
	if ok {
		s.setF(float64(lo), float64(hi))
	}
}

func (s *statsAcc) updateFloat64(v []float64) {
	lo, hi, ok, nan := simd.MinMaxFloat64(v)
	if nan {
		for _, x := range v {
			if x != x {
				s.nans++
			}
		}
	}
	if ok {
		s.setF(lo, hi)
	}
}

// updateBytes folds the byte-array values data[offsets[i]:offsets[i+1]]
// into the statistics.
func (s *statsAcc) updateByteArray(data []byte, offsets []int32, order sortOrder) {
	n := len(offsets) - 1
	if n <= 0 {
		return
	}
	lo, hi := 0, 0
	val := func(i int) []byte { return data[offsets[i]:offsets[i+1]] }
	if order == orderBytes {
		loV, hiV := val(0), val(0)
		for i := 1; i < n; i++ {
			x := data[offsets[i]:offsets[i+1]]
			if bytes.Compare(x, loV) < 0 {
				lo, loV = i, x
			} else if bytes.Compare(x, hiV) > 0 {
				hi, hiV = i, x
			}
		}
	} else {
		cmp := compareFor(order)
		for i := 1; i < n; i++ {
			x := val(i)
			if cmp(x, val(lo)) < 0 {
				lo = i
			} else if cmp(x, val(hi)) > 0 {
				hi = i
			}
		}
	}
	s.setB(val(lo), val(hi), order)
}

// updateFixed folds width-byte values into the statistics.
func (s *statsAcc) updateFixed(data []byte, width int, order sortOrder) {
	n := len(data) / width
	if n == 0 {
		return
	}
	val := func(i int) []byte { return data[i*width : (i+1)*width] }
	if order == orderFloat16 {
		first := true
		var lo, hi float32
		var loI, hiI int
		for i := 0; i < n; i++ {
			f := value.Float16(val(i))
			if f != f {
				s.nans++
				continue
			}
			if first {
				lo, hi, loI, hiI, first = f, f, i, i, false
				continue
			}
			if f < lo {
				lo, loI = f, i
			} else if f > hi {
				hi, hiI = f, i
			}
		}
		if !first {
			s.setB(val(loI), val(hiI), order)
		}
		return
	}
	cmp := compareFor(order)
	lo, hi := 0, 0
	for i := 1; i < n; i++ {
		x := val(i)
		if cmp(x, val(lo)) < 0 {
			lo = i
		} else if cmp(x, val(hi)) > 0 {
			hi = i
		}
	}
	s.setB(val(lo), val(hi), order)
}

func (s *statsAcc) setB(lo, hi []byte, order sortOrder) {
	if !s.has {
		s.minB = append(s.minB[:0], lo...)
		s.maxB = append(s.maxB[:0], hi...)
		s.has = true
		return
	}
	cmp := compareFor(order)
	if cmp(lo, s.minB) < 0 {
		s.minB = append(s.minB[:0], lo...)
	}
	if cmp(hi, s.maxB) > 0 {
		s.maxB = append(s.maxB[:0], hi...)
	}
}

// merge folds the statistics of o (a page) into s (its chunk).
func (s *statsAcc) merge(o *statsAcc, kindIsBytes bool, order sortOrder) {
	s.nulls += o.nulls
	s.nans += o.nans
	if !o.has {
		return
	}
	switch {
	case kindIsBytes:
		s.setB(o.minB, o.maxB, order)
	case order == orderFloat:
		s.setF(o.minF, o.maxF)
	default:
		s.setI(o.minI, o.maxI, order == orderUnsigned)
	}
}

// compareFor returns the comparison of two encoded values of a byte-array
// or fixed-length column under order.
func compareFor(order sortOrder) func(a, b []byte) int {
	switch order {
	case orderDecimal:
		return compareDecimal
	case orderFloat16:
		return compareFloat16
	}
	return bytes.Compare
}

// compareDecimal compares big-endian two's complement integers of any
// lengths (an empty one is zero).
func compareDecimal(a, b []byte) int {
	an := len(a) > 0 && a[0]&0x80 != 0
	bn := len(b) > 0 && b[0]&0x80 != 0
	if an != bn {
		if an {
			return -1
		}
		return 1
	}
	var pad byte
	if an {
		pad = 0xFF
	}
	n := max(len(a), len(b))
	for i := 0; i < n; i++ {
		x, y := pad, pad
		if j := i - (n - len(a)); j >= 0 {
			x = a[j]
		}
		if j := i - (n - len(b)); j >= 0 {
			y = b[j]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

func compareFloat16(a, b []byte) int {
	x, y := value.Float16(a), value.Float16(b)
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// compareEncoded compares two PLAIN-encoded statistics values of a column
// of physical type t under order.
func compareEncoded(t format.Type, order sortOrder, a, b []byte) int {
	switch t {
	case format.Boolean:
		return int(a[0]) - int(b[0])
	case format.Int32:
		x, y := binary.LittleEndian.Uint32(a), binary.LittleEndian.Uint32(b)
		if order == orderUnsigned {
			return cmp3(x, y)
		}
		return cmp3(int32(x), int32(y))
	case format.Int64:
		x, y := binary.LittleEndian.Uint64(a), binary.LittleEndian.Uint64(b)
		if order == orderUnsigned {
			return cmp3(x, y)
		}
		return cmp3(int64(x), int64(y))
	case format.Float:
		return cmp3(math.Float32frombits(binary.LittleEndian.Uint32(a)), math.Float32frombits(binary.LittleEndian.Uint32(b)))
	case format.Double:
		return cmp3(math.Float64frombits(binary.LittleEndian.Uint64(a)), math.Float64frombits(binary.LittleEndian.Uint64(b)))
	}
	return compareFor(order)(a, b)
}

func cmp3[T int32 | int64 | uint32 | uint64 | float32 | float64](x, y T) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// encodedStats are min and max as statistics store them.
type encodedStats struct {
	min, max           []byte
	minExact, maxExact bool
}

// encode returns the PLAIN encodings of min and max, with the float zero
// rules applied and long byte arrays truncated to truncLen bytes (0: never).
// ok is false when there is no min/max to write.
func (s *statsAcc) encode(t format.Type, order sortOrder, utf8Text bool, truncLen int) (e encodedStats, ok bool) {
	if !s.has || order == orderNone {
		return e, false
	}
	e.minExact, e.maxExact = true, true
	switch t {
	case format.Boolean:
		e.min, e.max = []byte{byte(s.minI)}, []byte{byte(s.maxI)}
	case format.Int32:
		e.min = binary.LittleEndian.AppendUint32(nil, uint32(s.minI))
		e.max = binary.LittleEndian.AppendUint32(nil, uint32(s.maxI))
	case format.Int64:
		e.min = binary.LittleEndian.AppendUint64(nil, uint64(s.minI))
		e.max = binary.LittleEndian.AppendUint64(nil, uint64(s.maxI))
	case format.Float:
		lo, hi := float32(s.minF), float32(s.maxF)
		if lo == 0 {
			lo = float32(math.Copysign(0, -1))
		}
		if hi == 0 {
			hi = 0
		}
		e.min = binary.LittleEndian.AppendUint32(nil, math.Float32bits(lo))
		e.max = binary.LittleEndian.AppendUint32(nil, math.Float32bits(hi))
	case format.Double:
		lo, hi := s.minF, s.maxF
		if lo == 0 {
			lo = math.Copysign(0, -1)
		}
		if hi == 0 {
			hi = 0
		}
		e.min = binary.LittleEndian.AppendUint64(nil, math.Float64bits(lo))
		e.max = binary.LittleEndian.AppendUint64(nil, math.Float64bits(hi))
	case format.FixedLenByteArray:
		e.min, e.max = bytes.Clone(s.minB), bytes.Clone(s.maxB)
		if order == orderFloat16 {
			if value.Float16(e.min) == 0 {
				e.min = []byte{0x00, 0x80} // -0
			}
			if value.Float16(e.max) == 0 {
				e.max = []byte{0x00, 0x00} // +0
			}
		}
	case format.ByteArray:
		e.min, e.max = bytes.Clone(s.minB), bytes.Clone(s.maxB)
		if order == orderBytes && truncLen > 0 {
			if len(e.min) > truncLen {
				e.min, e.minExact = truncateMin(e.min, truncLen, utf8Text), false
			}
			if len(e.max) > truncLen {
				if m, ok := truncateMax(e.max, truncLen, utf8Text); ok {
					e.max, e.maxExact = m, false
				}
			}
		}
	default:
		return e, false
	}
	if e.min == nil {
		e.min = []byte{}
	}
	if e.max == nil {
		e.max = []byte{}
	}
	return e, true
}

// truncateMin cuts v to at most n bytes: a prefix sorts at or before v.
// UTF-8 text is cut at a character boundary.
func truncateMin(v []byte, n int, text bool) []byte {
	if len(v) <= n {
		return v
	}
	if text && utf8.Valid(v) {
		for n > 0 && !utf8.RuneStart(v[n]) {
			n--
		}
	}
	return v[:n:n]
}

// truncateMax returns a value of at most n bytes that sorts after every
// value starting with v's first n bytes (so after v), or ok false when no
// such value exists (all 0xFF bytes).
func truncateMax(v []byte, n int, text bool) ([]byte, bool) {
	if len(v) <= n {
		return nil, false
	}
	if text && utf8.Valid(v) {
		cut := n
		for cut > 0 && !utf8.RuneStart(v[cut]) {
			cut--
		}
		p := v[:cut]
		// Increment the last character that can be; UTF-8 preserves code
		// point order, so a larger last character sorts after the prefix.
		for len(p) > 0 {
			r, size := utf8.DecodeLastRune(p)
			p = p[:len(p)-size]
			next := r + 1
			if next >= 0xD800 && next <= 0xDFFF {
				next = 0xE000
			}
			if next <= utf8.MaxRune {
				out := append(bytes.Clone(p), string(next)...)
				if len(out) <= n {
					return out, true
				}
			}
		}
		// Fall back to bytes below.
	}
	p := bytes.Clone(v[:n])
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] != 0xFF {
			p[i]++
			return p[: i+1 : i+1], true
		}
	}
	return nil, false
}
