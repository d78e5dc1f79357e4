package exec

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// double is a step that doubles column 0 into a new batch.
func double(b *vec.Batch) (*vec.Batch, error) {
	out := &Col{T: tInt, Len: b.N, I: make([]int64, b.N)}
	for i, v := range b.Cols[0].I[:b.N] {
		out.I[i] = 2 * v
	}
	return &vec.Batch{N: b.N, Cols: []*Col{out}}, nil
}

// TestPipelineKeepsOrder runs a filter and a projection on four workers:
// the batches come out in the input's order, as a serial run gives them.
func TestPipelineKeepsOrder(t *testing.T) {
	in := source(seq(0, 5000), 7)
	f := &Filter{In: in, Pred: Pred{All: lessThan{v: 4000}}}
	prepared := false
	p := &Pipeline{In: in, Steps: []Step{f.Pred.Filter, double}, Workers: 4, Shown: f,
		Prep: []func(context.Context) error{func(context.Context) error { prepared = true; return nil }}}
	got := ints(t, p)
	p.Close()
	want := seq(0, 4000)
	for i := range want {
		want[i] *= 2
	}
	if !slices.Equal(got, want) || !prepared {
		t.Fatalf("got %d rows (prepared %v)", len(got), prepared)
	}
	x := &Explainer{}
	p.Explain(x, 0)
	if !strings.HasPrefix(x.String(), "PARALLEL x4\n  FILTER (residual) x < 4000\n") {
		t.Fatalf("EXPLAIN:\n%s", x.String())
	}
}

// TestPipelineErrors: a failing step or input fails the pipeline, which
// keeps failing, and Close stops its goroutines.
func TestPipelineErrors(t *testing.T) {
	boom := errors.New("step failed")
	fail := func(b *vec.Batch) (*vec.Batch, error) {
		if b.Cols[0].I[0] >= 100 {
			return nil, boom
		}
		return b, nil
	}
	in := source(seq(0, 1000), 10)
	p := &Pipeline{In: in, Steps: []Step{fail}, Workers: 3, Shown: in}
	var rows int
	var err error
	for {
		var b *vec.Batch
		if b, err = p.Next(context.Background()); err != nil {
			break
		}
		rows += b.N
	}
	if err != boom || rows != 100 {
		t.Fatalf("got %d rows then %v", rows, err)
	}
	if _, err := p.Next(context.Background()); err != boom {
		t.Fatalf("then %v", err)
	}
	p.Close()
	bad := &failing{}
	q := &Pipeline{In: bad, Steps: []Step{double}, Workers: 2, Shown: bad}
	if _, err := q.Next(context.Background()); err == nil || err == io.EOF {
		t.Fatalf("a failing input gave %v", err)
	}
	q.Close()
	if !bad.closed {
		t.Fatal("Close did not close the chain")
	}
}
