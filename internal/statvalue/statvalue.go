// Package statvalue decodes Parquet statistics and page index bounds into
// Go values of their columns' logical types and orders such values, for
// pqsql's stat and validate commands (and the validator in
// internal/validate).
package statvalue

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/parquet/vector"
)

// Decode decodes a statistics or column index bound (PLAIN bytes of
// the leaf's physical type, byte arrays without a length prefix) into the
// Go value of the leaf's logical type. ok is false for bytes of the wrong
// length.
func Decode(n *schema.Node, b []byte) (v any, ok bool) {
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

// Ordered reports whether a leaf's values have an order in which
// statistics are kept (INT96 and INTERVAL have none).
func Ordered(n *schema.Node) bool {
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

// ChunkBounds returns the decoded min and max of chunk statistics:
// min_value/max_value, or the deprecated min/max for the types whose old
// signed order is still right. legacy reports the deprecated fields.
func ChunkBounds(n *schema.Node, st *format.Statistics) (lo, hi any, haveLo, haveHi, legacy bool) {
	if st == nil || !Ordered(n) {
		return nil, nil, false, false, false
	}
	minB, maxB := st.MinValue, st.MaxValue
	if minB == nil && maxB == nil && legacySigned(n) {
		minB, maxB, legacy = st.Min, st.Max, true
	}
	if minB != nil {
		lo, haveLo = Decode(n, minB)
	}
	if maxB != nil {
		hi, haveHi = Decode(n, maxB)
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

// Compare orders two Go values of the same logical type. ok is
// false when they cannot be Ordered (NaN, no order, different types).
func Compare(a, b any) (c int, ok bool) {
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

// ToInt is a signed integer value of any width as an int64.
func ToInt(b any) (int64, bool) {
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
	y, ok := ToInt(b)
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

// IsNaN reports NaN floats (FLOAT16 values come as float32).
func IsNaN(v any) bool {
	switch x := v.(type) {
	case float32:
		return x != x
	case float64:
		return x != x
	}
	return false
}

// Less reports whether a orders before b (see Compare).
func Less(a, b any) bool {
	c, ok := Compare(a, b)
	return ok && c < 0
}

// SQLType names a primitive column's type the way the SQL engine does.
func SQLType(n *schema.Node) string {
	if lt := n.Logical; lt != nil {
		switch {
		case lt.String != nil, lt.Enum != nil:
			return "VARCHAR"
		case lt.JSON != nil:
			return "JSON"
		case lt.UUID != nil:
			return "UUID"
		case lt.Decimal != nil:
			return fmt.Sprintf("DECIMAL(%d,%d)", lt.Decimal.Precision, lt.Decimal.Scale)
		case lt.Date != nil:
			return "DATE"
		case lt.Time != nil:
			return "TIME"
		case lt.Timestamp != nil:
			if lt.Timestamp.IsAdjustedToUTC {
				return "TIMESTAMPTZ"
			}
			return "TIMESTAMP"
		case lt.Float16 != nil:
			return "FLOAT"
		case lt.Integer != nil:
			names := map[int8]string{8: "TINYINT", 16: "SMALLINT", 32: "INTEGER", 64: "BIGINT"}
			s := names[lt.Integer.BitWidth]
			if s == "" {
				s = "BIGINT"
			}
			if !lt.Integer.IsSigned {
				s = "U" + s
			}
			return s
		case lt.Unknown != nil:
			return "NULL"
		}
	}
	if n.Converted.Set && n.Converted.Value == format.Interval {
		return "INTERVAL"
	}
	switch n.Physical {
	case format.Boolean:
		return "BOOLEAN"
	case format.Int32:
		return "INTEGER"
	case format.Int64:
		return "BIGINT"
	case format.Int96:
		return "TIMESTAMP"
	case format.Float:
		return "FLOAT"
	case format.Double:
		return "DOUBLE"
	}
	return "BLOB"
}
