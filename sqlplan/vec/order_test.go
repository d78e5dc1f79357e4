package vec

import (
	"bytes"
	"math"
	"testing"

	"github.com/carquet-go/carquet/parquet/value"
)

// The kernels order and key the values they cannot read typed by
// themselves, with no engine hook set: intervals by their normalized
// length, nested values by their text.
func TestCompareScalarsKinds(t *testing.T) {
	ivType := Type{Kind: KInterval}
	list := Type{Kind: KNested, Elem: &Type{Kind: KInt}}
	cases := []struct {
		name string
		t    Type
		a, b any
		want int
	}{
		{"int", Type{Kind: KInt}, int64(-3), int64(2), -1},
		{"uint", Type{Kind: KUint}, uint64(1 << 63), uint64(1), 1},
		{"nan above all", Type{Kind: KFloat}, math.NaN(), 1e300, 1},
		{"bool", Type{Kind: KBool}, false, true, -1},
		{"blob", Type{Kind: KBytes}, []byte{1}, []byte{1}, 0},
		{"decimal", Type{Kind: KDecimal}, value.Decimal{}, value.Decimal{}, 0},
		{"a month is 30 days", ivType, Interval{Months: 1}, Interval{Days: 30}, 0},
		{"a day before a month", ivType, Interval{Days: 1}, Interval{Months: 1}, -1},
		{"lists by text", list, []any{int64(1), int64(2)}, []any{int64(1), int64(3)}, -1},
	}
	for _, c := range cases {
		if got := CompareScalars(c.t, c.a, c.b); got != c.want {
			t.Errorf("%s: CompareScalars(%v, %v) = %d, want %d", c.name, c.a, c.b, got, c.want)
		}
	}
}

// Equal values (CompareScalars 0) encode alike, others not.
func TestAppendScalarKeyEquality(t *testing.T) {
	ivType := Type{Kind: KInterval}
	month, days30, day := Interval{Months: 1}, Interval{Days: 30}, Interval{Days: 1}
	if !bytes.Equal(AppendScalarKey(nil, ivType, month), AppendScalarKey(nil, ivType, days30)) {
		t.Error("1 month and 30 days encode apart")
	}
	if bytes.Equal(AppendScalarKey(nil, ivType, month), AppendScalarKey(nil, ivType, day)) {
		t.Error("1 month and 1 day encode alike")
	}
	list := Type{Kind: KNested, Elem: &Type{Kind: KInt}}
	a := AppendScalarKey(nil, list, []any{int64(1), int64(2)})
	b := AppendScalarKey(nil, list, []any{int64(1), int64(2)})
	c := AppendScalarKey(nil, list, []any{int64(12)})
	if !bytes.Equal(a, b) || bytes.Equal(a, c) {
		t.Errorf("list keys: %q %q %q", a, b, c)
	}
}
