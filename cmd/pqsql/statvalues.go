package main

import (
	"bytes"
	"math"
	"strings"
	"time"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/parquet/vector"
)

// decodeStat decodes a statistics or column index bound (PLAIN bytes of
// the leaf's physical type, byte arrays without a length prefix) into the
// Go value of the leaf's logical type. ok is false for bytes of the wrong
// length.
func decodeStat(n *schema.Node, b []byte) (v any, ok bool) {
	vec := vector.Vector{Kind: file.KindOf(n.Physical), Len: 1}
	switch n.Physical {
	case format.Boolean:
		if len(b) < 1 {
			return nil, false
		}
		vec.Bools = []bool{b[0] != 0}
	case format.Int32:
		if len(b) != 4 {
			return nil, false
		}
		vec.Int32s = []int32{int32(le32(b))}
	case format.Int64:
		if len(b) != 8 {
			return nil, false
		}
		vec.Int64s = []int64{int64(le64(b))}
	case format.Int96:
		if len(b) != 12 {
			return nil, false
		}
		vec.Int96s = [][12]byte{[12]byte(b)}
	case format.Float:
		if len(b) != 4 {
			return nil, false
		}
		vec.Float32s = []float32{math.Float32frombits(le32(b))}
	case format.Double:
		if len(b) != 8 {
			return nil, false
		}
		vec.Float64s = []float64{math.Float64frombits(le64(b))}
	case format.FixedLenByteArray:
		if len(b) != n.TypeLength {
			return nil, false
		}
		vec.Width = n.TypeLength
		vec.Data = b
	default:
		vec.Data = b
		vec.Offsets = []int32{0, int32(len(b))}
	}
	return value.Primitive(n, &vec, 0), true
}

func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

func le64(b []byte) uint64 {
	return uint64(le32(b)) | uint64(le32(b[4:]))<<32
}

// ordered reports whether a leaf's values have an order in which
// statistics are kept (INT96 and INTERVAL have none).
func ordered(n *schema.Node) bool {
	if n.Physical == format.Int96 {
		return false
	}
	if n.Converted.Set && n.Converted.Value == format.Interval {
		return false
	}
	if lt := n.Logical; lt != nil && (lt.Geometry != nil || lt.Geography != nil || lt.Variant != nil) {
		return false
	}
	return true
}

// chunkBounds returns the decoded min and max of chunk statistics:
// min_value/max_value, or the deprecated min/max for the types whose old
// signed order is still right. legacy reports the deprecated fields.
func chunkBounds(n *schema.Node, st *format.Statistics) (lo, hi any, haveLo, haveHi, legacy bool) {
	if st == nil || !ordered(n) {
		return nil, nil, false, false, false
	}
	minB, maxB := st.MinValue, st.MaxValue
	if minB == nil && maxB == nil && legacySigned(n) {
		minB, maxB, legacy = st.Min, st.Max, true
	}
	if minB != nil {
		lo, haveLo = decodeStat(n, minB)
	}
	if maxB != nil {
		hi, haveHi = decodeStat(n, maxB)
	}
	return
}

// legacySigned reports whether the deprecated min/max fields (written in
// signed order by old writers) can be trusted for a leaf.
func legacySigned(n *schema.Node) bool {
	switch n.Physical {
	case format.Boolean, format.Float, format.Double:
		return true
	case format.Int32, format.Int64:
		lt := n.Logical
		return lt == nil || lt.Integer == nil || lt.Integer.IsSigned
	}
	return false
}

// compareValues orders two Go values of the same logical type. ok is
// false when they cannot be ordered (NaN, no order, different types).
func compareValues(a, b any) (c int, ok bool) {
	switch x := a.(type) {
	case bool:
		y, ok := b.(bool)
		if !ok {
			return 0, false
		}
		switch {
		case x == y:
			return 0, true
		case !x:
			return -1, true
		}
		return 1, true
	case int8:
		return cmpInt(int64(x), b)
	case int16:
		return cmpInt(int64(x), b)
	case int32:
		return cmpInt(int64(x), b)
	case int64:
		return cmpInt(x, b)
	case uint8:
		return cmpUint(uint64(x), b)
	case uint16:
		return cmpUint(uint64(x), b)
	case uint32:
		return cmpUint(uint64(x), b)
	case uint64:
		return cmpUint(x, b)
	case float32:
		return cmpFloat(float64(x), b)
	case float64:
		return cmpFloat(x, b)
	case string:
		y, ok := b.(string)
		if !ok {
			return 0, false
		}
		return strings.Compare(x, y), true
	case []byte:
		y, ok := b.([]byte)
		if !ok {
			return 0, false
		}
		return bytes.Compare(x, y), true
	case time.Time:
		y, ok := b.(time.Time)
		if !ok {
			return 0, false
		}
		return x.Compare(y), true
	case value.Decimal:
		y, ok := b.(value.Decimal)
		if !ok || x.Unscaled == nil || y.Unscaled == nil {
			return 0, false
		}
		return x.Cmp(y), true
	}
	return 0, false
}

func toInt(b any) (int64, bool) {
	switch y := b.(type) {
	case int8:
		return int64(y), true
	case int16:
		return int64(y), true
	case int32:
		return int64(y), true
	case int64:
		return y, true
	}
	return 0, false
}

func cmpInt(x int64, b any) (int, bool) {
	y, ok := toInt(b)
	if !ok {
		return 0, false
	}
	switch {
	case x < y:
		return -1, true
	case x > y:
		return 1, true
	}
	return 0, true
}

func cmpUint(x uint64, b any) (int, bool) {
	var y uint64
	switch v := b.(type) {
	case uint8:
		y = uint64(v)
	case uint16:
		y = uint64(v)
	case uint32:
		y = uint64(v)
	case uint64:
		y = v
	default:
		return 0, false
	}
	switch {
	case x < y:
		return -1, true
	case x > y:
		return 1, true
	}
	return 0, true
}

func cmpFloat(x float64, b any) (int, bool) {
	var y float64
	switch v := b.(type) {
	case float32:
		y = float64(v)
	case float64:
		y = v
	default:
		return 0, false
	}
	if math.IsNaN(x) || math.IsNaN(y) {
		return 0, false
	}
	switch {
	case x < y:
		return -1, true
	case x > y:
		return 1, true
	}
	return 0, true
}

// isNaN reports NaN floats (FLOAT16 values come as float32).
func isNaN(v any) bool {
	switch x := v.(type) {
	case float32:
		return x != x
	case float64:
		return x != x
	}
	return false
}
