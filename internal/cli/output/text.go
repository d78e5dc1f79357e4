package output

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Timestamp layouts: tables show a space between date and time, the
// machine formats RFC 3339 (what pqsql import and most tools parse).
const (
	TableTimestamp   = "2006-01-02 15:04:05.999999999"
	MachineTimestamp = time.RFC3339Nano
	DateLayout       = "2006-01-02"
	TimeLayout       = "15:04:05.999999999"
)

// Column describes one output column.
type Column struct {
	Name string
	// Type is the SQL type name (BIGINT, DOUBLE, DATE, TIMESTAMP, ...),
	// which decides how times print and whether values align right; ""
	// when unknown.
	Type string
}

func typeKind(typ string) string {
	t := strings.ToUpper(typ)
	if i := strings.IndexByte(t, '('); i >= 0 {
		t = t[:i]
	}
	return strings.TrimSpace(t)
}

// Numeric reports whether values of SQL type typ are numbers.
func Numeric(typ string) bool {
	switch typeKind(typ) {
	case "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT",
		"HUGEINT", "FLOAT", "REAL", "DOUBLE", "DECIMAL", "NUMERIC", "INT", "INT32", "INT64":
		return true
	}
	return false
}

// Text formats v as text: machine selects the machine-readable forms
// (RFC 3339 timestamps) over the table ones. Nil gives "".
func Text(v any, typ string, machine bool) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []byte:
		return Bytes(x)
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case int16:
		return strconv.FormatInt(int64(x), 10)
	case int8:
		return strconv.FormatInt(int64(x), 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case uint32:
		return strconv.FormatUint(uint64(x), 10)
	case uint16:
		return strconv.FormatUint(uint64(x), 10)
	case uint8:
		return strconv.FormatUint(uint64(x), 10)
	case float64:
		if typ == "FLOAT" || typ == "REAL" {
			return Float(x, 32) // a FLOAT column's values are float32s, widened
		}
		return Float(x, 64)
	case float32:
		return Float(float64(x), 32)
	case time.Time:
		return Time(x, typ, machine)
	case *big.Int:
		return x.String()
	case fmt.Stringer:
		return x.String()
	case []any, map[string]any, map[any]any:
		return JSONText(v)
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Map, reflect.Struct, reflect.Array:
		return JSONText(v)
	}
	return fmt.Sprint(v)
}

// Float formats a float in its shortest exact form, keeping a ".0" on
// integral values so that they read back as floats.
func Float(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	a := math.Abs(f)
	if a != 0 && (a >= 1e16 || a < 1e-5) {
		return strconv.FormatFloat(f, 'e', -1, bits)
	}
	s := strconv.FormatFloat(f, 'f', -1, bits)
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}

// Time formats a time by its SQL type: DATE and TIME print only their
// part; timestamps print in the table or the machine layout.
func Time(t time.Time, typ string, machine bool) string {
	switch typeKind(typ) {
	case "DATE":
		return withEra(t, DateLayout)
	case "TIME", "TIME_NS":
		if t.Equal(clockEnd) {
			return "24:00:00"
		}
		return t.Format(TimeLayout)
	case "TIMETZ":
		clock := t.Format(TimeLayout)
		if t.Day() == 2 {
			clock = "24:00:00" // the end of the day, as for TIME
		}
		return clock + zoneOffset(t)
	}
	if typ == "" && t.Year() == 1 && t.YearDay() == 1 {
		return t.Format(TimeLayout)
	}
	if machine {
		return t.Format(MachineTimestamp)
	}
	return withEra(t, TableTimestamp)
}

// zoneOffset is the UTC offset of t as DuckDB writes a TIMETZ's: ±HH,
// with :MM and :SS when they are not zero.
func zoneOffset(t time.Time) string {
	_, off := t.Zone()
	sign := "+"
	if off < 0 {
		sign, off = "-", -off
	}
	s := fmt.Sprintf("%s%02d", sign, off/3600)
	if off%3600 != 0 {
		s += fmt.Sprintf(":%02d", off/60%60)
		if off%60 != 0 {
			s += fmt.Sprintf(":%02d", off%60)
		}
	}
	return s
}

// clockEnd is how a TIME of 24:00:00 arrives: midnight after 0001-01-01.
var clockEnd = time.Date(1, 1, 2, 0, 0, 0, 0, time.UTC)

// withEra formats t by layout (a date first), writing a year before 1 as
// DuckDB does: the year BC, four digits at least, and " (BC)" after the
// date (year 0 is 0001-01-01 (BC)).
func withEra(t time.Time, layout string) string {
	s := t.Format(layout)
	if t.Year() > 0 {
		return s
	}
	date := strings.IndexByte(s[1:], '-') + 1 + len("-01-02")
	return fmt.Sprintf("%04d%s (BC)%s", 1-t.Year(), s[date-len("-01-02"):date], s[date:])
}

// Bytes shows binary values: as text when they are valid UTF-8 without
// control characters, else with \xHH escapes for the bytes that are not.
func Bytes(b []byte) string {
	if utf8.Valid(b) {
		clean := true
		for _, c := range b {
			if c < 0x20 && c != '\n' && c != '\t' && c != '\r' || c == 0x7F {
				clean = false
				break
			}
		}
		if clean {
			return string(b)
		}
	}
	var sb strings.Builder
	for _, c := range b {
		if c >= 0x20 && c < 0x7F && c != '\\' {
			sb.WriteByte(c)
		} else {
			fmt.Fprintf(&sb, `\x%02x`, c)
		}
	}
	return sb.String()
}

// JSONText is v as JSON text (for nested values in text formats).
func JSONText(v any) string {
	b, err := json.Marshal(jsonValue(v, ""))
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// jsonValue converts v into something encoding/json writes the way the
// JSON formats want: times as text, non-finite floats as strings, binary
// as text when printable (base64 otherwise), decimals as numbers.
func jsonValue(v any, typ string) any {
	if s, ok := v.(string); ok && (typeKind(typ) == "DECIMAL" || typeKind(typ) == "NUMERIC") && isDecimalText(s) {
		return json.Number(s)
	}
	switch x := v.(type) {
	case nil, bool, string, int64, int32, int16, int8, int, uint64, uint32, uint16, uint8:
		return x
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return Float(x, 64)
		}
		return json.Number(Float(x, 64))
	case float32:
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return Float(float64(x), 32)
		}
		return json.Number(Float(float64(x), 32))
	case []byte:
		if utf8.Valid(x) {
			return string(x)
		}
		return base64.StdEncoding.EncodeToString(x)
	case time.Time:
		return Time(x, typ, true)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonValue(e, "")
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsonValue(e, "")
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[Text(k, "", true)] = jsonValue(e, "")
		}
		return out
	case fmt.Stringer:
		if isDecimalText(x.String()) {
			return json.Number(x.String())
		}
		return x.String()
	}
	return v
}

// isDecimalText reports whether s is a plain decimal number, which JSON
// can carry as a number literal without loss of its text.
func isDecimalText(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == '-' {
		s = s[1:]
	}
	if s == "" || s[0] == '.' {
		return false
	}
	dot := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
		case c == '.' && !dot && i+1 < len(s):
			dot = true
		default:
			return false
		}
	}
	return len(s) == 1 || s[0] != '0' || s[1] == '.'
}
