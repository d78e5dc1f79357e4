package differential

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Kind is the class of a normalised value. Results are compared by
// class, not by SQL type: the engines may type a result differently
// (DuckDB's SUM of BIGINT is a HUGEINT, its AVG of a DECIMAL a DOUBLE)
// and still agree on the value.
type Kind int

const (
	KNull Kind = iota
	KBool
	KExact // integers of every width and decimals, as exact rationals
	KFloat
	KString
	KTime  // DATE and TIMESTAMP[TZ], as UTC microseconds since the epoch (and nanoseconds)
	KOther // anything else, compared as text
	// Nested values and intervals (compare_nested.go).
	KList     // Elems in order
	KStruct   // Names (sorted) and Elems
	KMap      // Elems: key, value, key, value, ... in key order
	KInterval // S: months, days and microseconds
)

// Value is one normalised cell.
type Value struct {
	Kind Kind
	// Dec marks an exact value of a DECIMAL column: a float only equals
	// it when it is the float nearest to it.
	Dec bool
	B   bool
	R   *big.Rat
	F   float64
	S   string
	T   int64
	// N is the nanoseconds of a KTime beyond its microseconds
	// (TIMESTAMP_NS).
	N     int
	Elems []Value
	Names []string
}

// Tolerances of float comparisons: relative, with an absolute floor for
// results near zero.
const (
	RelTol = 1e-9
	AbsTol = 1e-12
)

// ExactInt returns an exact integer value.
func ExactInt(i *big.Int) Value { return Value{Kind: KExact, R: new(big.Rat).SetInt(i)} }

// Normalize turns a value scanned from either engine into a Value.
// dbType is the column's DatabaseTypeName: carquet returns DECIMAL as
// exact text, which must not be compared as a string.
func Normalize(v any, dbType string) (Value, error) {
	if nv, ok, err := normalizeNested(v, dbType); ok || err != nil {
		return nv, err
	}
	switch x := v.(type) {
	case nil:
		return Value{Kind: KNull}, nil
	case bool:
		return Value{Kind: KBool, B: x}, nil
	case int64:
		return ExactInt(big.NewInt(x)), nil
	case int32:
		return ExactInt(big.NewInt(int64(x))), nil
	case int16:
		return ExactInt(big.NewInt(int64(x))), nil
	case int8:
		return ExactInt(big.NewInt(int64(x))), nil
	case int:
		return ExactInt(big.NewInt(int64(x))), nil
	case uint64:
		return ExactInt(new(big.Int).SetUint64(x)), nil
	case uint32:
		return ExactInt(big.NewInt(int64(x))), nil
	case uint16:
		return ExactInt(big.NewInt(int64(x))), nil
	case uint8:
		return ExactInt(big.NewInt(int64(x))), nil
	case *big.Int:
		return ExactInt(x), nil
	case float64:
		return Value{Kind: KFloat, F: x}, nil
	case float32:
		return Value{Kind: KFloat, F: float64(x)}, nil
	case string:
		if exactText(dbType) {
			r, ok := new(big.Rat).SetString(x)
			if !ok {
				return Value{}, fmt.Errorf("bad decimal text %q", x)
			}
			return Value{Kind: KExact, R: r}, nil
		}
		return Value{Kind: KString, S: x}, nil
	case []byte:
		return Value{Kind: KString, S: string(x)}, nil
	case time.Time:
		return Value{Kind: KTime, T: x.UnixMicro(), N: x.Nanosecond() % 1000}, nil
	}
	return Value{Kind: KOther, S: fmt.Sprintf("%T:%v", v, v)}, nil
}

// exactText reports the types whose values carquet hands out as exact
// text: DECIMAL, and HUGEINT inside nested values.
func exactText(dbType string) bool {
	t := strings.ToUpper(dbType)
	return strings.HasPrefix(t, "DECIMAL") || strings.HasPrefix(t, "NUMERIC") || t == "HUGEINT" || t == "UHUGEINT"
}

// ExactDecimal is unscaled × 10^-scale.
func ExactDecimal(unscaled *big.Int, scale int) Value {
	den := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)
	return Value{Kind: KExact, R: new(big.Rat).SetFrac(unscaled, den)}
}

// String renders v for reports: exact numbers without trailing zeros,
// floats in the shortest form, times as UTC text.
func (v Value) String() string {
	switch v.Kind {
	case KNull:
		return "NULL"
	case KBool:
		return strconv.FormatBool(v.B)
	case KExact:
		return exactString(v.R)
	case KFloat:
		return strconv.FormatFloat(v.F, 'g', -1, 64) + "f"
	case KString:
		return strconv.Quote(v.S)
	case KTime:
		if v.N != 0 {
			return time.UnixMicro(v.T).UTC().Add(time.Duration(v.N)).Format("2006-01-02 15:04:05.999999999")
		}
		return time.UnixMicro(v.T).UTC().Format("2006-01-02 15:04:05.999999")
	case KList, KStruct, KMap:
		return nestedString(v)
	}
	return v.S
}

// exactString is the exact decimal text of r when it has one (every
// integer and decimal does), trailing zeros removed.
func exactString(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	// A decimal's denominator divides a power of ten; 40 digits cover
	// DECIMAL(38) and the products of two of them.
	for digits := 1; digits <= 80; digits++ {
		s := r.FloatString(digits)
		back, _ := new(big.Rat).SetString(s)
		if back.Cmp(r) == 0 {
			return s
		}
	}
	return r.String()
}

// floatOf is v as a float64 when it is a number.
func (v Value) floatOf() (float64, bool) {
	switch v.Kind {
	case KFloat:
		return v.F, true
	case KExact:
		f, _ := v.R.Float64()
		return f, true
	}
	return 0, false
}

