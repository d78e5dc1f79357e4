package plan

import (
	"context"
	"slices"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// The pipelines (exec.Pipeline) run the per-batch work above a scan on
// several goroutines; the planner decides here what a pipeline runs.

// pipeParts are a chain of nodes over a scan taken apart for a pipeline:
// the scan, the per-batch steps above it, what must run before the first
// step (building the hash tables of the joins probed), and the pipelines
// inside the chain whose steps these include.
type pipeParts struct {
	src                *kernels.Scan
	steps              []kernels.Step
	prep               []func(context.Context) error
	owners, prepOwners []Node // the operator of each step and prep (nil: none)
	fused              []*kernels.Pipeline
}

// with is p with one more step (and what it needs first), owner's work.
func (p pipeParts) with(step kernels.Step, prep func(context.Context) error, owner Node) pipeParts {
	p.steps = append(p.steps, step)
	p.owners = append(p.owners, owner)
	if prep != nil {
		p.prep = append(p.prep, prep)
		p.prepOwners = append(p.prepOwners, owner)
	}
	return p
}

// pipeline takes n apart when it is a chain of filters, projections and
// equality joins over a scan whose expressions can be evaluated
// concurrently.
func pipeline(n Node) (pipeParts, bool) {
	switch x := n.(type) {
	case *kernels.Scan:
		return pipeParts{src: x}, true
	case *kernels.Pipeline:
		src, ok := x.In.(*kernels.Scan)
		if x.Started() || !ok {
			return pipeParts{}, false
		}
		// Clipped: the steps appended above never share x's arrays.
		return pipeParts{src: src, steps: slices.Clip(x.Steps), prep: slices.Clip(x.Prep),
			owners: slices.Clip(x.Owners), prepOwners: slices.Clip(x.PrepOwners), fused: []*kernels.Pipeline{x}}, true
	case *kernels.Filter:
		if !concurrentSafe(predExpr(&x.Pred)) {
			return pipeParts{}, false
		}
		p, ok := pipeline(x.In)
		pred := x.Pred
		return p.with(pred.Filter, nil, x), ok
	case *kernels.RelFilter:
		if !concurrentSafe(predExpr(&x.Pred)) {
			return pipeParts{}, false
		}
		p, ok := pipeline(x.In)
		return p.with(x.Filter, nil, x), ok
	case *kernels.Project:
		for _, e := range x.Exprs {
			if !concurrentSafe(e.(Expr)) {
				return pipeParts{}, false
			}
		}
		p, ok := pipeline(x.In)
		exprs := x.Exprs
		return p.with(func(b *Batch) (*Batch, error) { return kernels.ProjectBatch(b, exprs) }, nil, x), ok
	case *kernels.HashJoin:
		if !probeConcurrently(x) {
			return pipeParts{}, false
		}
		p, ok := pipeline(x.Left)
		return p.with(x.Probe, x.Prepare, x), ok
	}
	return pipeParts{}, false
}

// parallel returns n run as a pipeline on workers goroutines with extra
// as its last step, or nil when it cannot be.
func parallel(n Node, workers int, extra kernels.Step) *kernels.Pipeline {
	if workers < 2 {
		return nil
	}
	p, ok := pipeline(n)
	if !ok {
		return nil
	}
	if extra != nil {
		p = p.with(extra, nil, nil)
	}
	if len(p.steps) == 0 {
		return nil
	}
	for _, f := range p.fused {
		f.Fused = true // runs as part of this one
	}
	return &kernels.Pipeline{In: p.src, Steps: p.steps, Prep: p.prep, PrepAfter: prepAfter(p.prepOwners),
		Owners: p.owners, PrepOwners: p.prepOwners, Workers: workers, Shown: n}
}

// concurrentSafe reports whether e may be evaluated on several batches at
// once: expressions of the kinds below hold no state that evaluation
// changes; functions with state of their own (random numbers, sequences)
// and everything else (subqueries, lambdas) stay serial.
func concurrentSafe(e Expr) bool {
	switch x := e.(type) {
	case *ColExpr, *ConstExpr:
		return true
	case *cmpExpr, *AndExpr, *orExpr, *notExpr, *isNullExpr, *isBoolExpr, *inExpr,
		*likeExpr, *caseExpr, *castExpr, *arithExpr, *negExpr:
	case *funcExpr:
		switch x.name {
		case "random", "rand", "setseed", "nextval", "currval", "uuid", "gen_random_uuid":
			return false
		}
	default:
		return false
	}
	for _, c := range children(e) {
		if !concurrentSafe(c) {
			return false
		}
	}
	return true
}

// isColumn reports whether e reads a column (or a constant) as it is.
func isColumn(e Expr) bool {
	switch e.(type) {
	case *ColExpr, *ConstExpr:
		return true
	}
	return false
}
