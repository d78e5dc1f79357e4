package exec

import (
	"context"
	"io"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Operators that produce rows of their own or hold their input's: a
// series of integers, the batches a filter read ahead, window functions.

// Series yields Cur, Cur+Step, ... up to Stop (included when Incl), until
// the next value would overflow (generate_series, range).
type Series struct {
	Cur, Stop, Step int64
	Incl            bool
	What            string // the call, for EXPLAIN
	done            bool
}

func (n *Series) more(v int64) bool {
	switch {
	case n.Step > 0 && n.Incl:
		return v <= n.Stop
	case n.Step > 0:
		return v < n.Stop
	case n.Incl:
		return v >= n.Stop
	}
	return v > n.Stop
}

func (n *Series) Next(ctx context.Context) (*vec.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []int64
	for !n.done && len(out) < OutBatch && n.more(n.Cur) {
		out = append(out, n.Cur)
		// The sum overflowed when it did not move the way of the step.
		next := n.Cur + n.Step
		n.Cur, n.done = next, (next > n.Cur) != (n.Step > 0)
	}
	if len(out) == 0 {
		return nil, io.EOF
	}
	return &vec.Batch{N: len(out), Cols: []*vec.Col{{T: vec.Type{Kind: vec.KInt}, Len: len(out), I: out}}}, nil
}

func (n *Series) Close() {}

func (n *Series) Explain(x *Explainer, depth int) { x.Line(depth, "SERIES %s", n.What) }

// ReadAhead is the input of a filter whose correlated subqueries were
// reduced: the batches Held, read ahead, then the rest of In.
type ReadAhead struct {
	Held []*vec.Batch
	In   Node
	// Rows were read ahead; Keys lists, for EXPLAIN ANALYZE, how many
	// outer values each restricted subquery was given (none: too many
	// rows to restrict).
	Rows int
	Keys []int
}

func (r *ReadAhead) Next(ctx context.Context) (*vec.Batch, error) {
	if len(r.Held) > 0 {
		b := r.Held[0]
		r.Held[0] = nil
		r.Held = r.Held[1:]
		return b, nil
	}
	return r.In.Next(ctx)
}

func (r *ReadAhead) Close() { r.In.Close() }

func (r *ReadAhead) WrapInputs(wrap func(Node) Node) { r.In = wrap(r.In) }

func (r *ReadAhead) Explain(x *Explainer, depth int) {
	if len(r.Keys) == 0 {
		x.Line(depth, "READ AHEAD %d rows (correlated subqueries not restricted)", r.Rows)
	} else {
		keys := make([]string, len(r.Keys))
		for i, k := range r.Keys {
			keys[i] = strconv.Itoa(k)
		}
		x.Line(depth, "READ AHEAD %d rows: correlated subqueries restricted to %s outer keys", r.Rows, strings.Join(keys, ", "))
	}
	r.In.Explain(x, depth+1)
}

// WindowFunc is a window function as the planner bound it: Compute is
// its column over all the rows of the input (its partitions and frames
// are its own), which goes to column Slot of the output; sorts holds the
// row orders of the operator's functions computed before it, to share.
type WindowFunc interface {
	Compute(all *vec.Batch, sorts *WindowSorts) (*vec.Col, error)
	Slot() int
	String() string // the call as written, for EXPLAIN
}

// Window reads its whole input, computes its window functions over it
// and appends their columns (at their slots).
type Window struct {
	In    Node
	Funcs []WindowFunc
	out   *vec.Batch
	pos   int
	mem   OpMemory // the rows of the partitions (memory.go)
}

func (n *Window) Memory() *OpMemory { return &n.mem }

func (n *Window) Next(ctx context.Context) (*vec.Batch, error) {
	if n.out == nil {
		all, err := n.gather(ctx)
		if err != nil {
			return nil, err
		}
		if all == nil {
			return nil, io.EOF
		}
		sorts := &WindowSorts{}
		for _, w := range n.Funcs {
			c, err := w.Compute(all, sorts)
			if err != nil {
				return nil, err
			}
			for len(all.Cols) <= w.Slot() {
				all.Cols = append(all.Cols, nil)
			}
			all.Cols[w.Slot()] = c
		}
		n.out = all
	}
	return NextSlice(n.out, &n.pos)
}

// gather reads the input into one batch (nil when it has no batch); a
// nil column stays nil (the slot of a window function computed later).
func (n *Window) gather(ctx context.Context) (*vec.Batch, error) {
	var all *vec.Batch
	for {
		b, err := n.In.Next(ctx)
		if err == io.EOF {
			return all, nil
		}
		if err != nil {
			return nil, err
		}
		if all == nil {
			all = &vec.Batch{Cols: make([]*vec.Col, len(b.Cols))}
			for i, c := range b.Cols {
				if c != nil {
					all.Cols[i] = vec.EmptyCol(c.T)
				}
			}
		}
		for i, c := range b.Cols {
			if c != nil && all.Cols[i] != nil {
				vec.AppendCol(all.Cols[i], c)
			}
		}
		all.N += b.N
		if err := n.mem.Set(ctx, BatchBytes(all), func() string { return "window partitions" }); err != nil {
			return nil, err
		}
	}
}

func (n *Window) Close() {
	n.mem.Release()
	n.In.Close()
}

func (n *Window) WrapInputs(wrap func(Node) Node) { n.In = wrap(n.In) }

func (n *Window) Explain(x *Explainer, depth int) {
	parts := make([]string, len(n.Funcs))
	for i, w := range n.Funcs {
		parts[i] = w.String()
	}
	x.Line(depth, "WINDOW %s", strings.Join(parts, ", "))
	n.In.Explain(x, depth+1)
}

// Unnest expands each row into one row per element of its unnested
// columns Cols, lists of elements of types Elems (the longest list; the
// others padded with NULLs); a row whose lists are all NULL or empty
// gives no row. Convert brings an element to its column's type.
type Unnest struct {
	In      Node
	Cols    []int
	Elems   []vec.Type
	Convert func(t vec.Type, v any) (any, error)
}

func (n *Unnest) Next(ctx context.Context) (*vec.Batch, error) {
	for {
		b, err := n.In.Next(ctx)
		if err != nil {
			return nil, err
		}
		rows, pos := n.expand(b)
		if len(rows) == 0 {
			continue
		}
		out := &vec.Batch{N: len(rows), Cols: make([]*vec.Col, len(b.Cols))}
		for c := range b.Cols {
			out.Cols[c] = b.Cols[c].Take(rows)
		}
		for k, c := range n.Cols {
			if out.Cols[c], err = n.elements(b.Cols[c], n.Elems[k], rows, pos); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
}

// expand lists, for each output row, its input row and its position in
// the lists.
func (n *Unnest) expand(b *vec.Batch) (rows []int32, pos []int) {
	for i := 0; i < b.N; i++ {
		longest := 0
		for _, c := range n.Cols {
			if l, ok := b.Cols[c].Get(i).([]any); ok {
				longest = max(longest, len(l))
			}
		}
		for k := 0; k < longest; k++ {
			rows = append(rows, int32(i))
			pos = append(pos, k)
		}
	}
	return rows, pos
}

// elements is the column of the elements at pos of the lists of src at
// rows (NULL past a list's end).
func (n *Unnest) elements(src *vec.Col, t vec.Type, rows []int32, pos []int) (*vec.Col, error) {
	bl := vec.NewBuilder(t, len(rows))
	for r, row := range rows {
		var v any
		if l, ok := src.Get(int(row)).([]any); ok && pos[r] < len(l) {
			var err error
			if v, err = n.Convert(t, l[pos[r]]); err != nil {
				return nil, err
			}
		}
		bl.Add(v)
	}
	return bl.C, nil
}

func (n *Unnest) Close() { n.In.Close() }

func (n *Unnest) WrapInputs(wrap func(Node) Node) { n.In = wrap(n.In) }

func (n *Unnest) Explain(x *Explainer, depth int) {
	x.Line(depth, "UNNEST columns %v", n.Cols)
	n.In.Explain(x, depth+1)
}
