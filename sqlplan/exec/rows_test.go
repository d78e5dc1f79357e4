package exec

import (
	"context"
	"errors"
	"io"
	"math"
	"slices"
	"testing"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// TestSeries checks the bounds, both directions, and a series that
// would overflow.
func TestSeries(t *testing.T) {
	cases := []struct {
		cur, stop, step int64
		incl            bool
		want            []int64
	}{
		{0, 5, 2, false, []int64{0, 2, 4}},
		{0, 4, 2, true, []int64{0, 2, 4}},
		{0, 4, 2, false, []int64{0, 2}},
		{3, 0, -1, true, []int64{3, 2, 1, 0}},
		{3, 0, -1, false, []int64{3, 2, 1}},
		{math.MaxInt64 - 1, math.MaxInt64, 1, true, []int64{math.MaxInt64 - 1, math.MaxInt64}},
		{math.MinInt64 + 1, math.MinInt64, -1, true, []int64{math.MinInt64 + 1, math.MinInt64}},
	}
	for _, c := range cases {
		got := ints(t, &Series{Cur: c.cur, Stop: c.stop, Step: c.step, Incl: c.incl})
		if !slices.Equal(got, c.want) {
			t.Errorf("%+v: got %v", c, got)
		}
	}
	long := ints(t, &Series{Cur: 0, Stop: 3*OutBatch + 5, Step: 1})
	if len(long) != 3*OutBatch+5 || long[len(long)-1] != 3*OutBatch+4 {
		t.Errorf("a long series gave %d rows", len(long))
	}
}

// TestReadAheadHeldFirst returns the batches read ahead, then the rest.
func TestReadAheadHeldFirst(t *testing.T) {
	r := &ReadAhead{Held: intBatches([]int64{1, 2, 3}, 2), In: source([]int64{4, 5}, 1), Rows: 3, Keys: []int{7}}
	if got := ints(t, r); !slices.Equal(got, []int64{1, 2, 3, 4, 5}) {
		t.Fatalf("got %v", got)
	}
	x := &Explainer{}
	r.Explain(x, 0)
	if want := "READ AHEAD 3 rows: correlated subqueries restricted to 7 outer keys\n  VALUES\n"; x.String() != want {
		t.Fatalf("EXPLAIN:\n%s", x.String())
	}
}

// runningSum is a window function: the running sum of column 0, into
// slot 1.
type runningSum struct{ fails bool }

func (runningSum) Slot() int      { return 1 }
func (runningSum) String() string { return "sum(x) OVER (ROWS UNBOUNDED PRECEDING)" }
func (w runningSum) Compute(all *vec.Batch, _ *WindowSorts) (*vec.Col, error) {
	if w.fails {
		return nil, errors.New("window failed")
	}
	out := &Col{T: tInt, Len: all.N, I: make([]int64, all.N)}
	s := int64(0)
	for i, v := range all.Cols[0].I[:all.N] {
		s += v
		out.I[i] = s
	}
	return out, nil
}

// TestWindow computes a function over the whole input, gathered from
// its batches, and appends its column.
func TestWindow(t *testing.T) {
	w := &Window{In: source(seq(1, 6), 2), Funcs: []WindowFunc{runningSum{}}}
	var sums []int64
	for {
		b, err := w.Next(context.Background())
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		sums = append(sums, b.Cols[1].I[:b.N]...)
	}
	w.Close()
	if !slices.Equal(sums, []int64{1, 3, 6, 10, 15}) {
		t.Fatalf("got %v", sums)
	}
	if _, err := (&Window{In: source(seq(1, 3), 2), Funcs: []WindowFunc{runningSum{fails: true}}}).Next(context.Background()); err == nil || err.Error() != "window failed" {
		t.Fatalf("err %v", err)
	}
	if _, err := (&Window{In: &failing{}}).Next(context.Background()); err == nil || err.Error() != "input failed" {
		t.Fatalf("err %v", err)
	}
	if _, err := (&Window{In: &Const{}}).Next(context.Background()); err != io.EOF {
		t.Fatalf("an empty input gave %v", err)
	}
}
