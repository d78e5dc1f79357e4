package sqlplan

import (
	"fmt"
	"strings"
	"testing"
)

// unsignedResults are DuckDB's (v1.5) result types of + - * // % on every
// pair of integer types one of which at least is unsigned (/ is always a
// DOUBLE), as "left right result" lines.
const unsignedResults = `
BIGINT UBIGINT HUGEINT
BIGINT UHUGEINT DOUBLE
BIGINT UINTEGER BIGINT
BIGINT USMALLINT BIGINT
BIGINT UTINYINT BIGINT
HUGEINT UBIGINT HUGEINT
HUGEINT UHUGEINT DOUBLE
HUGEINT UINTEGER HUGEINT
HUGEINT USMALLINT HUGEINT
HUGEINT UTINYINT HUGEINT
INTEGER UBIGINT HUGEINT
INTEGER UHUGEINT DOUBLE
INTEGER UINTEGER BIGINT
INTEGER USMALLINT INTEGER
INTEGER UTINYINT INTEGER
SMALLINT UBIGINT HUGEINT
SMALLINT UHUGEINT DOUBLE
SMALLINT UINTEGER BIGINT
SMALLINT USMALLINT BIGINT
SMALLINT UTINYINT SMALLINT
TINYINT UBIGINT HUGEINT
TINYINT UHUGEINT DOUBLE
TINYINT UINTEGER BIGINT
TINYINT USMALLINT BIGINT
TINYINT UTINYINT BIGINT
UBIGINT BIGINT HUGEINT
UBIGINT HUGEINT HUGEINT
UBIGINT INTEGER HUGEINT
UBIGINT SMALLINT HUGEINT
UBIGINT TINYINT HUGEINT
UBIGINT UBIGINT UBIGINT
UBIGINT UHUGEINT UHUGEINT
UBIGINT UINTEGER UBIGINT
UBIGINT USMALLINT UBIGINT
UBIGINT UTINYINT UBIGINT
UHUGEINT BIGINT DOUBLE
UHUGEINT HUGEINT DOUBLE
UHUGEINT INTEGER DOUBLE
UHUGEINT SMALLINT DOUBLE
UHUGEINT TINYINT DOUBLE
UHUGEINT UBIGINT UHUGEINT
UHUGEINT UHUGEINT UHUGEINT
UHUGEINT UINTEGER UHUGEINT
UHUGEINT USMALLINT UHUGEINT
UHUGEINT UTINYINT UHUGEINT
UINTEGER BIGINT BIGINT
UINTEGER HUGEINT HUGEINT
UINTEGER INTEGER BIGINT
UINTEGER SMALLINT BIGINT
UINTEGER TINYINT BIGINT
UINTEGER UBIGINT UBIGINT
UINTEGER UHUGEINT UHUGEINT
UINTEGER UINTEGER UINTEGER
UINTEGER USMALLINT UINTEGER
UINTEGER UTINYINT UINTEGER
USMALLINT BIGINT BIGINT
USMALLINT HUGEINT HUGEINT
USMALLINT INTEGER INTEGER
USMALLINT SMALLINT BIGINT
USMALLINT TINYINT BIGINT
USMALLINT UBIGINT UBIGINT
USMALLINT UHUGEINT UHUGEINT
USMALLINT UINTEGER UINTEGER
USMALLINT USMALLINT USMALLINT
USMALLINT UTINYINT USMALLINT
UTINYINT BIGINT BIGINT
UTINYINT HUGEINT HUGEINT
UTINYINT INTEGER INTEGER
UTINYINT SMALLINT SMALLINT
UTINYINT TINYINT BIGINT
UTINYINT UBIGINT UBIGINT
UTINYINT UHUGEINT UHUGEINT
UTINYINT UINTEGER UINTEGER
UTINYINT USMALLINT USMALLINT
UTINYINT UTINYINT UTINYINT
`

// TestUnsignedArithmeticTypes checks the result type of every operator
// on every pair of integer types with an unsigned one against DuckDB's,
// and the values of 7 op 2 in it.
func TestUnsignedArithmeticTypes(t *testing.T) {
	e := newEngine(t)
	for _, line := range strings.Split(strings.TrimSpace(unsignedResults), "\n") {
		f := strings.Fields(line)
		a, b, want := f[0], f[1], f[2]
		q := fmt.Sprintf("SELECT typeof(7::%[1]s + 2::%[2]s), typeof(7::%[1]s - 2::%[2]s), typeof(7::%[1]s * 2::%[2]s), typeof(7::%[1]s / 2::%[2]s), "+
			"typeof(7::%[1]s // 2::%[2]s), typeof(7::%[1]s %% 2::%[2]s), (7::%[1]s + 2::%[2]s)::VARCHAR, (7::%[1]s - 2::%[2]s)::VARCHAR, "+
			"(7::%[1]s * 2::%[2]s)::VARCHAR, (7::%[1]s / 2::%[2]s)::VARCHAR, (7::%[1]s // 2::%[2]s)::VARCHAR, (7::%[1]s %% 2::%[2]s)::VARCHAR", a, b)
		got := fmt.Sprint(queryAll(t, e, q)[0])
		w := fmt.Sprintf("[%[1]s %[1]s %[1]s DOUBLE %[1]s %[1]s 9 5 14 3.5 3 1]", want)
		if want == "DOUBLE" {
			w = "[DOUBLE DOUBLE DOUBLE DOUBLE DOUBLE DOUBLE 9.0 5.0 14.0 3.5 3.5 1.0]" // DOUBLE // divides
		}
		if got != w {
			t.Errorf("%s op %s: got %s, want %s", a, b, got, w)
		}
	}
}

