package exec

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// column is the test's expression reading column i of the batch.
type column struct {
	i int
	t vec.Type
}

func (e column) Type() vec.Type                      { return e.t }
func (e column) String() string                      { return "c" + string(rune('0'+e.i)) }
func (e column) Eval(b *vec.Batch) (*vec.Col, error) { return b.Cols[e.i], nil }

// aggInput is two batches of (k, x): k in 1..3, x = 10*k + row.
func aggInput() *Const {
	k := []int64{1, 2, 3, 1, 2, 1}
	x := []int64{10, 20, 30, 11, 21, 12}
	return &Const{Batches: []*vec.Batch{
		{N: 4, Cols: []*Col{{T: tInt, Len: 4, I: k[:4]}, {T: tInt, Len: 4, I: x[:4]}}},
		{N: 2, Cols: []*Col{{T: tInt, Len: 2, I: k[4:]}, {T: tInt, Len: 2, I: x[4:]}}},
	}}
}

// spec is a typed aggregate call of function's registry over arg.
func spec(t *testing.T, name string, arg Expr) *AggSpec {
	t.Helper()
	fn, def := function.LookupAggregate(name)
	a := &AggSpec{AggCall: function.AggCall{Fn: fn}, Arg: arg, Text: name}
	var at vec.Type
	if arg != nil {
		at = arg.Type()
	}
	if _, err := def.Rule(&a.AggCall, at); err != nil {
		t.Fatal(err)
	}
	return a
}

// TestHashAggregateGroups groups by k and computes count(*), sum, max and
// an ordered list, whose ORDER BY reorders each group's input.
func TestHashAggregateGroups(t *testing.T) {
	k, x := column{0, tInt}, column{1, tInt}
	list := spec(t, "array_agg", x)
	list.Order = []Expr{x}
	list.OrderKeys = []SortKey{{Col: 0, Desc: true}}
	n := &HashAggregate{In: aggInput(), Keys: []Expr{k}, Aggs: []*AggSpec{
		spec(t, "count_star", nil), spec(t, "sum", x), spec(t, "max", x), list,
	}}
	b, err := n.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if b.N != 3 {
		t.Fatalf("%d groups, want 3", b.N)
	}
	want := map[int64]string{1: "3 33 12 [12,11,10]", 2: "2 41 21 [21,20]", 3: "1 30 30 [30]"}
	for r := range b.N {
		got := strings.Join([]string{vec.ScalarText(b.Cols[1].T, b.Cols[1].Get(r)), vec.ScalarText(b.Cols[2].T, b.Cols[2].Get(r)),
			vec.ScalarText(b.Cols[3].T, b.Cols[3].Get(r)), vec.ScalarText(b.Cols[4].T, b.Cols[4].Get(r))}, " ")
		if key := b.Cols[0].I[r]; got != want[key] {
			t.Errorf("group %d: %s, want %s", key, got, want[key])
		}
	}
	var ex Explainer
	n.Explain(&ex, 0)
	if !strings.Contains(ex.String(), "HASH AGGREGATE group by: c0 aggregates: count_star, sum, max, array_agg") {
		t.Errorf("EXPLAIN: %s", ex.String())
	}
}

// TestHashAggregateSets computes GROUPING SETS ((k), ()) with GROUPING(k):
// the per-key rows, then the total with k NULL.
func TestHashAggregateSets(t *testing.T) {
	k, x := column{0, tInt}, column{1, tInt}
	g := &AggSpec{AggCall: function.AggCall{Fn: "grouping", T: tInt, Grouping: []int{0}}, Text: "grouping(k)"}
	n := &HashAggregate{In: aggInput(), Keys: []Expr{k}, Sets: [][]int{{0}, {}}, Aggs: []*AggSpec{spec(t, "count", x), g}}
	b, err := n.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if b.N != 4 || !b.Cols[0].IsNull(3) || b.Cols[1].I[3] != 6 || b.Cols[2].I[3] != 1 || b.Cols[2].I[0] != 0 {
		t.Fatalf("rows %d, last key null %v, total %v, grouping %v", b.N, b.Cols[0].IsNull(3), b.Cols[1].I, b.Cols[2].I)
	}
}

// TestHashAggregateEmpty: without GROUP BY, no input rows still give one
// row (count 0, sum NULL); with GROUP BY, none.
func TestHashAggregateEmpty(t *testing.T) {
	x := column{0, tInt}
	n := &HashAggregate{In: &Const{}, Aggs: []*AggSpec{spec(t, "count", x), spec(t, "sum", x)}}
	b, err := n.Next(context.Background())
	if err != nil || b.N != 1 || b.Cols[0].I[0] != 0 || !b.Cols[1].IsNull(0) {
		t.Fatalf("%v %+v", err, b)
	}
	g := &HashAggregate{In: &Const{}, Keys: []Expr{x}, Aggs: []*AggSpec{spec(t, "count", x)}}
	if b, err := g.Next(context.Background()); err == nil {
		t.Fatalf("grouped empty input gave %d rows", b.N)
	}
}

// TestAggregateRegistry: every name an aggregate call may have resolves
// to an entry that makes an accumulator, its aliases to their canonical
// names.
func TestAggregateRegistry(t *testing.T) {
	for name, ok := range function.AggregateNames() {
		if !ok || slices.Contains([]string{"median", "approx_count_distinct", "grouping", "grouping_id"}, name) {
			continue
		}
		fn, def := function.LookupAggregate(name)
		if def == nil || def.Rule == nil || def.New == nil {
			t.Errorf("%s (%s): no entry", name, fn)
		}
	}
	for alias, want := range map[string]string{"array_agg": "list", "max_by": "arg_max", "every": "bool_and", "mean": "avg"} {
		if fn, _ := function.LookupAggregate(alias); fn != want {
			t.Errorf("%s resolves to %s, want %s", alias, fn, want)
		}
	}
}
