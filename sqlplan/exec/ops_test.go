package exec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// intBatches splits vals into batches of one integer column of at most
// size rows.
func intBatches(vals []int64, size int) []*vec.Batch {
	var out []*vec.Batch
	for len(vals) > 0 {
		k := min(size, len(vals))
		part := slices.Clone(vals[:k])
		out = append(out, &vec.Batch{N: k, Cols: []*Col{{T: tInt, Len: k, I: part}}})
		vals = vals[k:]
	}
	return out
}

// source is a Const over vals in batches of size rows.
func source(vals []int64, size int) *Const {
	return &Const{Batches: intBatches(vals, size), What: "VALUES"}
}

// ints reads every row of n's first column.
func ints(t *testing.T, n Node) []int64 {
	t.Helper()
	var out []int64
	for {
		b, err := n.Next(context.Background())
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b.Cols[0].I[:b.N]...)
	}
}

// lessThan is the test's expression col0 < v, counting the rows it is
// evaluated on.
type lessThan struct {
	v     int64
	rows  *int
	fails bool
}

func (e lessThan) Type() vec.Type { return Type{Kind: KBool} }
func (e lessThan) String() string { return fmt.Sprintf("x < %d", e.v) }
func (e lessThan) Eval(b *vec.Batch) (*vec.Col, error) {
	if e.fails {
		return nil, errors.New("no")
	}
	if e.rows != nil {
		*e.rows += b.N
	}
	c := &Col{T: e.Type(), Len: b.N, B: make([]bool, b.N)}
	for i := range c.B {
		c.B[i] = b.Cols[0].I[i] < e.v
	}
	return c, nil
}

func seq(lo, hi int64) []int64 {
	var out []int64
	for v := lo; v < hi; v++ {
		out = append(out, v)
	}
	return out
}

// TestPredFilterCostlyLast checks that a predicate's costly conjuncts are
// evaluated only on the rows its cheap ones kept.
func TestPredFilterCostlyLast(t *testing.T) {
	costlyRows := 0
	p := Pred{All: lessThan{v: 10}, Cheap: lessThan{v: 10}, Costly: []Expr{lessThan{v: 5, rows: &costlyRows}}}
	f := &Filter{In: source(seq(0, 100), 30), Pred: p}
	if got := ints(t, f); !slices.Equal(got, seq(0, 5)) {
		t.Fatalf("got %v", got)
	}
	if costlyRows != 10 {
		t.Fatalf("the costly conjunct saw %d rows, want the 10 the cheap one kept", costlyRows)
	}
}

func TestFilterPrepareAndErrors(t *testing.T) {
	prepared := 0
	f := &Filter{In: source(seq(0, 10), 4), Pred: Pred{All: lessThan{v: 3}},
		Prepare: func(ctx context.Context, in Node) (Node, error) {
			prepared++
			return &Limit{In: in, Limit: 2}, nil
		}}
	if got := ints(t, f); !slices.Equal(got, []int64{0, 1}) {
		t.Fatalf("got %v", got)
	}
	if prepared != 1 {
		t.Fatalf("prepared %d times", prepared)
	}
	bad := &Filter{In: source(seq(0, 10), 4), Pred: Pred{All: lessThan{fails: true}}}
	if _, err := bad.Next(context.Background()); err == nil || err.Error() != "no" {
		t.Fatalf("err %v", err)
	}
}

// TestRelFilterShiftsAndDrops filters a relation at offset 2 of the
// joined batch and drops the column only its predicate reads.
func TestRelFilterShiftsAndDrops(t *testing.T) {
	in := &Const{Batches: []*vec.Batch{{N: 4, Cols: []*Col{
		{T: tInt, Len: 4, I: []int64{1, 2, 3, 4}},
		{T: tInt, Len: 4, I: []int64{10, 20, 30, 40}},
	}}}}
	// The predicate reads slot 0 of the joined batch: with Offset 0 it is
	// the relation's first column.
	f := &RelFilter{In: in, Pred: Pred{All: lessThan{v: 3}}, Drop: []int{0}}
	b, err := f.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if b.N != 2 || !b.Cols[0].Dropped || !slices.Equal(b.Cols[1].I, []int64{10, 20}) {
		t.Fatalf("got %d rows %+v", b.N, b.Cols[1].I)
	}
	shifted := (&RelFilter{Offset: 2}).Shift(&vec.Batch{N: 1, Cols: []*Col{{T: tInt, Len: 1, I: []int64{7}}}})
	if len(shifted.Cols) != 3 || shifted.Cols[2].I[0] != 7 {
		t.Fatalf("shift gave %d columns", len(shifted.Cols))
	}
}

