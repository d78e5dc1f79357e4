package delta

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/carquet-go/carquet/internal/statvalue"
	"github.com/carquet-go/carquet/parquet/value"
)

// Writing a partitioned table: the rows of a write are split by the
// values of the partition columns, each part goes to a data file of its
// own under col=value/ folders (Hive's layout, as the reference
// implementation lays it; readers take the values from the log, not
// from the path), the values go to the add action's partitionValues as
// the protocol serializes them, and the data files hold the other
// columns only.

// HiveNull is the folder name of a null partition value.
const HiveNull = "__HIVE_DEFAULT_PARTITION__"

// PartitionValue serializes a partition column's value (as package
// parquet/value gives it for the column's Parquet type) by the column's
// Delta type, as the protocol's "Partition Value Serialization" says:
// nil for null (an empty string reads as null too, so an empty string
// value becomes nil), dates as 2006-01-02, timestamps in ISO 8601 in UTC
// with microseconds (the form the protocol recommends), timestamps
// without time zone as 2006-01-02 15:04:05.000000.
func PartitionValue(t *Type, v any) (*string, error) {
	if v == nil {
		return nil, nil
	}
	s, err := partitionString(t, v)
	if err != nil {
		return nil, err
	}
	if s == "" {
		return nil, nil
	}
	if !utf8.ValidString(s) {
		// JSON would replace the bad bytes: the value would change.
		return nil, fmt.Errorf("a %s partition value that is not valid UTF-8 (%q) has no faithful serialized form", t.Name, s)
	}
	return &s, nil
}

func partitionString(t *Type, v any) (string, error) {
	bad := func() (string, error) {
		return "", fmt.Errorf("a %T value in a partition column of type %s", v, t.Name)
	}
	switch t.Name {
	case "string":
		if s, ok := v.(string); ok {
			return s, nil
		}
	case "binary":
		switch x := v.(type) {
		case []byte:
			return string(x), nil
		case string:
			return x, nil
		}
	case "boolean":
		if b, ok := v.(bool); ok {
			return strconv.FormatBool(b), nil
		}
	case "byte", "short", "integer", "long":
		if n, ok := statvalue.ToInt(v); ok {
			return strconv.FormatInt(n, 10), nil
		}
	case "float", "double":
		var f float64
		switch x := v.(type) {
		case float32:
			f = float64(x)
		case float64:
			f = x
		default:
			return bad()
		}
		switch {
		case math.IsInf(f, 1):
			return "Infinity", nil // Java's spelling, which Go parses too
		case math.IsInf(f, -1):
			return "-Infinity", nil
		}
		bits := 64
		if t.Name == "float" {
			bits = 32
		}
		return strconv.FormatFloat(f, 'g', -1, bits), nil
	case "decimal":
		switch x := v.(type) {
		case value.Decimal:
			return x.String(), nil
		case *big.Rat:
			return x.FloatString(t.Scale), nil
		}
	case "date":
		if tm, ok := v.(time.Time); ok {
			return tm.UTC().Format("2006-01-02"), nil
		}
	case "timestamp":
		if tm, ok := v.(time.Time); ok {
			return tm.UTC().Format("2006-01-02T15:04:05.000000Z"), nil
		}
	case "timestamp_ntz":
		if tm, ok := v.(time.Time); ok {
			return tm.UTC().Format("2006-01-02 15:04:05.000000"), nil
		}
	default:
		return "", fmt.Errorf("a partition column of type %s is not supported", t.Name)
	}
	return bad()
}

// CheckPartitionType refuses a partition column of a type whose values
// have no serialized form (structs, arrays, maps).
func CheckPartitionType(name string, t *Type) error {
	switch t.Name {
	case "struct", "array", "map":
		return fmt.Errorf("delta: partition column %q is a %s; partition columns are of primitive types", name, t.Name)
	}
	return nil
}

// PartitionDir is the folder (relative to the table root, slash
// separated, without a trailing slash) of a data file with the partition
// values vals of the columns named names: name=value for each, escaped
// as Hive escapes path names, null as HiveNull. "" when there are no
// partition columns.
func PartitionDir(names []string, vals []*string) string {
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(escapePathName(n))
		b.WriteByte('=')
		if vals[i] == nil {
			b.WriteString(HiveNull)
		} else {
			b.WriteString(escapePathName(*vals[i]))
		}
	}
	return b.String()
}

// escapePathName escapes the characters Hive (and Spark after it) escape
// in a partition folder's name: control characters and "#%'*/:=?\{[]^
// and DEL, as %XX. (The add action's path, a URI, then escapes the %.)
func escapePathName(s string) string {
	return percentEscape(s, func(c byte) bool {
		return c < 0x20 || c == 0x7F || strings.IndexByte("\"#%'*/:=?\\{[]^", c) >= 0
	})
}

// FileType is the type of the data files of a table of type t: its
// fields less the partition columns, each named by its physical name
// (the same as its logical one without column mapping), nested struct
// fields too, with the column mapping ids as field ids.
func FileType(t *Type, partitionColumns []string) *Type {
	out := &Type{Name: "struct"}
	for _, f := range t.Fields {
		if isPartition(partitionColumns, f.Name) {
			continue
		}
		out.Fields = append(out.Fields, physicalField(f))
	}
	return out
}

func isPartition(cols []string, name string) bool {
	for _, c := range cols {
		if strings.EqualFold(c, name) {
			return true
		}
	}
	return false
}

func physicalField(f *Field) *Field {
	g := *f
	g.Name, g.Type = f.PhysicalName, physicalType(f.Type)
	return &g
}

func physicalType(t *Type) *Type {
	u := *t
	switch t.Name {
	case "struct":
		u.Fields = make([]*Field, len(t.Fields))
		for i, f := range t.Fields {
			u.Fields[i] = physicalField(f)
		}
	case "array":
		u.Element = physicalType(t.Element)
	case "map":
		u.Key, u.Value = physicalType(t.Key), physicalType(t.Value)
	}
	return &u
}
