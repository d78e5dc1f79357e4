package plan

import (
	"fmt"
	"strings"

	"github.com/carquet-go/carquet/scan"
	"github.com/xwb1989/sqlparser"
)

// The logical plan of one SELECT: the stage between binding and the
// operators. planCore binds the statement into a tree of these nodes
// (bindSelect, select_bind.go), rewrites the tree with the optimizer's
// rules (optimize, select_optimize.go) and builds the exec operators from
// it (lower, select_lower.go).
//
// The nodes live in the root package, not in a package of their own:
// they hold the binder's things (relations and their scope columns,
// aggregate and window specs, the root's expression interface) that the
// rules read and change in place (relsOf, columnsOf, toPredicate and the
// join-key rules work on the root's concrete expression types). A
// package sqlplan/logical needs those to move first (see logical_test.go
// for the tree the rules see).

// LNode is a node of the logical plan.
type LNode interface {
	// Inputs are the node's children, left to right.
	Inputs() []LNode
	// Explain is the node's line in explainLogical's text.
	Explain() string
}

// ExplainLogical prints a logical tree, one line per node, inputs
// indented under the node that reads them.
func ExplainLogical(n LNode) string {
	var b strings.Builder
	var walk func(n LNode, depth int)
	walk = func(n LNode, depth int) {
		b.WriteString(strings.Repeat("  ", depth))
		b.WriteString(n.Explain())
		b.WriteByte('\n')
		for _, in := range n.Inputs() {
			walk(in, depth+1)
		}
	}
	walk(n, 0)
	return b.String()
}

// LQuery is a bound SELECT: its logical tree, and the places in it that
// the rules and lowering work on. A bound UNION has only root, cols and
// union.
type LQuery struct {
	Root LNode
	// union is a UNION's chain: its root, or the input of the ORDER BY
	// and LIMIT at its root.
	union *lUnion
	// where filters the FROM's joined rows (its conds may be empty); its
	// input is the join chain (lJoin nodes over lRel nodes, left-deep) or
	// lOneRow.
	where *lFilter
	agg   *aggCtx // nil without aggregation
	win   *winCtx // window functions (none: no lWindow node)
	proj  *lProject
	cols  []Column // the visible output columns
}

// lRel is a FROM item: a table's scan (with the conjuncts pushed into
// it, rel.pushed, and those run on its batches, rel.residual), a derived
// table's plan or a lateral subquery. step says how it joins the items
// before it.
type lRel struct {
	step joinStep
	// filterOnly lists the columns only the relation's residual reads,
	// dropped after it (layoutColumns).
	filterOnly []int
}

// Inputs are, for a derived table, the logical tree of its query (kept
// logical until its parent lowers it, or planned when the FROM was bound).
func (n *lRel) Inputs() []LNode {
	if lq := n.step.rel.lq; lq != nil {
		return []LNode{lq.Root}
	}
	if sub := n.step.rel.Sub; sub != nil && sub.Tree != nil {
		return []LNode{sub.Tree}
	}
	return nil
}

func (n *lRel) Explain() string {
	r := n.step.rel
	var b strings.Builder
	switch {
	case r.lateral != nil:
		fmt.Fprintf(&b, "LATERAL %s", r.Alias)
	case r.Sub != nil:
		fmt.Fprintf(&b, "DERIVED %s", r.Alias)
	default:
		fmt.Fprintf(&b, "SCAN %s", r.Alias)
	}
	if len(r.used) > 0 {
		names := make([]string, len(r.used))
		for i, c := range r.used {
			names[i] = c.Name
		}
		fmt.Fprintf(&b, " columns: %s", strings.Join(names, ", "))
	}
	if len(r.pushed) > 0 {
		fmt.Fprintf(&b, " pushed: %s", predicateList(r.pushed))
	}
	if len(r.residual) > 0 {
		fmt.Fprintf(&b, " filter: %s", exprList(r.residual))
	}
	if len(n.filterOnly) > 0 {
		fmt.Fprintf(&b, " (%d filter-only columns dropped)", len(n.filterOnly))
	}
	return b.String()
}

func predicateList(ps []scan.Predicate) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = p.String()
	}
	return strings.Join(parts, " AND ")
}

// lOneRow is a SELECT without FROM: one row of no columns.
type lOneRow struct{}

func (lOneRow) Inputs() []LNode { return nil }
func (lOneRow) Explain() string { return "ONE ROW" }

// lJoin joins its right relation to the rows of its left input. on holds
// the bound ON and USING conjuncts until splitJoinConditions sorts them
// into equality keys (keys.lkeys = keys.rkeys), the right relation's
// filters and the join's remaining condition (keys.cond). keep marks the
// joined columns read after the join (nil: all).
type lJoin struct {
	left  LNode
	right *lRel
	on    []Expr
	keys  joinKeys
	keep  []bool
}

func (n *lJoin) Inputs() []LNode { return []LNode{n.left, n.right} }