// TestUnsignedOverflow checks DuckDB's overflow errors of unsigned
// results, in constants and in columns, and that the results just inside
// the range are right.
func TestUnsignedOverflow(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE u (a UTINYINT, b USMALLINT, c UINTEGER, d UBIGINT)")
	exec(t, e, "INSERT INTO u VALUES (255, 65535, 4294967295, 18446744073709551615), (0, 0, 0, 0)")
	for q, want := range map[string]string{
		"SELECT 255::UTINYINT + 1::UTINYINT":                                   "Overflow in addition of UINT8 (255 + 1)!",
		"SELECT 200::UTINYINT + 100":                                           "Overflow in addition of UINT8 (200 + 100)!",
		"SELECT 0::UTINYINT - 1::UTINYINT":                                     "Overflow in subtraction of UINT8 (0 - 1)!",
		"SELECT 200::UTINYINT * 2::UTINYINT":                                   "Overflow in multiplication of UINT8 (200 * 2)!",
		"SELECT 65535::USMALLINT + 1::USMALLINT":                               "Overflow in addition of UINT16 (65535 + 1)!",
		"SELECT 4294967295::UINTEGER * 2::UINTEGER":                            "Overflow in multiplication of UINT32 (4294967295 * 2)!",
		"SELECT 0::UBIGINT - 1::UBIGINT":                                       "Overflow in subtraction of UINT64 (0 - 1)!",
		"SELECT 18446744073709551615::UBIGINT * 2::UBIGINT":                    "Overflow in multiplication of UINT64 (18446744073709551615 * 2)!",
		"SELECT a + 1 FROM u":                                                  "Overflow in addition of UINT8 (255 + 1)!",
		"SELECT b * 2 FROM u":                                                  "Overflow in multiplication of UINT16 (65535 * 2)!",
		"SELECT c + c FROM u":                                                  "Overflow in addition of UINT32 (4294967295 + 4294967295)!",
		"SELECT d + 1 FROM u":                                                  "Overflow in addition of UINT64 (18446744073709551615 + 1)!",
		"SELECT a - 1::UTINYINT FROM u WHERE a = 0":                            "Overflow in subtraction of UINT8 (0 - 1)!",
		"SELECT 9223372036854775807::BIGINT + 1::UINTEGER":                     "Overflow in addition of INT64 (9223372036854775807 + 1)!",
		"SELECT 4294967295::UINTEGER * 4294967295::UINTEGER":                   "Overflow in multiplication of UINT32 (4294967295 * 4294967295)!",
		"SELECT 18446744073709551615::UBIGINT + 18446744073709551615::UBIGINT": "Overflow in addition of UINT64",
	} {
		if err := queryErr(t, e, q); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", q, err, want)
		}
	}
	got := queryAll(t, e, "SELECT (a - 1::UTINYINT)::VARCHAR, (d - 1::UBIGINT)::VARCHAR, (c * 1::UINTEGER)::VARCHAR, (d // 2::UBIGINT)::VARCHAR, (d % 10::UBIGINT)::VARCHAR, (c + -1::BIGINT)::VARCHAR, typeof(d + -1::BIGINT), (d + -1::BIGINT)::VARCHAR, (-a)::VARCHAR FROM u WHERE a = 255")
	if s := fmt.Sprint(got); s != "[[254 18446744073709551614 4294967295 9223372036854775807 5 4294967294 HUGEINT 18446744073709551614 1]]" {
		t.Errorf("inside the range: %s", s)
	}
	// Comparisons of unsigned and signed integers compare the values.
	got = queryAll(t, e, "SELECT a > -1::INTEGER, b = 65535::INTEGER, c > -1::BIGINT, d > -1::BIGINT, a IN (255, -1), -1::TINYINT < a FROM u WHERE a = 255")
	if s := fmt.Sprint(got); s != "[[true true true true true true]]" {
		t.Errorf("comparisons: %s", s)
	}
}
