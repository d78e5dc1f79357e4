package scan

import (
	"context"
	"io"
	"math/rand"
	"reflect"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
)

// countRows counts the rows of tbl that pass p, asking for no column (as
// COUNT(*) does), and returns the scan's statistics.
func countRows(t *testing.T, tbl *Table, p Predicate, noPrune bool, threads int) (int64, Stats) {
	t.Helper()
	s, err := tbl.Scan(context.Background(), Request{Columns: []string{}, Filter: p, NoPruning: noPrune, BatchSize: 37, Threads: threads})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var n int64
	for {
		b, err := s.Next()
		if err == io.EOF {
			return n, s.Stats()
		}
		if err != nil {
			t.Fatal(err)
		}
		n += int64(b.NumRows)
	}
}

// TestCountFromPageIndex counts rows under random predicates with and
// without pruning (which counts pages that certainly pass from their
// column index entry) and against the naive evaluator.
func TestCountFromPageIndex(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	dir := t.TempDir()
	all := genTable(t, dir, rng, 4, 900)
	tbl, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	for iter := 0; iter < 300; iter++ {
		p := randPred(rng, 2)
		var want int64
		for _, row := range all {
			if r := naive(p, row); r != nil && *r {
				want++
			}
		}
		for _, noPrune := range []bool{false, true} {
			if got, _ := countRows(t, tbl, p, noPrune, 1+iter%2); got != want {
				t.Fatalf("count of %s (noPruning=%v): %d, want %d", p, noPrune, got, want)
			}
		}
	}
	// A range over the sorted id column: whole pages inside it are not
	// decoded.
	p := Compare{"id", Ge, int64(300)}
	var want int64
	for _, row := range all {
		if row["id"].(int64) >= 300 {
			want++
		}
	}
	got, st := countRows(t, tbl, p, false, 1)
	if got != want {
		t.Fatalf("count of %s: %d, want %d", p, got, want)
	}
	if st.RowsDecoded*10 > want {
		t.Fatalf("count of %s decoded %d rows of the %d that pass", p, st.RowsDecoded, want)
	}
}

func TestSubtractRanges(t *testing.T) {
	r := func(xs ...int64) ranges {
		out := ranges{}
		for i := 0; i < len(xs); i += 2 {
			out = append(out, file.RowRange{Start: xs[i], End: xs[i+1]})
		}
		return out
	}
	for _, c := range []struct{ a, b, want ranges }{
		{nil, r(), r(0, 100)},
		{nil, r(0, 100), r()},
		{nil, r(10, 20, 30, 40), r(0, 10, 20, 30, 40, 100)},
		{r(5, 25, 35, 50), r(10, 20, 30, 40), r(5, 10, 20, 25, 40, 50)},
		{r(5, 25), r(0, 5, 25, 30), r(5, 25)},
		{r(5, 25, 60, 70), r(0, 65), r(65, 70)},
	} {
		if got := subtract(c.a, c.b, 100); !reflect.DeepEqual(got, c.want) {
			t.Errorf("subtract(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