// kind names the join as the engine plans it: a RIGHT JOIN of two
// relations is planned as a LEFT JOIN with its sides swapped; a RIGHT JOIN
// after other joins keeps the right side's unmatched rows only.
func (n *lJoin) kind() string {
	st := n.right.step
	switch {
	case st.rel.lateral != nil && st.left:
		return "LEFT LATERAL JOIN"
	case st.rel.lateral != nil:
		return "LATERAL JOIN"
	case st.positional:
		return "POSITIONAL JOIN"
	case st.asof && st.left:
		return "ASOF LEFT JOIN"
	case st.asof:
		return "ASOF JOIN"
	case st.full && st.left:
		return "FULL JOIN"
	case st.full:
		return "RIGHT JOIN"
	case st.left:
		return "LEFT JOIN"
	}
	if len(n.on) == 0 && len(n.keys.lkeys) == 0 && len(n.keys.cond) == 0 {
		return "CROSS JOIN"
	}
	return "INNER JOIN"
}

func (n *lJoin) Explain() string {
	var b strings.Builder
	b.WriteString(n.kind())
	if len(n.on) > 0 {
		fmt.Fprintf(&b, " on: %s", exprAnd(n.on))
	}
	if len(n.keys.lkeys) > 0 {
		pairs := make([]string, len(n.keys.lkeys))
		for i := range n.keys.lkeys {
			pairs[i] = n.keys.lkeys[i].String() + " = " + n.keys.rkeys[i].String()
		}
		fmt.Fprintf(&b, " keys: %s", strings.Join(pairs, ", "))
	}
	if n.keys.asofL != nil {
		fmt.Fprintf(&b, " asof: %s", n.keys.asofText)
	}
	if len(n.keys.cond) > 0 {
		fmt.Fprintf(&b, " cond: %s", exprAnd(n.keys.cond))
	}
	if n.keep != nil {
		kept := 0
		for _, k := range n.keep {
			if k {
				kept++
			}
		}
		fmt.Fprintf(&b, " keeps %d of %d columns", kept, len(n.keep))
	}
	return b.String()
}

func exprAnd(es []Expr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.String()
	}
	return strings.Join(parts, " AND ")
}

// lFilter keeps the rows for which all its conjuncts are true. what says
// which clause it is (WHERE, HAVING, QUALIFY).
type lFilter struct {
	in    LNode
	conds []Expr
	what  string
}

func (n *lFilter) Inputs() []LNode { return []LNode{n.in} }

func (n *lFilter) Explain() string {
	if len(n.conds) == 0 {
		return "FILTER " + n.what + ": (nothing left)"
	}
	return "FILTER " + n.what + ": " + exprAnd(n.conds)
}

// lAggregate groups its input by the keys (in grouping sets when
// agg.sets is set) and computes the aggregates.
type lAggregate struct {
	in  LNode
	agg *aggCtx
}

func (n *lAggregate) Inputs() []LNode { return []LNode{n.in} }

func (n *lAggregate) Explain() string {
	aggs := make([]string, len(n.agg.aggs))
	for i, a := range n.agg.aggs {
		aggs[i] = a.Text
	}
	s := "AGGREGATE"
	if len(n.agg.keys) > 0 {
		s += " group by: " + exprList(n.agg.keys)
	}
	if n.agg.sets != nil {
		s += fmt.Sprintf(" in %d grouping sets", len(n.agg.sets))
	}
	return s + " aggregates: " + strings.Join(aggs, ", ")
}

// lWindow adds a column per window function.
type lWindow struct {
	in  LNode
	win *winCtx
}

func (n *lWindow) Inputs() []LNode { return []LNode{n.in} }

func (n *lWindow) Explain() string {
	texts := make([]string, len(n.win.specs))
	for i, w := range n.win.specs {
		texts[i] = w.text
	}
	return "WINDOW " + strings.Join(texts, ", ")
}

// lProject computes the select list (and the hidden ORDER BY columns
// after it).
type lProject struct {
	in    LNode
	exprs []Expr
}

func (n *lProject) Inputs() []LNode { return []LNode{n.in} }
func (n *lProject) Explain() string { return "PROJECT " + exprList(n.exprs) }

// lUnnest makes a row per element of the lists in the columns cols, of
// element types elems.
type lUnnest struct {
	in    LNode
	cols  []int
	elems []Type
}

func (n *lUnnest) Inputs() []LNode { return []LNode{n.in} }
func (n *lUnnest) Explain() string { return fmt.Sprintf("UNNEST columns %v", n.cols) }

// lDistinct drops repeated rows.
type lDistinct struct{ in LNode }

func (n *lDistinct) Inputs() []LNode { return []LNode{n.in} }
func (n *lDistinct) Explain() string { return "DISTINCT" }

// lSort orders the rows (of column types types) by the keys; limit (-1:
// none) keeps the first rows only (a top-N).
type lSort struct {
	in    LNode
	keys  []sortKey
	limit int64
	types []Type
}

func (n *lSort) Inputs() []LNode { return []LNode{n.in} }

