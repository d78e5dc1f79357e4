package function

import (
	"testing"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// The cast hub on its own, without the binder: values and DuckDB's error
// texts of a few casts of each family.
func TestCastScalar(t *testing.T) {
	tInteger := vec.Type{Kind: vec.KInt, Bits: 32}
	dec := vec.Type{Kind: vec.KDecimal, Prec: 4, Scale: 2}
	cases := []struct {
		v        any
		from, to vec.Type
		want     any
		err      string
	}{
		{"42", tString, tInt, int64(42), ""},
		{" 2.5 ", tString, tInt, int64(2), ""}, // half to even, as DuckDB
		{"x", tString, tInt, nil, "cannot cast VARCHAR 'x' to BIGINT"},
		{int64(1) << 40, tInt, tInteger, nil, "1099511627776 is out of range for INTEGER"},
		{"yes", tString, tBool, true, ""},
		{"12.345", tString, dec, int64(1235), ""},
		{"123.4", tString, dec, nil, "Could not cast value 123.40 to DECIMAL(4,2)"},
		{"101", tString, TBit, "101", ""},
		{"102", tString, TBit, nil, "Invalid character encountered in string -> bit conversion: '2'"},
		{int64(5), tInt, TBit, "0000000000000000000000000000000000000000000000000000000000000101", ""},
		{"2024-02-29", tString, tDate, int64(19782), ""},
	}
	for _, c := range cases {
		got, err := CastScalar(c.v, c.from, c.to, false)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("CAST(%v AS %s): error %v, want %q", c.v, c.to.SQLName(), err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("CAST(%v AS %s) = %v (%v), want %v", c.v, c.to.SQLName(), got, err, c.want)
		}
	}
}

// CastCol's integer-to-decimal path checks every row: TRY_CAST makes the
// row that does not fit NULL, CAST fails on it.
func TestCastColDecimalFit(t *testing.T) {
	dec := vec.Type{Kind: vec.KDecimal, Prec: 4, Scale: 2}
	c := &vec.Col{T: tInt, Len: 3, I: []int64{1, 99, 100}}
	out, err := CastCol(c, dec, true)
	if err != nil {
		t.Fatal(err)
	}
	if out.IsNull(0) || out.IsNull(1) || !out.IsNull(2) || out.I[0] != 100 || out.I[1] != 9900 {
		t.Errorf("TRY_CAST: got %v nulls %v", out.I, []bool{out.IsNull(0), out.IsNull(1), out.IsNull(2)})
	}
	if _, err := CastCol(c, dec, false); err == nil || err.Error() != "Could not cast value 100 to DECIMAL(4,2)" {
		t.Errorf("CAST: error %v", err)
	}
}

// Arith keeps INTEGER arithmetic in its width, with DuckDB's overflow text.
func TestArithIntegerOverflow(t *testing.T) {
	tInteger := vec.Type{Kind: vec.KInt, Bits: 32}
	l := &vec.Col{T: tInteger, Len: 2, I: []int64{1, 2147483647}}
	r := &vec.Col{T: tInteger, Len: 2, I: []int64{2, 1}}
	_, err := Arith('+', tInteger, tInteger, tInteger, l, r, 2)
	if err == nil || err.Error() != "Overflow in addition of INT32 (2147483647 + 1)!" {
		t.Errorf("error %v", err)
	}
	out, err := Arith('-', tInteger, tInteger, tInteger, l, r, 2)
	if err != nil || out.I[0] != -1 || out.I[1] != 2147483646 {
		t.Errorf("got %v, %v", out, err)
	}
}
