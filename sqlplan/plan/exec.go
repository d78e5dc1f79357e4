package plan

import (
	"context"
	"math/rand/v2"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

func randFloat() float64 { return rand.Float64() }

// The operators that run plans are in package exec; these build them
// from the planner's bound expressions.

// scanRelation is the relation a scan reads.
func scanRelation(s *kernels.Scan) *Relation { return s.Origin.(*Relation) }

// predOf is pred split for a filter (exec.Pred): its conjuncts that run
// subqueries apart from the others.
func predOf(pred Expr) kernels.Pred {
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
func newFilter(in Node, pred Expr) *kernels.Filter {
	return &kernels.Filter{In: in, Pred: predOf(pred), Prepare: func(ctx context.Context, in Node) (Node, error) {
		return reduceCorrelated(ctx, in, pred, func(b *Batch) *Batch { return b })
	}}
}

// newRelFilter filters one FROM relation, at offset in the joined batch,
// by pred before it is joined (exec.RelFilter); drop lists its columns
// only pred reads.
func newRelFilter(in Node, pred Expr, offset int, drop []int) *kernels.RelFilter {
	f := &kernels.RelFilter{In: in, Pred: predOf(pred), Offset: offset, Drop: drop}
	f.Prepare = func(ctx context.Context, in Node) (Node, error) {
		return reduceCorrelated(ctx, in, pred, f.Shift)
	}
	return f
}

func newProject(in Node, exprs []Expr) *kernels.Project {
	return &kernels.Project{In: in, Exprs: execExprs(exprs)}
}

// execExprs is exprs as the operators take them.
func execExprs(exprs []Expr) []kernels.Expr {
	out := make([]kernels.Expr, len(exprs))
	for i, e := range exprs {
		out[i] = e
	}
	return out
}

// predExpr is a filter's predicate as bound.
func predExpr(p *kernels.Pred) Expr { return p.All.(Expr) }

// residualFilter filters in by the conjuncts: those that run no subquery
// in a filter of their own below those that do, which is the order
// filterBatch evaluates them in anyway. The lower filter then runs on
// every thread (with what is below it), and the subqueries, their
// read-ahead included (reduce.go), see only the rows it keeps, once
// (TPC-H Q22's country codes before its NOT EXISTS).
func residualFilter(in Node, conjuncts []Expr, threads int) Node {
	pred := andOf(conjuncts)
	cheap, costly := splitCostly(pred)
	if cheap == nil {
		return newFilter(in, pred)
	}
	var low Node = newFilter(in, cheap)
	if pn := parallel(low, threads, nil); pn != nil {
		low = pn
	}
	return newFilter(low, andOf(costly))
}

// splitCostly splits a conjunction into its conjuncts without subqueries
// (as one AND, nil if none) and those with, when there are both.
func splitCostly(pred Expr) (cheap Expr, costly []Expr) {
	a, ok := pred.(*AndExpr)
	if !ok {
		return nil, nil
	}
	var plain []Expr
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
func project(b *Batch, exprs []Expr) (*Batch, error) { return kernels.ProjectBatch(b, exprs) }
