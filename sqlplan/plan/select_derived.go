package plan

import (
	"slices"
	"strings"

	"github.com/xwb1989/sqlparser"
)

// Derived tables (a subquery in FROM, a CTE named once, a view) stay
// logical until their parent is optimized: the parent's rules move the
// filters on a derived table's columns into its WHERE (pushIntoDerived)
// and drop the outputs the parent never reads (pruneDerivedOutputs);
// only then is the derived table optimized (planDerived) and, with its
// parent, lowered (lowerRel).

// bindDerived binds a derived table's SELECT without optimizing or
// lowering it; its parent does both (planDerived, lowerRel).
func (p *Planner) bindDerived(sel *sqlparser.Select, outer *Scope) (*LQuery, error) {
	leave, err := p.enterQuery()
	defer leave()
	if err != nil {
		return nil, err
	}
	return p.bindCore(sel, outer)
}

// pushIntoDerived moves the filters on one derived table's columns into
// that table's WHERE, written in its own terms (its select expressions in
// place of the columns), where its own rules push them on into its scans:
// a relation's own filters (a WHERE conjunct or an ON condition that
// pushDownWhere and splitJoinConditions placed on it, so never on a side
// NULLs may fill) and, when the FROM is that table alone, the WHERE's.
// Only into a table whose rows do not depend on which rows there are
// (see filterTargets), and only through deterministic expressions.
func pushIntoDerived(q *LQuery) {
	rels, _ := q.chain()
	for _, lr := range rels {
		r := lr.step.rel
		if r.lq == nil {
			continue
		}
		targets := filterTargets(r.lq)
		if targets == nil {
			continue
		}
		r.residual = moveInto(r, targets, r.residual)
		if len(rels) == 1 && !r.pinned && !r.nullExtended {
			q.where.conds = moveInto(r, targets, q.where.conds)
		}
	}
}

// moveInto adds to the WHERE of each of targets, the SELECTs of r's
// derived query, the conjuncts of conds that name r alone and can be
// written in the terms of every one of them, and returns the others.
func moveInto(r *Relation, targets []*LQuery, conds []Expr) []Expr {
	var left []Expr
	for _, c := range conds {
		rs := relsOf(c)
		if len(rs) == 1 && rs[r] && !runsSubquery(c) {
			if ins, ok := substituteAll(c, r, targets); ok {
				for i, t := range targets {
					t.where.conds = append(t.where.conds, ins[i])
				}
				continue
			}
		}
		left = append(left, c)
	}
	return left
}

// substituteAll writes c in the terms of each of targets; ok is false
// when one of them cannot take it (then none does: a branch of a UNION
// left unfiltered would let its rows through).
func substituteAll(c Expr, r *Relation, targets []*LQuery) ([]Expr, bool) {
	ins := make([]Expr, len(targets))
	for i, t := range targets {
		in, ok := substituteDerived(c, r, t)
		if !ok {
			return nil, false
		}
		ins[i] = in
	}
	return ins, true
}

// filterTargets lists the SELECTs whose WHERE a filter on q's output rows
// goes into: q itself (when derivedFilterable), or every SELECT of a
// UNION, each filtered on its own output at the same positions; nil when
// one of them cannot take it, or when a LIMIT on the union picks rows
// before the filter would.
//
// Through UNION ALL this is plain: the union's rows are its parts' rows.
// Through UNION (distinct) too: a deterministic filter reads only the
// row's values, so rows that are duplicates of one another pass or fail
// together, and removing them before or after the filter keeps the same
// rows.
func filterTargets(q *LQuery) []*LQuery {
	if q.union == nil {
		if !derivedFilterable(q) {
			return nil
		}
		return []*LQuery{q}
	}
	if !onlyOrderBetween(q.Root, q.union) {
		return nil
	}
	var out []*LQuery
	for _, part := range q.union.parts {
		ts := filterTargets(part)
		if ts == nil {
			return nil
		}
		out = append(out, ts...)
	}
	return out
}

