package exec

import (
	"context"
	"io"
	"math"
	"slices"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// The row-wise operators: each pulls batches from its input and passes on
// some of their rows or columns.

// Const emits fixed batches (SELECT without FROM, COUNT(*) from footers,
// results of sub-plans).
type Const struct {
	Batches []*vec.Batch
	What    string // its EXPLAIN line
}

func (n *Const) Next(ctx context.Context) (*vec.Batch, error) {
	if len(n.Batches) == 0 {
		return nil, io.EOF
	}
	b := n.Batches[0]
	n.Batches = n.Batches[1:]
	return b, nil
}

func (n *Const) Close() {}

func (n *Const) Explain(x *Explainer, depth int) { x.Line(depth, "%s", n.What) }

// Pred is a filter's predicate: All, and when it is a conjunction of
// conjuncts that run subqueries and others, Costly the former and Cheap
// the AND of the latter (nil if none). Filter evaluates Costly last, each
// on the rows the others kept (TPC-H Q20's correlated sum runs for the
// few partsupp rows of 'forest' parts, not for all of them).
type Pred struct {
	All    Expr
	Cheap  Expr
	Costly []Expr
}

// Filter keeps the rows of b for which the predicate is true.
func (p *Pred) Filter(b *vec.Batch) (*vec.Batch, error) {
	if len(p.Costly) == 0 {
		return FilterRows(b, p.All)
	}
	var err error
	if p.Cheap != nil {
		if b, err = FilterRows(b, p.Cheap); err != nil || b.N == 0 {
			return b, err
		}
	}
	for _, c := range p.Costly {
		if b, err = FilterRows(b, c); err != nil || b.N == 0 {
			return b, err
		}
	}
	return b, nil
}

// PrepareFunc runs before an operator's first batch and returns the node
// to read from instead of in (the planner reads ahead for the correlated
// subqueries of a filter, to restrict them to the keys it will ask for).
type PrepareFunc func(ctx context.Context, in Node) (Node, error)

// Filter keeps the rows for which Pred is true (WHERE conjuncts left
// after the joins, HAVING, QUALIFY).
type Filter struct {
	In      Node
	Pred    Pred
	Prepare PrepareFunc // nil: none
	started bool
}

func (n *Filter) Next(ctx context.Context) (*vec.Batch, error) {
	if err := prepare(ctx, &n.started, &n.In, n.Prepare); err != nil {
		return nil, err
	}
	return nextPassing(ctx, n.In, n.Pred.Filter)
}

// nextPassing pulls batches from in until filter keeps rows of one.
func nextPassing(ctx context.Context, in Node, filter func(*vec.Batch) (*vec.Batch, error)) (*vec.Batch, error) {
	for {
		b, err := in.Next(ctx)
		if err != nil {
			return nil, err
		}
		if b, err = filter(b); err != nil {
			return nil, err
		}
		if b.N > 0 {
			return b, nil
		}
	}
}

// prepare runs an operator's prepare step on its input before its first
// batch.
func prepare(ctx context.Context, started *bool, in *Node, p PrepareFunc) error {
	if *started {
		return nil
	}
	*started = true
	if p == nil {
		return nil
	}
	n, err := p(ctx, *in)
	if err != nil {
		return err
	}
	*in = n
	return nil
}

func (n *Filter) Close() { n.In.Close() }

func (n *Filter) Explain(x *Explainer, depth int) {
	x.Line(depth, "FILTER (residual) %s", n.Pred.All)
	n.In.Explain(x, depth+1)
}

// RelFilter filters one FROM relation before it is joined, by conjuncts
// that name its columns alone. Its batches hold the relation's columns
// only, while the conjuncts read the slots of the joined batch, where the
// relation starts at Offset: they see the batch shifted so.
type RelFilter struct {
	In     Node
	Pred   Pred
	Offset int
	// Drop lists the relation's columns that only Pred reads: after the
	// filter they become dropped columns (a join's build side does not
	// hold them).
	Drop    []int
	Prepare PrepareFunc // given In; its batches are read through Shift
	started bool
}

func (n *RelFilter) Next(ctx context.Context) (*vec.Batch, error) {
	if err := prepare(ctx, &n.started, &n.In, n.Prepare); err != nil {
		return nil, err
	}
	return nextPassing(ctx, n.In, n.Filter)
}

// Filter keeps the rows of one of the relation's batches that pass, the
// columns only the filter reads dropped before the rows are copied.
func (n *RelFilter) Filter(b *vec.Batch) (*vec.Batch, error) {
	shifted := n.Shift(b)
	if len(n.Drop) == 0 {
		out, err := n.Pred.Filter(shifted)
		if err != nil {
			return nil, err
		}
		out.Cols = out.Cols[n.Offset:]
		return out, nil
	}
	idx, err := Passing(shifted, n.Pred.All)
	if err != nil {
		return nil, err
	}
	out := &vec.Batch{N: b.N, Cols: slices.Clone(b.Cols)}
	for _, k := range n.Drop {
		out.Cols[k] = vec.DroppedCol(b.Cols[k].T, b.N)
	}
	if len(idx) == b.N {
		return out, nil
	}
	return TakeBatch(out, idx), nil
}

// Shift returns b as the filter's conjuncts read it: its columns at the
// relation's offset in the joined batch.
func (n *RelFilter) Shift(b *vec.Batch) *vec.Batch {
	if n.Offset == 0 {
		return b
	}
	shifted := &vec.Batch{N: b.N, Cols: make([]*vec.Col, n.Offset, n.Offset+len(b.Cols))}
	shifted.Cols = append(shifted.Cols, b.Cols...)
	return shifted
}

func (n *RelFilter) Close() { n.In.Close() }

func (n *RelFilter) Explain(x *Explainer, depth int) {
	x.Line(depth, "FILTER %s", n.Pred.All)
	n.In.Explain(x, depth+1)
}

// Project evaluates its expressions on each batch of its input.
type Project struct {
	In    Node
	Exprs []Expr
}

func (n *Project) Next(ctx context.Context) (*vec.Batch, error) {
	b, err := n.In.Next(ctx)
	if err != nil {
		return nil, err
	}
	return ProjectBatch(b, n.Exprs)
}

func (n *Project) Close() { n.In.Close() }

func (n *Project) Explain(x *Explainer, depth int) {
	x.Line(depth, "PROJECT %s", ExprList(n.Exprs))
	n.In.Explain(x, depth+1)
}

// Limit passes on the rows of its input after the first Offset, at most
// Limit of them (Limit < 0: all).
type Limit struct {
	In            Node
	Limit, Offset int64
	seen          int64
}

func (n *Limit) Next(ctx context.Context) (*vec.Batch, error) {
	for {
		// LIMIT 0 reads nothing: its input is not even evaluated (so its
		// errors are not raised), as in DuckDB.
		if n.Limit == 0 || n.Limit > 0 && n.seen >= n.Offset+n.Limit {
			return nil, io.EOF
		}
		b, err := n.In.Next(ctx)
		if err != nil {
			return nil, err
		}
		start, end := int64(0), int64(b.N)
		if n.seen < n.Offset {
			start = min(n.Offset-n.seen, int64(b.N))
		}
		if n.Limit >= 0 {
			end = min(end, n.Offset+n.Limit-n.seen)
		}
		n.seen += int64(b.N)
		if start >= end {
			continue
		}
		if start == 0 && end == int64(b.N) {
			return b, nil
		}
		idx := make([]int32, 0, end-start)
		for i := start; i < end; i++ {
			idx = append(idx, int32(i))
		}
		return TakeBatch(b, idx), nil
	}
}

func (n *Limit) Close() { n.In.Close() }

func (n *Limit) Explain(x *Explainer, depth int) {
	if n.Limit >= 0 {
		x.Line(depth, "LIMIT %d OFFSET %d", n.Limit, n.Offset)
	} else {
		x.Line(depth, "OFFSET %d", n.Offset)
	}
	n.In.Explain(x, depth+1)
}

// Keep passes on the first N columns of its input's batches (it drops
// the ORDER BY keys not selected).
type Keep struct {
	In Node
	N  int
}

func (n *Keep) Next(ctx context.Context) (*vec.Batch, error) {
	b, err := n.In.Next(ctx)
	if err != nil {
		return nil, err
	}
	return &vec.Batch{N: b.N, Cols: b.Cols[:n.N]}, nil
}

func (n *Keep) Close() { n.In.Close() }

func (n *Keep) Explain(x *Explainer, depth int) { n.In.Explain(x, depth) }

// Distinct drops repeated rows.
type Distinct struct {
	In   Node
	g    *Grouper // the rows seen, as groups (aggregation's hash tables)
	gids []int32
	cols []*vec.Col
	mem  OpMemory
}

func (n *Distinct) Memory() *OpMemory { return &n.mem }

func (n *Distinct) Next(ctx context.Context) (*vec.Batch, error) {
	for {
		b, err := n.In.Next(ctx)
		if err != nil {
			return nil, err
		}
		if n.g == nil {
			types := make([]vec.Type, len(b.Cols))
			for i, c := range b.Cols {
				types[i] = c.T
			}
			n.g = NewGrouper(types)
		}
		if cap(n.gids) < b.N {
			n.gids = make([]int32, b.N)
		}
		gids := n.gids[:b.N]
		n.cols = append(n.cols[:0], b.Cols...)
		first := int32(n.g.Groups())
		n.g.Assign(n.cols, b.N, gids)
		if err := n.mem.Set(ctx, n.g.Bytes(), func() string { return "DISTINCT" }); err != nil {
			return nil, err
		}
		// New groups get the next ids in row order: a row is new when it
		// has the next one.
		var idx []int32
		for i, g := range gids {
			if g == first {
				idx = append(idx, int32(i))
				first++
			}
		}
		if len(idx) == 0 {
			continue
		}
		if len(idx) == b.N {
			return b, nil
		}
		return TakeBatch(b, idx), nil
	}
}

func (n *Distinct) Close() {
	n.mem.Release()
	n.In.Close()
}

func (n *Distinct) Explain(x *Explainer, depth int) {
	x.Line(depth, "DISTINCT")
	n.In.Explain(x, depth+1)
}

// ProvablyEmpty reports whether a plan yields no rows whatever the data:
// an empty Const (a WHERE that is never true) under row-wise operators.
func ProvablyEmpty(n Node) bool {
	switch x := n.(type) {
	case *Const:
		return len(x.Batches) == 0
	case *Project:
		return ProvablyEmpty(x.In)
	case *Filter:
		return ProvablyEmpty(x.In)
	case *Keep:
		return ProvablyEmpty(x.In)
	case *Distinct:
		return ProvablyEmpty(x.In)
	case *Sort:
		return ProvablyEmpty(x.In)
	case *Limit:
		return x.Limit == 0 || ProvablyEmpty(x.In)
	}
	return false
}

// LimitPercent passes on the rows of its input after the first Offset,
// Percent% of all its rows (rounded down), as LIMIT p% does: the share is
// of a count known only at the end, so it reads the whole input first.
type LimitPercent struct {
	In      Node
	Percent float64
	Offset  int64
	mem     OpMemory // the rows held
	out     *Limit   // over the held rows, once counted
}

func (n *LimitPercent) Memory() *OpMemory { return &n.mem }

func (n *LimitPercent) Next(ctx context.Context) (*vec.Batch, error) {
	if n.out == nil {
		held := &heldBatches{}
		var total, bytes int64
		for {
			b, err := n.In.Next(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			held.bs = append(held.bs, b)
			total += int64(b.N)
			bytes += BatchBytes(b)
			if err := n.mem.Set(ctx, bytes, func() string { return "limit percent" }); err != nil {
				return nil, err
			}
		}
		keep := int64(math.Floor(float64(total) * n.Percent / 100))
		n.out = &Limit{In: held, Limit: keep, Offset: n.Offset}
	}
	return n.out.Next(ctx)
}

func (n *LimitPercent) Close() { n.In.Close() }

func (n *LimitPercent) Explain(x *Explainer, depth int) {
	x.Line(depth, "LIMIT %g%% OFFSET %d", n.Percent, n.Offset)
	n.In.Explain(x, depth+1)
}

// heldBatches is a Node of batches read already.
type heldBatches struct{ bs []*vec.Batch }

func (h *heldBatches) Next(context.Context) (*vec.Batch, error) {
	if len(h.bs) == 0 {
		return nil, io.EOF
	}
	b := h.bs[0]
	h.bs = h.bs[1:]
	return b, nil
}

func (h *heldBatches) Close() {}

func (h *heldBatches) Explain(*Explainer, int) {}
