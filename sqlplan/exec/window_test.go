package exec

import (
	"fmt"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/sqlplan/num"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// nullable is an int64 column with NULLs at the rows given.
func nullable(vals []int64, nulls ...int) *vec.Col {
	c := &vec.Col{T: vec.Type{Kind: vec.KInt}, Len: len(vals), I: vals}
	for _, i := range nulls {
		c.SetNull(i)
	}
	return c
}

// colText is the column's rows as text, NULL for NULL.
func colText(c *vec.Col) string {
	parts := make([]string, c.Len)
	for i := range parts {
		if v := c.Get(i); v != nil {
			parts[i] = fmt.Sprint(v)
		} else {
			parts[i] = "NULL"
		}
	}
	return strings.Join(parts, " ")
}

// TestWindowRanksTyped: ranks come as int64 columns in the input's row
// order, NULL partition keys make one partition, NULL order keys sort
// last and are peers.
func TestWindowRanksTyped(t *testing.T) {
	part := nullable([]int64{1, 2, 1, 0, 1, 0, 2}, 3, 5)
	order := nullable([]int64{5, 1, 5, 9, 0, 4, 0}, 0, 2)
	in := &WindowCols{Part: []*vec.Col{part}, Order: []*vec.Col{order}}
	for fn, want := range map[string]string{
		"row_number": "2 2 3 2 1 1 1",
		"rank":       "2 2 2 2 1 1 1",
		"dense_rank": "2 2 2 2 1 1 1",
	} {
		w := &WindowCall{Fn: fn, T: vec.Type{Kind: vec.KInt}, Desc: []bool{false}, NullsFirst: []bool{false}}
		got, err := w.Eval(in, 7)
		if err != nil {
			t.Fatal(err)
		}
		if got.I == nil || colText(got) != want {
			t.Errorf("%s: got %s (typed: %v), want %s", fn, colText(got), got.I != nil, want)
		}
	}
}

// TestWindowPicksTyped: lag with a default gathers from two columns,
// first_value from a 128-bit decimal column, both typed.
func TestWindowPicksTyped(t *testing.T) {
	str := vec.NewBuilder(vec.Type{Kind: vec.KString}, 4)
	for _, s := range []any{"a", nil, "c", "d"} {
		str.Add(s)
	}
	def := vec.NewBuilder(vec.Type{Kind: vec.KString}, 4)
	for range 4 {
		def.Add("none")
	}
	order := nullable([]int64{4, 3, 2, 1})
	lag := &WindowCall{Fn: "lag", T: str.C.T, Param: 1, Desc: []bool{false}, NullsFirst: []bool{false}}
	got, err := lag.Eval(&WindowCols{Order: []*vec.Col{order}, Arg: str.C, Default: def.C}, 4)
	if err != nil {
		t.Fatal(err)
	}
	if want := "NULL c d none"; colText(got) != want || got.Off == nil {
		t.Fatalf("lag: got %s, want %s", colText(got), want)
	}
	dec := vec.Type{Kind: vec.KDecimal, Prec: 30, Scale: 2}
	h := &vec.Col{T: dec, Len: 4, H: []num.Int128{num.FromInt64(100), num.FromInt64(-5), {Hi: 1}, num.FromInt64(7)}}
	first := &WindowCall{Fn: "first_value", T: dec, Desc: []bool{true}, NullsFirst: []bool{false}}
	got, err = first.Eval(&WindowCols{Order: []*vec.Col{order}, Arg: h}, 4)
	if err != nil {
		t.Fatal(err)
	}
	if got.H == nil || got.H[2] != num.FromInt64(100) || got.T.SQLName() != dec.SQLName() {
		t.Fatalf("first_value: got %s", colText(got))
	}
}

// TestWindowSumOverflow: a sum past 128 bits is the aggregate's error, and
// no rows give an empty column of the call's type.
func TestWindowSumOverflow(t *testing.T) {
	huge := vec.Type{Kind: vec.KDecimal, Prec: 38, Huge: true}
	top := num.Int128{Hi: 1<<63 - 1, Lo: 1<<64 - 1}
	arg := &vec.Col{T: huge, Len: 2, H: []num.Int128{top, num.FromInt64(1)}}
	w := &WindowCall{Fn: "sum", T: huge, Text: "sum(h) OVER ()"}
	if _, err := w.Eval(&WindowCols{Arg: arg}, 2); err == nil || !strings.Contains(err.Error(), "Overflow in HUGEINT addition") {
		t.Fatalf("got %v", err)
	}
	got, err := w.Eval(&WindowCols{Arg: &vec.Col{T: huge}}, 0)
	if err != nil || got.Len != 0 || got.T.SQLName() != huge.SQLName() {
		t.Fatalf("no rows: %v %+v", err, got)
	}
}

// colRef is an expression reading column i of the batch, as a column
// reference does.
type colRef int

func (colRef) Type() vec.Type                        { return vec.Type{Kind: vec.KInt} }
func (r colRef) Eval(b *vec.Batch) (*vec.Col, error) { return b.Cols[r], nil }
func (colRef) String() string                        { return "col" }

// TestWindowSharedSorts: calls over the same partition and order columns
// in the same directions sort once; another direction sorts again, and
// the results are those of unshared sorts.
func TestWindowSharedSorts(t *testing.T) {
	all := &vec.Batch{N: 5, Cols: []*vec.Col{nullable([]int64{1, 2, 1, 2, 1}), nullable([]int64{3, 1, 2, 5, 4})}}
	x := &WindowExprs{Part: []Expr{colRef(0)}, Order: []Expr{colRef(1)}}
	call := func(fn string, desc bool) *WindowCall {
		return &WindowCall{Fn: fn, T: vec.Type{Kind: vec.KInt}, Desc: []bool{desc}, NullsFirst: []bool{false}}
	}
	sorts := &WindowSorts{}
	for _, c := range []struct {
		w    *WindowCall
		want string
		n    int // distinct sorts after it
	}{
		{call("row_number", false), "2 1 1 2 3", 1},
		{call("rank", false), "2 1 1 2 3", 1},
		{call("row_number", true), "2 2 3 1 1", 2},
	} {
		got, err := c.w.Compute(all, x, sorts)
		if err != nil {
			t.Fatal(err)
		}
		alone, err := c.w.Compute(all, x, nil)
		if err != nil {
			t.Fatal(err)
		}
		if colText(got) != c.want || colText(alone) != c.want || len(sorts.done) != c.n {
			t.Fatalf("%s desc %v: got %s (alone %s), %d sorts; want %s, %d", c.w.Fn, c.w.Desc[0], colText(got), colText(alone), len(sorts.done), c.want, c.n)
		}
	}
}