// derivedFilterable reports whether filtering a derived query's output
// rows equals filtering its FROM's joined rows: no DISTINCT, LIMIT,
// top-N or UNNEST between them (each of those makes a row's presence or
// values depend on the other rows). Through an aggregation only a filter
// on its group keys passes (substituteDerived), which keeps or drops
// whole groups; not through grouping sets, whose rows have NULL for the
// keys they roll up. Through window functions only a filter on the
// PARTITION BY keys of all of them passes (windowPartitionKey); not when they
// run over an aggregation's groups.
func derivedFilterable(q *LQuery) bool {
	if q.where == nil || q.proj == nil {
		return false
	}
	windows := q.win != nil && len(q.win.specs) > 0
	if q.agg != nil && (q.agg.sets != nil || windows) {
		return false
	}
	return onlyOrderAbove(q)
}

// windowPartitionKey reports whether e, a select expression of a query with
// window functions, is a column each of them partitions by: a filter on
// it keeps or drops whole partitions, and a partition's window values
// depend on its own rows alone.
func windowPartitionKey(win *winCtx, e Expr) bool {
	c, ok := e.(*ColExpr)
	if !ok || c.col == nil {
		return false
	}
	for _, w := range win.specs {
		if !slices.ContainsFunc(w.part, func(p Expr) bool {
			pc, ok := p.(*ColExpr)
			return ok && pc.col == c.col
		}) {
			return false
		}
	}
	return true
}

// groupKeyOf is the group key (over the FROM's columns) that the select
// expression e outputs, nil if e is not one.
func groupKeyOf(agg *aggCtx, e Expr) Expr {
	c, ok := e.(*ColExpr)
	if !ok || c.col != nil {
		return nil
	}
	for i, k := range agg.keys {
		if agg.slots[i] == c.S {
			return k
		}
	}
	return nil
}

// onlyOrderAbove reports whether the nodes above q's select list only
// order the rows (a full sort) or drop hidden columns.
func onlyOrderAbove(q *LQuery) bool { return onlyOrderBetween(q.Root, q.proj) }

// onlyOrderBetween reports whether the nodes from top down to (not
// including) bottom only order the rows or drop hidden columns.
func onlyOrderBetween(top, bottom LNode) bool {
	for n := top; n != bottom; {
		switch x := n.(type) {
		case *lSort:
			if x.limit >= 0 {
				return false
			}
			n = x.in
		case *lKeep:
			n = x.in
		default:
			return false
		}
	}
	return true
}

// substituteDerived writes e, an expression over r's columns, over the
// columns of t, the SELECT of r's derived query that gives r its rows
// (the query itself, or a part of its UNION): each column becomes t's
// select expression at its position. ok is false when an expression in
// it is not one this knows to copy, or not deterministic (the filter
// would run on other rows or a different number of times than the select
// list), or when a UNION's part makes values of another type than the
// union's (the filter was bound for the union's type, and the part's
// values are cast to it only after the union).
func substituteDerived(e Expr, r *Relation, t *LQuery) (Expr, bool) {
	if c, ok := e.(*ColExpr); ok {
		if c.col == nil || c.col.Rel != r || c.col.Local >= len(r.Cols) || r.Cols[c.col.Local] != c.col {
			return nil, false
		}
		in := t.proj.exprs[c.col.Local]
		if t.agg != nil {
			// Below an aggregate, only a group key has a value per row.
			in = groupKeyOf(t.agg, in)
		}
		if in == nil || !stableExpr(in) {
			return nil, false
		}
		if t.win != nil && len(t.win.specs) > 0 && !windowPartitionKey(t.win, in) {
			return nil, false
		}
		if t != r.lq && !sameValues(in.Type(), c.col.T) {
			return nil, false
		}
		return in, true
	}
	return copyExprWith(e, func(ch Expr) (Expr, bool) { return substituteDerived(ch, r, t) })
}

