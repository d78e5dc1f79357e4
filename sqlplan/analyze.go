package sqlplan

import (
	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// EXPLAIN ANALYZE instruments a plan with an exec.Profile
// (exec/analyze.go), which wraps the inputs of every operator; these are
// the inputs of the operators defined here, and how a pipeline times its
// steps and the building of its joins' tables.

func (n *aggNode) WrapInputs(wrap func(node) node)  { n.in = wrap(n.in) }
func (j *joinNode) WrapInputs(wrap func(node) node) { j.left, j.right = wrap(j.left), wrap(j.right) }
func (n *lateralNode) WrapInputs(wrap func(node) node) {
	n.join.left = wrap(n.join.left)
}
func (n *asofNode) WrapInputs(wrap func(node) node)       { n.j.WrapInputs(wrap) }
func (n *positionalNode) WrapInputs(wrap func(node) node) { n.j.WrapInputs(wrap) }

// Instrument wraps the pipeline's scan and the chain it shows, and has it
// time its steps and the building of its joins' tables.
func (x *pipeNode) Instrument(p *kernels.Profile) {
	x.in = p.Wrap(x.in)
	x.shown = p.Wrap(x.shown)
	x.stepStats = make([]*kernels.OpStats, len(x.steps))
	for i, o := range x.owners {
		if o != nil {
			x.stepStats[i] = p.Of(o)
		}
	}
	x.prepStats = make([]*kernels.OpStats, len(x.prep))
	for i, o := range x.prepOwners {
		if o != nil {
			x.prepStats[i] = p.Of(o)
		}
	}
	x.workStats = p.Of(x)
}

// Workers is the number of the pipeline's workers, for its figures.
func (x *pipeNode) Workers() int { return x.workers }
