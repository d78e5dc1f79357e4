package sqlplan

// EXPLAIN ANALYZE instruments a plan with an exec.Profile
// (exec/analyze.go), which wraps the inputs of every operator; these are
// the inputs of the operators defined here.

func (n *lateralNode) WrapInputs(wrap func(node) node) {
	n.join.Left = wrap(n.join.Left)
}
