package vec

import (
	"fmt"
	"testing"

	"github.com/carquet-go/carquet/parquet/value"
)

// TestBuilderTakeAppend builds columns of each storage class from
// scalars, and checks Get, Take and AppendCol on them.
func TestBuilderTakeAppend(t *testing.T) {
	cases := []struct {
		t    Type
		vals []any
	}{
		{Type{Kind: KInt}, []any{int64(1), nil, int64(-3)}},
		{Type{Kind: KUint, Bits: 64}, []any{uint64(1 << 63), uint64(2), nil}},
		{Type{Kind: KFloat}, []any{1.5, nil, -2.0}},
		{Type{Kind: KBool}, []any{true, false, nil}},
		{Type{Kind: KString}, []any{"a", nil, "bcd"}},
		{Type{Kind: KDecimal, Prec: 30, Scale: 2}, []any{value.DecimalFromInt64(12345, 2), nil, nil}},
	}
	for _, tc := range cases {
		b := NewBuilder(tc.t, len(tc.vals))
		for _, v := range tc.vals {
			b.Add(v)
		}
		c := b.C
		if c.Len != len(tc.vals) {
			t.Fatalf("%s: Len %d", tc.t.SQLName(), c.Len)
		}
		check := func(what string, c *Col, want []any) {
			for i, w := range want {
				g := c.Get(i)
				if (g == nil) != (w == nil) || (w != nil && formatAny(g) != formatAny(w)) {
					t.Errorf("%s %s: row %d = %v, want %v", tc.t.SQLName(), what, i, g, w)
				}
			}
		}
		check("built", c, tc.vals)
		check("taken", c.Take([]int32{2, 0}), []any{tc.vals[2], tc.vals[0]})
		d := EmptyCol(tc.t)
		AppendCol(d, c)
		AppendCol(d, c)
		check("appended", d, append(append([]any{}, tc.vals...), tc.vals...))
		check("nulls", NullCol(tc.t, 2), []any{nil, nil})
	}
}

func formatAny(v any) string {
	if d, ok := v.(value.Decimal); ok {
		return d.String()
	}
	return fmt.Sprintf("%T %v", v, v)
}