// Equal compares two normalised values: exact numbers exactly, a float
// with any number within the tolerances, NaN equal to NaN, infinities by
// sign. (A DECIMAL result that one engine computes in floating point is
// caught by its type, see TypeLoss, not by its value: whether a float sum
// happens to round to the decimal's nearest float depends on the order
// of the rows.)
func Equal(a, b Value) bool {
	if a.Kind == KExact && b.Kind == KExact {
		return a.R.Cmp(b.R) == 0
	}
	if a.Kind == KFloat || b.Kind == KFloat {
		x, ok1 := a.floatOf()
		y, ok2 := b.floatOf()
		return ok1 && ok2 && floatsClose(x, y)
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case KNull:
		return true
	case KBool:
		return a.B == b.B
	case KTime:
		return a.T == b.T && a.N == b.N
	case KList, KStruct, KMap:
		return equalNested(a, b)
	}
	return a.S == b.S
}

func floatsClose(x, y float64) bool {
	switch {
	case math.IsNaN(x) || math.IsNaN(y):
		return math.IsNaN(x) && math.IsNaN(y)
	case math.IsInf(x, 0) || math.IsInf(y, 0):
		return x == y
	}
	d := math.Abs(x - y)
	return d <= AbsTol || d <= RelTol*math.Max(math.Abs(x), math.Abs(y))
}

// sortKey orders values for comparing results as multisets. Numbers of
// both kinds share one key, rounded so that values within the tolerance
// usually get the same one.
func (v Value) sortKey() string {
	switch v.Kind {
	case KNull:
		return "0"
	case KBool:
		return "1" + strconv.FormatBool(v.B)
	case KExact, KFloat:
		f, _ := v.floatOf()
		if f == 0 {
			f = 0 // -0
		}
		s := "2" + strconv.FormatFloat(f, 'e', 9, 64)
		if v.Kind == KExact {
			// Exact values that round to the same float still sort apart.
			s += "|" + exactString(v.R)
		}
		return s
	case KString:
		return "3" + v.S
	case KTime:
		return "4" + strconv.FormatInt(v.T, 10) + "." + strconv.Itoa(v.N)
	case KList, KStruct, KMap:
		return nestedSortKey(v)
	}
	return "5" + v.S
}

// TypeLoss compares the column types of two results (want from DuckDB,
// got from carquet) and reports the first column DuckDB computes as an
// exact DECIMAL and carquet as a float: digits are lost there even when
// the values agree within the tolerance. The reverse (carquet exact where
// DuckDB uses a float, as for DuckDB's AVG of a DECIMAL) loses nothing.
func TypeLoss(want, got *Result) string {
	for i := range min(len(want.Types), len(got.Types)) {
		if isDecimalType(want.Types[i]) && isFloatType(got.Types[i]) {
			return fmt.Sprintf("column %d: DuckDB %s, carquet %s (a decimal computed in floating point)", i+1, want.Types[i], got.Types[i])
		}
	}
	return ""
}

func isDecimalType(name string) bool {
	return strings.HasPrefix(name, "DECIMAL") || strings.HasPrefix(name, "NUMERIC")
}

func isFloatType(name string) bool { return name == "DOUBLE" || name == "FLOAT" || name == "REAL" }

// Result is what one engine returned for a statement.
type Result struct {
	Types []string
	Rows  [][]Value
	Err   error
}

// RowKey is the sort key of a row.
func RowKey(row []Value) string {
	var b strings.Builder
	for i, v := range row {
		if i > 0 {
			b.WriteByte(0)
		}
		b.WriteString(v.sortKey())
	}
	return b.String()
}

// Diff compares two results (want from DuckDB, got from carquet); ordered
// compares rows in order, otherwise as multisets. It returns "" when they
// agree, else what differs first.
func Diff(want, got *Result, ordered bool) string {
	if len(want.Rows) != len(got.Rows) {
		return fmt.Sprintf("%d rows from DuckDB, %d from carquet", len(want.Rows), len(got.Rows))
	}
	if len(want.Rows) > 0 && len(want.Rows[0]) != len(got.Rows[0]) {
		return fmt.Sprintf("%d columns from DuckDB, %d from carquet", len(want.Rows[0]), len(got.Rows[0]))
	}
	w, g := want.Rows, got.Rows
	if !ordered {
		w, g = sortedRows(w), sortedRows(g)
	}
	for i := range w {
		for j := range w[i] {
			if !Equal(w[i][j], g[i][j]) {
				how := "row"
				if !ordered {
					how = "sorted row"
				}
				return fmt.Sprintf("%s %d, column %d: DuckDB %s, carquet %s", how, i, j+1, w[i][j], g[i][j])
			}
		}
	}
	return ""
}

func sortedRows(rows [][]Value) [][]Value {
	keys := make([]string, len(rows))
	idx := make([]int, len(rows))
	for i, r := range rows {
		keys[i] = RowKey(r)
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return strings.Compare(keys[a], keys[b]) })
	out := make([][]Value, len(rows))
	for i, k := range idx {
		out[i] = rows[k]
	}
	return out
}

// Format renders a result for a report, at most limit rows.
func (r *Result) Format(limit int) string {
	if r.Err != nil {
		return "error: " + r.Err.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d rows %v", len(r.Rows), r.Types)
	for i, row := range r.Rows {
		if i == limit {
			fmt.Fprintf(&b, "\n      ... %d more", len(r.Rows)-limit)
			break
		}
		b.WriteString("\n      ")
		for j, v := range row {
			if j > 0 {
				b.WriteString(" | ")
			}
			b.WriteString(v.String())
		}
	}
	return b.String()
}
