package sqlplan

import (
	"context"
	"io"
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/scan"
	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

var regexpMu sync.Mutex

func randFloat() float64 { return rand.Float64() }

// scanNode reads a table through the scan.
type scanNode struct {
	rel     *relation
	t       *scan.Table
	req     scan.Request
	types   []Type
	s       *scan.Scanner
	stats   scan.Stats
	done    bool
	started bool
	// dicts holds the Col of each dictionary the scan's coded vectors
	// pointed at lately, so that a row group's batches share one (the
	// grouper keys its code-to-group maps by it).
	dicts map[*vector.Vector]*Col
}

func (n *scanNode) Next(ctx context.Context) (*Batch, error) {
	if n.done {
		return nil, io.EOF
	}
	if !n.started {
		n.started = true
		s, err := n.t.Scan(ctx, n.req)
		if err != nil {
			return nil, err
		}
		n.s = s
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := n.s.Next()
		if err == io.EOF {
			n.finish()
			return nil, io.EOF
		}
		if err != nil {
			return nil, err
		}
		if b.NumRows == 0 {
			continue
		}
		out := &Batch{N: b.NumRows, Cols: make([]*Col, len(b.Columns))}
		for i, v := range b.Columns {
			if v.Dict != nil {
				out.Cols[i] = n.codedCol(n.types[i], v, b.NumRows)
				continue
			}
			out.Cols[i] = fromVector(n.types[i], v, b.NumRows)
		}
		if s := n.s; scan.Recyclable(b) {
			out.Recycle = func() { s.Recycle(b) }
		}
		return out, nil
	}
}

// codedCol converts a coded vector (the scan was asked for codes) into a
// coded Col whose dictionary is converted once per dictionary.
func (n *scanNode) codedCol(t Type, v *vector.Vector, rows int) *Col {
	d, ok := n.dicts[v.Dict]
	if !ok {
		if n.dicts == nil || len(n.dicts) >= 64 {
			n.dicts = map[*vector.Vector]*Col{}
		}
		d = fromVector(t, v.Dict, v.Dict.Len)
		n.dicts[v.Dict] = d
	}
	return &Col{T: t, Len: rows, Null: nullsOf(v, rows), Dict: d, Codes: v.Codes[:rows]}
}

func (n *scanNode) finish() {
	if n.s != nil && !n.done {
		n.stats = n.s.Stats()
		n.s.Close()
	}
	n.done = true
}

func (n *scanNode) Close() { n.finish() }

func (n *scanNode) Explain(x *explainer, depth int) {
	cols := "(no columns)"
	if len(n.req.Columns) > 0 {
		cols = strings.Join(n.req.Columns, ", ")
	}
	x.Line(depth, "SCAN %s [%s] columns: %s", n.rel.alias, x.Rel(n.rel.path), cols)
	if n.req.Filter != nil {
		x.Line(depth+1, "pushed filter: %s", n.req.Filter)
	}
	if len(n.req.Codes) > 0 {
		x.Line(depth+1, "dictionary codes: %s", strings.Join(n.req.Codes, ", "))
	}
	if x.Analyze {
		s := n.stats
		x.Line(depth+1, "files %d (pruned %d), row groups %d (pruned %d by statistics, %d by bloom filters), pages %d (pruned %d), bytes read %d, rows decoded %d, rows returned %d",
			s.Files, s.FilesPruned, s.RowGroups, s.RowGroupsPrunedByStats, s.RowGroupsPrunedByBloom, s.Pages, s.PagesPruned, s.BytesRead, s.RowsDecoded, s.RowsOutput)
	}
}

// The operators that run plans are in package exec; these build them
// from the planner's bound expressions.

// predOf is pred split for a filter (exec.Pred): its conjuncts that run
// subqueries apart from the others.
func predOf(pred expr) kernels.Pred {
	p := kernels.Pred{All: pred}
	if cheap, costly := splitCostly(pred); len(costly) > 0 {
		if cheap != nil {
			p.Cheap = cheap
		}
		p.Costly = make([]kernels.Expr, len(costly))
		for i, c := range costly {
			p.Costly[i] = c
		}
	}
	return p
}

// newFilter filters in by pred, whose grouped correlated subqueries are
// restricted to the keys in reads ahead (reduce.go).
func newFilter(in node, pred expr) *kernels.Filter {
	return &kernels.Filter{In: in, Pred: predOf(pred), Prepare: func(ctx context.Context, in node) (node, error) {
		return reduceCorrelated(ctx, in, pred, func(b *Batch) *Batch { return b })
	}}
}

// newRelFilter filters one FROM relation, at offset in the joined batch,
// by pred before it is joined (exec.RelFilter); drop lists its columns
// only pred reads.
func newRelFilter(in node, pred expr, offset int, drop []int) *kernels.RelFilter {
	f := &kernels.RelFilter{In: in, Pred: predOf(pred), Offset: offset, Drop: drop}
	f.Prepare = func(ctx context.Context, in node) (node, error) {
		return reduceCorrelated(ctx, in, pred, f.Shift)
	}
	return f
}

func newProject(in node, exprs []expr) *kernels.Project {
	return &kernels.Project{In: in, Exprs: execExprs(exprs)}
}

// execExprs is exprs as the operators take them.
func execExprs(exprs []expr) []kernels.Expr {
	out := make([]kernels.Expr, len(exprs))
	for i, e := range exprs {
		out[i] = e
	}
	return out
}

// predExpr is a filter's predicate as bound.
func predExpr(p *kernels.Pred) expr { return p.All.(expr) }

// residualFilter filters in by the conjuncts: those that run no subquery
// in a filter of their own below those that do, which is the order
// filterBatch evaluates them in anyway. The lower filter then runs on
// every thread (with what is below it), and the subqueries, their
// read-ahead included (reduce.go), see only the rows it keeps, once
// (TPC-H Q22's country codes before its NOT EXISTS).
func residualFilter(in node, conjuncts []expr, threads int) node {
	pred := andOf(conjuncts)
	cheap, costly := splitCostly(pred)
	if cheap == nil {
		return newFilter(in, pred)
	}
	var low node = newFilter(in, cheap)
	if pn := parallel(low, threads, nil); pn != nil {
		low = pn
	}
	return newFilter(low, andOf(costly))
}

// splitCostly splits a conjunction into its conjuncts without subqueries
// (as one AND, nil if none) and those with, when there are both.
func splitCostly(pred expr) (cheap expr, costly []expr) {
	a, ok := pred.(*andExpr)
	if !ok {
		return nil, nil
	}
	var plain []expr
	for _, t := range conjuncts(a) {
		if runsSubquery(t) {
			costly = append(costly, t)
		} else {
			plain = append(plain, t)
		}
	}
	if len(costly) == 0 || len(plain) == 0 && len(costly) == 1 {
		return nil, nil
	}
	if len(plain) > 0 {
		cheap = andOf(plain)
	}
	return cheap, costly
}

// project evaluates exprs on b (exec.ProjectBatch).
func project(b *Batch, exprs []expr) (*Batch, error) { return kernels.ProjectBatch(b, exprs) }
