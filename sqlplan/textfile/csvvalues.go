package textfile

import (
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// read_csv's values: the text of each field parsed straight into its
// column's vector (BOOLEAN, the integers, DOUBLE, DATE, TIME, TIMESTAMP,
// VARCHAR), other types through the engine's cast from VARCHAR; and the
// sniffer's tests of which type a field's text is.

// fieldText is a field's bytes as a string, without a copy: it lives as
// long as the batch's text and is never kept past it.
func fieldText(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// csvTypeCandidates are the types the sniffer tries, most specific first
// (DuckDB's order); VARCHAR is the last resort.
var csvTypeCandidates = []vec.Type{{Kind: vec.KBool}, tBigint, {Kind: vec.KFloat}, {Kind: vec.KTime}, {Kind: vec.KDate}, {Kind: vec.KTimestamp}}

// csvFormats are the user's dateformat and timestampformat, "" for ISO,
// and whether numbers are written with a decimal comma.
type csvFormats struct {
	date, stamp string
	comma       bool
}

// sniffFits reports whether a field's text is a value of candidate k of
// csvTypeCandidates, as the sniffer takes it: stricter than the cast
// (only true/false are booleans, a date has no time of day).
func sniffFits(k int, s string, f csvFormats) bool {
	switch k {
	case 0:
		return strings.EqualFold(s, "true") || strings.EqualFold(s, "false")
	case 1:
		_, ok := parseCSVInt(s)
		return ok
	case 2:
		_, ok := parseCSVFloat(s, f.comma)
		return ok
	case 3:
		if strings.ContainsAny(s, "-/ T") || !strings.Contains(s, ":") {
			return false
		}
		_, err := function.ParseTimeText(s, false)
		return err == nil
	case 4:
		if f.date == "" && (strings.ContainsAny(s, ": T") || !isoShaped(s)) {
			return false
		}
		_, err := parseCSVDate(s, f.date)
		return err == nil
	case 5:
		if f.stamp == "" && (!strings.Contains(s, ":") || !isoShaped(s)) {
			return false
		}
		_, err := parseCSVStamp(s, f.stamp, vec.Type{Kind: vec.KTimestamp})
		return err == nil
	}
	return false
}

// isoShaped reports whether a text begins as an ISO date, YYYY-MM-:
// other shapes are left to the sniffer's formats, as DuckDB does.
func isoShaped(s string) bool {
	if len(s) < 8 || s[4] != '-' {
		return false
	}
	for _, c := range []byte(s[:4]) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// hasZone reports whether an ISO timestamp's text ends with a UTC offset
// or Z: the sniffer makes such a column TIMESTAMP WITH TIME ZONE.
func hasZone(s string) bool {
	return len(s) > 19 && strings.ContainsAny(s[19:], "+-Z")
}

// parseCSVInt parses a decimal integer with an optional sign.
func parseCSVInt(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	neg := s[0] == '-'
	digits := s
	if neg || s[0] == '+' {
		digits = s[1:]
	}
	if digits == "" || len(digits) > 19 {
		return 0, false
	}
	var u uint64
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		u = u*10 + uint64(c-'0')
	}
	switch {
	case neg && u <= 1<<63:
		return int64(-u), true
	case !neg && u < 1<<63:
		return int64(u), true
	}
	return 0, false
}

// parseCSVFloat parses a decimal number, with an exponent or not, inf
// and nan (not Go's hexadecimal floats nor its underscores); with comma,
// its decimal separator is a comma.
func parseCSVFloat(s string, comma bool) (float64, bool) {
	if s == "" || strings.ContainsAny(s, "_xXpP") {
		return 0, false
	}
	if comma {
		if strings.IndexByte(s, '.') >= 0 {
			return 0, false
		}
		s = strings.Replace(s, ",", ".", 1)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, true // ±Inf or 0, as DuckDB rounds
		}
		return 0, false
	}
	return f, true
}

// parseCSVBool takes DuckDB's boolean texts.
func parseCSVBool(s string) (bool, bool) {
	switch strings.ToLower(s) {
	case "true", "t", "1", "y", "yes":
		return true, true
	case "false", "f", "0", "n", "no":
		return false, true
	}
	return false, false
}

// parseCSVDate parses a date, ISO or with a strptime format.
func parseCSVDate(s, format string) (int64, error) {
	if format == "" {
		return function.ParseDateText(s)
	}
	us, err := function.Strptime(s, format)
	return vec.FloorDiv(us, vec.MicrosPerDay), err
}

// parseCSVStamp parses a timestamp, ISO or with a strptime format.
func parseCSVStamp(s, format string, t vec.Type) (int64, error) {
	if format == "" {
		return function.ParseTimestampText(s, t)
	}
	return function.Strptime(s, format)
}

// csvConvert makes the VARCHAR column text (n rows) a column of type t.
// bad gets the first row whose text is not a value of t, -1 if none;
// with skipBad the bad rows are marked in drop and made NULL instead.
func csvConvert(text *vec.Col, n int, t vec.Type, f csvFormats, drop []bool) (*vec.Col, int, error) {
	if t.Kind == vec.KString && !t.Bit {
		out := *text
		out.T, out.Len = t, n
		return &out, -1, nil
	}
	out := &vec.Col{T: t, Len: n, Null: text.Null[:n]}
	var parse func(s string, r int) bool
	switch {
	case t.Kind == vec.KBool:
		out.B = make([]bool, n)
		parse = func(s string, r int) (ok bool) { out.B[r], ok = parseCSVBool(s); return ok }
	case t.Kind == vec.KInt:
		out.I = make([]int64, n)
		lo, hi := intRange(t.Bits)
		parse = func(s string, r int) bool {
			v, ok := parseCSVInt(s)
			out.I[r] = v
			return ok && v >= lo && v <= hi
		}
	case t.Kind == vec.KFloat:
		out.F = make([]float64, n)
		parse = func(s string, r int) (ok bool) { out.F[r], ok = parseCSVFloat(s, f.comma); return ok }
	case t.Kind == vec.KDate:
		out.I = make([]int64, n)
		parse = func(s string, r int) bool {
			v, err := parseCSVDate(s, f.date)
			out.I[r] = v
			return err == nil
		}
	case t.Kind == vec.KTimestamp && t.Coarse == 0:
		out.I = make([]int64, n)
		parse = func(s string, r int) bool {
			v, err := parseCSVStamp(s, f.stamp, t)
			out.I[r] = v
			return err == nil
		}
	case t.Kind == vec.KTime && t.Coarse == 0 && !t.TZ:
		out.I = make([]int64, n)
		parse = func(s string, r int) bool {
			v, err := function.ParseTimeText(s, t.Nanos)
			out.I[r] = v
			return err == nil
		}
	case t.Kind == vec.KDecimal && f.comma:
		return castCSVText(decimalPoints(text, n), n, t, drop)
	default:
		return castCSVText(text, n, t, drop)
	}
	ownNull := false
	for r := 0; r < n; r++ {
		if out.Null[r] || parse(fieldText(text.Str(r)), r) {
			continue
		}
		if drop == nil {
			return nil, r, nil
		}
		if !ownNull {
			out.Null, ownNull = append([]bool(nil), out.Null...), true
		}
		out.Null[r], drop[r] = true, true
	}
	return out, -1, nil
}

// decimalPoints is text with its decimal commas made points, for the
// cast (and its points made commas, so that they do not read).
func decimalPoints(text *vec.Col, n int) *vec.Col {
	out := *text
	out.Data = make([]byte, text.Off[n])
	for i, c := range text.Data[:text.Off[n]] {
		switch c {
		case ',':
			c = '.'
		case '.':
			c = ','
		}
		out.Data[i] = c
	}
	return &out
}

// castCSVText casts text to a type read_csv does not parse itself
// (DECIMAL, UUID, lists, ...) with the engine's cast, row by row only to
// find the bad row.
func castCSVText(text *vec.Col, n int, t vec.Type, drop []bool) (*vec.Col, int, error) {
	in := *text
	in.Len = n
	out, err := function.CastCol(&in, t, true)
	if err != nil {
		return nil, -1, err
	}
	for r := 0; r < n; r++ {
		if !in.IsNull(r) && out.IsNull(r) {
			if drop == nil {
				return nil, r, nil
			}
			drop[r] = true
		}
	}
	return out, -1, nil
}

// intRange is the range of an integer type of bits bits (0 is 64).
func intRange(bits int) (int64, int64) {
	if bits == 0 || bits >= 64 {
		return math.MinInt64, math.MaxInt64
	}
	return -1 << (bits - 1), 1<<(bits-1) - 1
}