// sameValues reports whether values of types a and b are the same
// values, so that a filter bound for one means the same on the other.
// Nested types are never taken for the same (their shape is in their
// fields); an integer of no width named is 64 bits wide.
func sameValues(a, b Type) bool {
	for _, t := range []*Type{&a, &b} {
		if t.Bits == 0 && (t.Kind == KInt || t.Kind == KUint) {
			t.Bits = 64
		}
	}
	return a.Kind != KNested && sameScalar(a, b) && a.JSON == b.JSON && a.Bit == b.Bit
}

// stableExpr reports whether e is made only of expressions that give
// the same value for the same row every time and have no effect.
func stableExpr(e Expr) bool {
	switch x := e.(type) {
	case *ColExpr, *ConstExpr:
		return true
	case *funcExpr:
		if volatileFunc(x.name) {
			return false
		}
	case *cmpExpr, *AndExpr, *orExpr, *notExpr, *isNullExpr, *isBoolExpr, *inExpr, *likeExpr, *caseExpr, *castExpr, *arithExpr, *negExpr:
	default:
		return false
	}
	for _, ch := range children(e) {
		if !stableExpr(ch) {
			return false
		}
	}
	return true
}

// volatileFunc reports whether the function named name gives a new value
// on each call (or changes state): each row of each reference must call
// it.
func volatileFunc(name string) bool {
	switch strings.ToLower(name) {
	case "random", "rand", "setseed", "nextval", "currval", "uuid", "gen_random_uuid":
		return true
	}
	return false
}

// copyExprWith copies e with each input replaced by sub's result; ok is false
// for a kind of expression it does not copy, or when sub fails.
func copyExprWith(e Expr, sub func(Expr) (Expr, bool)) (Expr, bool) {
	// set and setAll fill a copy's inputs, and say whether sub could.
	set := func(dst *Expr, src Expr) bool {
		var ok bool
		*dst, ok = sub(src)
		return ok
	}
	setAll := func(dst *[]Expr, src []Expr) bool {
		*dst = make([]Expr, len(src))
		for i, x := range src {
			if !set(&(*dst)[i], x) {
				return false
			}
		}
		return true
	}
	switch x := e.(type) {
	case *ConstExpr:
		return x, true
	case *cmpExpr:
		n := *x
		return &n, set(&n.l, x.l) && set(&n.r, x.r)
	case *arithExpr:
		n := *x
		return &n, set(&n.l, x.l) && set(&n.r, x.r)
	case *likeExpr:
		n := *x
		return &n, set(&n.e, x.e) && set(&n.pat, x.pat)
	case *AndExpr:
		n := *x
		return &n, setAll(&n.Terms, x.Terms)
	case *orExpr:
		n := *x
		return &n, setAll(&n.terms, x.terms)
	case *notExpr:
		n := *x
		return &n, set(&n.e, x.e)
	case *isNullExpr:
		n := *x
		return &n, set(&n.e, x.e)
	case *isBoolExpr:
		n := *x
		return &n, set(&n.e, x.e)
	case *inExpr:
		n := *x
		return &n, set(&n.e, x.e)
	case *castExpr:
		n := *x
		return &n, set(&n.e, x.e)
	case *negExpr:
		n := *x
		return &n, set(&n.e, x.e)
	case *funcExpr:
		n := *x
		return &n, !volatileFunc(x.name) && setAll(&n.args, x.args)
	case *caseExpr:
		n := *x
		return &n, setAll(&n.conds, x.conds) && setAll(&n.vals, x.vals) && (x.els == nil || set(&n.els, x.els))
	}
	return nil, false
}