// TestLimitOffset checks every window of LIMIT and OFFSET across batch
// boundaries against slicing the input.
func TestLimitOffset(t *testing.T) {
	all := seq(0, 23)
	for _, size := range []int{1, 5, 23, 100} {
		for off := int64(0); off <= 25; off += 3 {
			for _, lim := range []int64{-1, 0, 1, 4, 7, 30} {
				got := ints(t, &Limit{In: source(all, size), Limit: lim, Offset: off})
				lo := min(off, int64(len(all)))
				hi := int64(len(all))
				if lim >= 0 {
					hi = min(hi, lo+lim)
				}
				if !slices.Equal(got, all[lo:hi]) {
					t.Fatalf("size %d LIMIT %d OFFSET %d: got %v", size, lim, off, got)
				}
			}
		}
	}
}

// failing is an input whose every call fails.
type failing struct{ closed bool }

func (f *failing) Next(context.Context) (*vec.Batch, error) { return nil, errors.New("input failed") }
func (f *failing) Close()                                   { f.closed = true }
func (f *failing) Explain(x *Explainer, depth int)          { x.Line(depth, "FAILING") }

// TestLimitZeroReadsNothing: LIMIT 0 does not evaluate its input.
func TestLimitZeroReadsNothing(t *testing.T) {
	if _, err := (&Limit{In: &failing{}, Limit: 0}).Next(context.Background()); err != io.EOF {
		t.Fatalf("err %v", err)
	}
}

func TestKeepAndProject(t *testing.T) {
	in := &Const{Batches: []*vec.Batch{{N: 2, Cols: []*Col{
		{T: tInt, Len: 2, I: []int64{1, 5}},
		{T: tInt, Len: 2, I: []int64{2, 6}},
	}}}}
	p := &Project{In: &Keep{In: in, N: 1}, Exprs: []Expr{lessThan{v: 3}}}
	b, err := p.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Cols) != 1 || !slices.Equal(b.Cols[0].B, []bool{true, false}) {
		t.Fatalf("got %+v", b.Cols[0])
	}
}

// TestDistinct drops repeated rows across batches, keeping first
// occurrences in order.
func TestDistinct(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	vals := make([]int64, 5000)
	for i := range vals {
		vals[i] = r.Int64N(300)
	}
	var want []int64
	for _, v := range vals {
		if !slices.Contains(want, v) {
			want = append(want, v)
		}
	}
	d := &Distinct{In: source(vals, 777)}
	got := ints(t, d)
	d.Close()
	if !slices.Equal(got, want) {
		t.Fatalf("got %d rows, want %d", len(got), len(want))
	}
}

// TestUnionCasts reads its inputs in order, casting columns of another
// type.
func TestUnionCasts(t *testing.T) {
	casts := 0
	cast := func(c *vec.Col, to vec.Type) (*vec.Col, error) {
		casts++
		out := &Col{T: to, Len: c.Len, I: make([]int64, c.Len)}
		for i, f := range c.F[:c.Len] {
			out.I[i] = int64(f)
		}
		return out, nil
	}
	floats := &Const{Batches: []*vec.Batch{{N: 2, Cols: []*Col{{T: Type{Kind: KFloat}, Len: 2, F: []float64{7, 8}}}}}}
	u := &Union{Ins: []Node{source(seq(0, 3), 2), floats}, Types: []Type{tInt}, Cast: cast}
	if got := ints(t, u); !slices.Equal(got, []int64{0, 1, 2, 7, 8}) || casts != 1 {
		t.Fatalf("got %v after %d casts", got, casts)
	}
}

// TestSetOps checks INTERSECT and EXCEPT, with and without ALL, against
// counting.
func TestSetOps(t *testing.T) {
	left := []int64{1, 1, 1, 2, 2, 3, 4, 4}
	right := []int64{1, 2, 2, 2, 4, 5}
	want := map[string][]int64{
		"intersect":     {1, 2, 4},
		"except":        {3},
		"intersect all": {1, 2, 2, 4},
		"except all":    {1, 1, 3, 4},
	}
	for op, w := range want {
		s := &SetOp{Left: source(left, 3), Right: source(right, 4), Op: op, Types: []Type{tInt}}
		got := ints(t, s)
		s.Close()
		if !slices.Equal(got, w) {
			t.Errorf("%s: got %v, want %v", op, got, w)
		}
	}
}

