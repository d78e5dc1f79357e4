package canon

import (
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/carquet-go/carquet/parquet/value"
)

func TestValue(t *testing.T) {
	nan32 := math.Float32frombits(0x7fc00001)
	for _, c := range []struct {
		in   any
		want string
	}{
		{nil, "null"},
		{int8(-3), "-3"},
		{uint64(math.MaxUint64), "18446744073709551615"},
		{float32(0.1), "0.1"},
		{0.1, "0.1"},
		{math.Copysign(0, -1), "-0"},
		{math.NaN(), "NaN"},
		{nan32, "NaN"},
		{"a\"b", `"a\"b"`},
		{[]byte{0, 255}, "0x00ff"},
		{time.Date(2023, 11, 10, 1, 2, 3, 4, time.FixedZone("x", 3600)), "2023-11-10T00:02:03.000000004Z"},
		{value.DecimalFromInt64(-12340, 3), "-12.340"},
		{Decimal{Unscaled: big.NewInt(5), Scale: 2}, "0.05"},
		{value.Interval{Months: 1, Days: 2, Millis: 3}, "interval(1,2,3000)"},
		{map[string]any{"b": 1, "a": []any{nil, true}}, "{a:[null,true],b:1}"},
		{Map{{"z", 1}, {"a", 2}, {"z", 3}}, `map{"a":2,"z":3}`},
		{map[any]any{int32(2): "x", int32(1): nil}, `map{1:null,2:"x"}`},
	} {
		if got := Value(c.in); got != c.want {
			t.Errorf("Value(%#v) = %s, want %s", c.in, got, c.want)
		}
	}
}