// pruneDerivedOutputs replaces the select expressions of a derived table
// that its parent never reads by unreadExpr, so that their columns are
// neither read nor computed (a count(*) over SELECT * reads no column),
// in the SELECTs pruneTargets names.
func pruneDerivedOutputs(q *LQuery) {
	rels, _ := q.chain()
	var read map[*ScopeCol]bool
	for _, lr := range rels {
		r := lr.step.rel
		if r.lq == nil {
			continue
		}
		targets := pruneTargets(r.lq)
		if len(targets) == 0 {
			continue
		}
		if read == nil {
			read = readByParent(q)
		}
		for k, c := range r.Cols {
			if read[c] || c.used {
				continue
			}
			for _, t := range targets {
				if k < len(t.cols) { // only the select list's columns have an expression
					// Of the derived table's type: a UNION's part casts
					// nothing to it.
					t.proj.exprs[k] = withText(&unreadExpr{t: c.T}, "(unread)")
				}
			}
		}
	}
}

// pruneTargets lists the SELECTs whose outputs may be dropped when no one
// reads them: q itself when nothing but the dropping of hidden columns
// sits above its select list (not under DISTINCT or UNNEST, where every
// column decides the rows, nor with ORDER BY, whose keys may read them),
// or those of the parts of a UNION ALL without ORDER BY or LIMIT. Not
// below a UNION that removes duplicates: there too every column decides
// which rows are duplicates.
func pruneTargets(q *LQuery) []*LQuery {
	if q.union == nil {
		if q.proj == nil || !onlyKeepAbove(q) {
			return nil
		}
		return []*LQuery{q}
	}
	if q.Root != LNode(q.union) || !q.union.all() {
		return nil
	}
	var out []*LQuery
	for _, part := range q.union.parts {
		out = append(out, pruneTargets(part)...)
	}
	return out
}

// unreadExpr stands for a derived table's output that its parent never
// reads: a dropped column, which keeps its place and row count in the
// batches (the parent's layout counts it) but holds no values, so it
// costs nothing to make or to copy.
type unreadExpr struct {
	named
	t Type
}

func (e *unreadExpr) Type() Type { return e.t }
func (e *unreadExpr) Eval(b *Batch) (*Col, error) {
	return droppedCol(e.t, b.N), nil
}

// onlyKeepAbove reports whether nothing but the dropping of hidden
// columns sits above q's select list.
func onlyKeepAbove(q *LQuery) bool {
	for n := q.Root; n != LNode(q.proj); {
		k, ok := n.(*lKeep)
		if !ok {
			return false
		}
		n = k.in
	}
	return true
}

// readByParent marks the columns q reads anywhere: above the relations
// (readAbove), in their own filters, and in every filter and select list
// of its tree.
func readByParent(q *LQuery) map[*ScopeCol]bool {
	read := readAbove(q, q.joinKeyList())
	for _, st := range q.steps() {
		for _, c := range st.rel.residual {
			columnsOf(c, read)
		}
	}
	var walk func(n LNode)
	walk = func(n LNode) {
		switch x := n.(type) {
		case *lFilter:
			for _, c := range x.conds {
				columnsOf(c, read)
			}
		case *lProject:
			for _, e := range x.exprs {
				columnsOf(e, read)
			}
		case *lRel, *lUnion:
			return // another query's columns
		}
		for _, in := range n.Inputs() {
			walk(in)
		}
	}
	walk(q.Root)
	return read
}

// planDerived optimizes the derived tables of q's FROM once q's rules
// have given them their filters and outputs.
func (p *Planner) planDerived(q *LQuery) error {
	rels, _ := q.chain()
	for _, lr := range rels {
		r := lr.step.rel
		if r.lq == nil {
			continue
		}
		if err := p.optimize(r.lq); err != nil {
			return err
		}
		if p.OnLogical != nil {
			p.OnLogical("optimize", r.lq)
		}
	}
	return nil
}

// lowerDerived builds the operators of a derived table kept logical.
func (p *Planner) lowerDerived(r *Relation) (Node, error) {
	sp, err := p.lower(r.lq)
	if err != nil {
		return nil, err
	}
	r.Sub.Root = sp.Root
	return sp.Root, nil
}
