package sqlplan

// EXPLAIN ANALYZE instruments a plan with an exec.Profile
// (exec/analyze.go), which wraps the inputs of every operator; these are
// the inputs of the operators defined here.

func (j *joinNode) WrapInputs(wrap func(node) node) { j.left, j.right = wrap(j.left), wrap(j.right) }
func (n *lateralNode) WrapInputs(wrap func(node) node) {
	n.join.left = wrap(n.join.left)
}
func (n *asofNode) WrapInputs(wrap func(node) node)       { n.j.WrapInputs(wrap) }
func (n *positionalNode) WrapInputs(wrap func(node) node) { n.j.WrapInputs(wrap) }