func (n *lSort) Explain() string {
	parts := make([]string, len(n.keys))
	for i, k := range n.keys {
		parts[i] = k.Text
		if k.Desc {
			parts[i] += " DESC"
		}
		if k.NullsFirst {
			parts[i] += " NULLS FIRST"
		}
	}
	s := "SORT " + strings.Join(parts, ", ")
	if n.limit >= 0 {
		s += fmt.Sprintf(" top %d", n.limit)
	}
	return s
}

// lLimit keeps limit rows (-1: all) after skipping offset; or, when
// percent is not negative, that share of all the rows (LIMIT p%).
type lLimit struct {
	in            LNode
	limit, offset int64
	percent       float64
}

func (n *lLimit) Inputs() []LNode { return []LNode{n.in} }
func (n *lLimit) Explain() string {
	if n.percent >= 0 {
		return fmt.Sprintf("LIMIT %g%% OFFSET %d", n.percent, n.offset)
	}
	return fmt.Sprintf("LIMIT %d OFFSET %d", n.limit, n.offset)
}

// newLimit is the LIMIT node of limitValues' results over in, nil when
// the clause keeps every row.
func newLimit(in LNode, lim, off int64, pct float64) *lLimit {
	if lim < 0 && off == 0 && pct < 0 {
		return nil
	}
	l := lim - off
	if lim < 0 {
		l = -1
	}
	return &lLimit{in: in, limit: l, offset: off, percent: pct}
}

// lUnion is a chain of set operations (UNION [ALL], or INTERSECT and
// EXCEPT [ALL]) of bound queries (each a SELECT or a UNION in
// parentheses, optimized and lowered with the chain): kinds[i] is the
// operation between the parts up to i and part i+1; a UNION (not ALL)
// removes the duplicates of all the rows so far. types are the chain's
// column types, to which each part's values are cast. planners, when
// set, are the parts' own (an INTERSECT's parts are statements of their
// own source); otherwise the chain's planner plans them.
type lUnion struct {
	parts    []*LQuery
	kinds    []string
	types    []Type
	planners []*Planner
}

// planner is the planner of part i, p when it has none of its own.
func (n *lUnion) planner(i int, p *Planner) *Planner {
	if n.planners != nil {
		return n.planners[i]
	}
	return p
}

func (n *lUnion) Inputs() []LNode {
	ins := make([]LNode, len(n.parts))
	for i, q := range n.parts {
		ins[i] = q.Root
	}
	return ins
}

// all reports whether every UNION of the chain is UNION ALL (none
// removes duplicates).
func (n *lUnion) all() bool {
	for _, k := range n.kinds {
		if k != sqlparser.UnionAllStr {
			return false
		}
	}
	return true
}

func (n *lUnion) Explain() string {
	return strings.ToUpper(strings.Join(n.kinds, ", "))
}

// lKeep drops the hidden columns after the first n.
type lKeep struct {
	in LNode
	n  int
}

func (n *lKeep) Inputs() []LNode { return []LNode{n.in} }
func (n *lKeep) Explain() string { return fmt.Sprintf("KEEP %d columns", n.n) }

// chain lists the FROM's relations in join order and, for each but the
// first, the join that adds it (joins[0] is nil). No FROM: none.
func (q *LQuery) chain() (rels []*lRel, joins []*lJoin) {
	var walk func(n LNode)
	walk = func(n LNode) {
		switch x := n.(type) {
		case *lJoin:
			walk(x.left)
			rels = append(rels, x.right)
			joins = append(joins, x)
		case *lRel:
			rels = append(rels, x)
			joins = append(joins, nil)
		}
	}
	walk(q.where.in)
	return rels, joins
}

// steps are the FROM's join steps in join order.
func (q *LQuery) steps() []joinStep {
	rels, _ := q.chain()
	steps := make([]joinStep, len(rels))
	for i, r := range rels {
		steps[i] = r.step
	}
	return steps
}

// joinKeyList copies the joins' keys into a list by step (what the
// join-key rules of join.go take); setJoinKeys stores them back.
func (q *LQuery) joinKeyList() []joinKeys {
	_, joins := q.chain()
	out := make([]joinKeys, len(joins))
	for i, j := range joins {
		if j != nil {
			out[i] = j.keys
		}
	}
	return out
}

func (q *LQuery) setJoinKeys(keys []joinKeys) {
	_, joins := q.chain()
	for i, j := range joins {
		if j != nil {
			j.keys = keys[i]
		}
	}
}

// joinChain joins the relations left-deep in their order, each with the
// join node that carried it before (its ON conjuncts and keys), or a new
// one.
func joinChain(rels []*lRel, old map[*lRel]*lJoin) LNode {
	if len(rels) == 0 {
		return lOneRow{}
	}
	var n LNode = rels[0]
	for _, r := range rels[1:] {
		j := old[r]
		if j == nil {
			j = &lJoin{}
		}
		j.left, j.right = n, r
		n = j
	}
	return n
}