// TestSetOpEmptyLeftSkipsRight: a provably empty left side leaves the
// right one unread.
func TestSetOpEmptyLeftSkipsRight(t *testing.T) {
	s := &SetOp{Left: &Filter{In: &Const{}}, Right: &failing{}, Op: "except", Types: []Type{tInt}}
	if _, err := s.Next(context.Background()); err != io.EOF {
		t.Fatalf("err %v", err)
	}
}

// TestSortAndTopN sorts with and without a limit: the full sort keeps
// ties in input order, the heap's rows have the full sort's first keys.
func TestSortAndTopN(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	n := 20000
	keys := make([]int64, n)
	for i := range keys {
		keys[i] = r.Int64N(1000)
	}
	batches := func() *Const {
		var bs []*vec.Batch
		for lo := 0; lo < n; lo += 1500 {
			hi := min(lo+1500, n)
			bs = append(bs, &vec.Batch{N: hi - lo, Cols: []*Col{
				{T: tInt, Len: hi - lo, I: slices.Clone(keys[lo:hi])},
				{T: tInt, Len: hi - lo, I: seq(int64(lo), int64(hi))},
			}})
		}
		return &Const{Batches: bs}
	}
	sk := []SortKey{{Col: 0, Desc: true}}
	full := &Sort{In: batches(), Keys: sk, Limit: -1, Types: []Type{tInt, tInt}}
	var fullRows []int64
	for {
		b, err := full.Next(context.Background())
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if b.N > OutBatch {
			t.Fatalf("a batch of %d rows", b.N)
		}
		fullRows = append(fullRows, b.Cols[1].I[:b.N]...)
	}
	if !slices.IsSortedFunc(fullRows, func(a, b int64) int {
		if keys[a] != keys[b] {
			return int(keys[b] - keys[a])
		}
		return int(a - b)
	}) || len(fullRows) != n {
		t.Fatal("the full sort is not by key descending, ties in input order")
	}
	for _, k := range []int64{0, 1, 10, 5000} {
		top := &Sort{In: batches(), Keys: sk, Limit: k, Types: []Type{tInt, tInt}}
		var got []int64
		for {
			b, err := top.Next(context.Background())
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, b.Cols[1].I[:b.N]...)
		}
		// Rows that tie with the last one kept may be others than the
		// full sort's (the heap does not break ties by input order): the
		// keys must be the same.
		if len(got) != int(k) {
			t.Fatalf("top %d gave %d rows", k, len(got))
		}
		for i, id := range got {
			if keys[id] != keys[fullRows[i]] {
				t.Fatalf("top %d: row %d has key %d, the sort's %d", k, i, keys[id], keys[fullRows[i]])
			}
		}
	}
}

// TestExplainAnalyze explains a plan, then runs it instrumented and
// checks its figures.
func TestExplainAnalyze(t *testing.T) {
	plan := func() Node {
		f := &Filter{In: source(seq(0, 100), 10), Pred: Pred{All: lessThan{v: 42}}}
		return &Limit{In: &Distinct{In: f}, Limit: 5, Offset: 1}
	}
	x := &Explainer{}
	plan().Explain(x, 0)
	want := "LIMIT 5 OFFSET 1\n  DISTINCT\n    FILTER (residual) x < 42\n      VALUES\n"
	if x.String() != want {
		t.Fatalf("EXPLAIN:\n%s", x.String())
	}
	root := NewProfile().Wrap(plan())
	if got := ints(t, root); !slices.Equal(got, []int64{1, 2, 3, 4, 5}) {
		t.Fatalf("got %v", got)
	}
	root.Close()
	x = &Explainer{Analyze: true}
	root.Explain(x, 0)
	lines := strings.Split(strings.TrimSpace(x.String()), "\n")
	for i, w := range []string{"LIMIT 5 OFFSET 1  [rows 5, time ", "  DISTINCT  [rows 10, time ", "    FILTER (residual) x < 42  [rows 10, time ", "      VALUES  [rows 10, time "} {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d: %q, want it to start %q", i, lines[i], w)
		}
	}
	if Bare(root) == root {
		t.Error("Bare did not unwrap the instrumented root")
	}
}
