package plan

import (
	"maps"

	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// The optimizer's rules over a bound SELECT's logical tree (logical.go).
// Each rule is a function of its own; optimize applies them in order.

// optimize rewrites a bound SELECT's tree. The order matters: implied
// filters add conjuncts that join ordering estimates with and that are
// then pushed down like the others; join ordering comes before the join
// conditions are sorted, since a condition's place (key, filter of the
// right side, join condition) depends on which relations come before it;
// the WHERE gives up its equalities to the joins before the rest of it
// is pushed down; the filters left on a derived table go into it; the
// columns are laid out when every expression has its final place, and the
// derived tables, given their filters and the outputs read, are
// optimized last.
func (p *Planner) optimize(q *LQuery) error {
	if q.union != nil {
		return p.optimizeParts(q.union)
	}
	for _, r := range OptimizerRules {
		r.apply(p, q)
	}
	return p.planDerived(q)
}

// OptimizerRules are the rules optimize applies, in order, by the names
// duckdb_optimizers() lists (systables.go).
var OptimizerRules = []struct {
	Name  string
	apply func(p *Planner, q *LQuery)
}{
	{"implied_filters", func(_ *Planner, q *LQuery) { addImpliedFilters(q) }},
	{"join_order", (*Planner).reorderJoins},
	{"split_join_conditions", func(_ *Planner, q *LQuery) { splitJoinConditions(q) }},
	{"where_into_join_keys", func(_ *Planner, q *LQuery) { whereIntoJoinKeys(q) }},
	{"filter_pushdown", func(_ *Planner, q *LQuery) { pushDownWhere(q) }},
	{"derived_filter_pushdown", func(_ *Planner, q *LQuery) { pushIntoDerived(q) }},
	{"column_layout", func(_ *Planner, q *LQuery) { layoutColumns(q) }},
	{"unused_derived_columns", func(_ *Planner, q *LQuery) { pruneDerivedOutputs(q) }},
}

// optimizeParts optimizes the parts of a UNION once the union's parent
// has given them their filters and pruned their outputs
// (select_derived.go).
func (p *Planner) optimizeParts(u *lUnion) error {
	for i, part := range u.parts {
		if err := u.planner(i, p).optimize(part); err != nil {
			return err
		}
		if p.OnLogical != nil {
			p.OnLogical("optimize", part)
		}
	}
	return nil
}

// addImpliedFilters adds to the WHERE of a join the conjuncts its
// disjunctions imply, and to the WHERE and a LEFT JOIN's ON those its
// equalities imply (a.k = b.k AND a.k < 5 gives b.k < 5), so that each
// relation's scan can prune on them (implied.go).
func addImpliedFilters(q *LQuery) {
	if rels, _ := q.chain(); len(rels) > 1 {
		q.where.conds = append(q.where.conds, impliedFilters(q.where.conds)...)
		addKeyFilters(q)
	}
}

// reorderJoins chooses the join order of a FROM of base tables joined by
// WHERE alone, from the tables' sizes and the WHERE's filters
// (joinorder.go); other FROMs keep their order.
func (p *Planner) reorderJoins(q *LQuery) {
	rels, joins := q.chain()
	if len(rels) < 2 {
		return
	}
	steps := q.steps()
	ordered := p.orderJoins(steps, q.where.conds)
	byRel := map[*Relation]*lRel{}
	old := map[*lRel]*lJoin{}
	for i, r := range rels {
		byRel[r.step.rel] = r
		old[r] = joins[i]
	}
	order := make([]*lRel, len(ordered))
	for i, st := range ordered {
		order[i] = byRel[st.rel]
	}
	q.where.in = joinChain(order, old)
}

// splitJoinConditions sorts each join's ON and USING conjuncts: an
// equality between the right relation and the relations before it is a
// key of the hash join; a condition on the right relation alone filters
// it before the join (in its scan when the scan can evaluate it exactly,
// else on its batches), except under FULL JOIN, which keeps every right
// row; a condition on no relation of an inner join goes to the WHERE; the
// rest is the join's condition. ASOF joins' conditions were taken apart
// when bound.
func splitJoinConditions(q *LQuery) {
	_, joins := q.chain()
	for _, j := range joins {
		if j == nil {
			continue
		}
		st := j.right.step
		for _, c := range j.on {
			if joinKey(c, st.rel, &j.keys) {
				continue
			}
			rs := relsOf(c)
			if len(rs) == 1 && rs[st.rel] && st.rel.table != nil && !st.full {
				if pred, ok := toPredicate(c); ok {
					st.rel.pushed = append(st.rel.pushed, pred)
					continue
				}
			}
			if len(rs) == 1 && rs[st.rel] && !st.full && st.rel.lateral == nil && !runsSubquery(c) {
				// The rest filters the right input before it is hashed
				// (TPC-H Q13's o_comment NOT LIKE under LEFT JOIN).
				st.rel.residual = append(st.rel.residual, c)
				continue
			}
			if len(rs) == 0 && !st.left && !st.full {
				q.where.conds = append(q.where.conds, c)
				continue
			}
			j.keys.cond = append(j.keys.cond, c)
		}
		j.on = nil
	}
}

// joinKey adds c to the keys of the join that adds rel when it is an
// equality between rel's columns and those of the relations before it,
// and says whether it did.
func joinKey(c Expr, rel *Relation, keys *joinKeys) bool {
	eq, ok := c.(*cmpExpr)
	if !ok || eq.op != opEq || rel.lateral != nil {
		return false
	}
	lr, rr := relsOf(eq.l), relsOf(eq.r)
	onlyRight := func(m map[*Relation]bool) bool { return len(m) == 1 && m[rel] }
	onlyLeft := func(m map[*Relation]bool) bool { return len(m) > 0 && !m[rel] }
	switch {
	case onlyLeft(lr) && onlyRight(rr):
		keys.lkeys = append(keys.lkeys, eq.l)
		keys.rkeys = append(keys.rkeys, eq.r)
		return true
	case onlyRight(lr) && onlyLeft(rr):
		keys.lkeys = append(keys.lkeys, eq.r)
		keys.rkeys = append(keys.rkeys, eq.l)
		return true
	}
	return false
}

// whereIntoJoinKeys makes the WHERE's equalities between an inner-joined
// relation and those before it keys of its join, so that FROM a, b WHERE
// a.k = b.k is a hash join rather than a filtered cross product
// (whereJoinKeys, join.go).
func whereIntoJoinKeys(q *LQuery) {
	keys := q.joinKeyList()
	q.where.conds = whereJoinKeys(q.steps(), q.where.conds, keys)
	q.setJoinKeys(keys)
}

// pushDownWhere moves the WHERE's single-relation conjuncts below the
// joins: into the relation's scan when the scan evaluates them exactly,
// else onto its batches before it is joined. Not for a relation NULLs
// may fill (the WHERE sees its rows only after the join), nor a pinned
// one; a correlated subquery's test waits for the rows the joins leave.
func pushDownWhere(q *LQuery) {
	steps := q.steps()
	var residual []Expr
	for _, c := range q.where.conds {
		if !pushConjunct(c, steps) {
			residual = append(residual, c)
		}
	}
	q.where.conds = residual
}

// pushConjunct pushes one WHERE conjunct below the joins if it can, and
// says whether it did.
func pushConjunct(c Expr, steps []joinStep) bool {
	rs := relsOf(c)
	if len(rs) != 1 {
		return false
	}
	for r := range rs {
		if r.table != nil && !r.nullExtended && !r.pinned {
			if pred, ok := toPredicate(c); ok {
				r.pushed = append(r.pushed, pred)
				return true
			}
		}
		if len(steps) > 1 && !r.nullExtended && !r.pinned && r.lateral == nil && ownRelation(steps, r) && !runsSubquery(c) {
			r.residual = append(r.residual, c)
			return true
		}
	}
	return false
}

// layoutColumns prunes the columns and lays out the batches: a table's
// scan reads only the columns something reads (its own filters, the
// joins, the WHERE, the aggregation or the select list and windows);
// each relation's columns follow those of the relations before it in the
// joined batches; a join passes on only the columns read after it
// (joinKeeps), and a relation drops the columns only its own filter reads
// after it (filterOnly).
func layoutColumns(q *LQuery) {
	rels, joins := q.chain()
	steps := q.steps()
	keys := q.joinKeyList()
	used := readAbove(q, keys)
	// Columns that only a relation's own filter reads are dropped after
	// it; the scan reads them all.
	later := maps.Clone(used)
	for _, st := range steps {
		for _, c := range st.rel.residual {
			columnsOf(c, used)
		}
	}
	offset := 0
	for _, st := range steps {
		r := st.rel
		r.offset = offset
		if r.derived() {
			for k, c := range r.Cols {
				c.Slot.Idx = offset + k
			}
		} else {
			for _, c := range r.Cols {
				if used[c] {
					r.use(c)
				}
			}
			for k, c := range r.used {
				c.Slot.Idx = offset + k
			}
		}
		offset += r.width()
	}
	base := offset
	if q.agg != nil {
		for i, s := range q.agg.slots {
			s.Idx = i
		}
		base = len(q.agg.slots)
	}
	// Window functions' columns follow their input's.
	for k, w := range q.win.specs {
		w.slot.Idx = base + k
	}
	keeps := joinKeeps(steps, keys, q.where.conds, q.agg, q.proj.exprs, q.win)
	for i, j := range joins {
		if j != nil {
			j.keep = keeps[i]
		}
	}
	for i, r := range rels {
		r.filterOnly = filterOnly(r.step.rel, later, i, steps)
	}
}

// readAbove marks the columns read above the relations' own filters: by
// the WHERE left after pushdown, the lateral subqueries' outer
// references, the joins, and the aggregation or the select list and the
// windows.
func readAbove(q *LQuery, joins []joinKeys) map[*ScopeCol]bool {
	used := map[*ScopeCol]bool{}
	for _, c := range q.where.conds {
		columnsOf(c, used)
	}
	for _, st := range q.steps() {
		if l := st.rel.lateral; l != nil {
			for _, e := range l.outer {
				columnsOf(e, used)
			}
		}
	}
	for _, j := range joins {
		for _, es := range [][]Expr{j.lkeys, j.rkeys, j.cond} {
			for _, e := range es {
				columnsOf(e, used)
			}
		}
		if j.asofL != nil {
			columnsOf(j.asofL, used)
			columnsOf(j.asofR, used)
		}
	}
	if q.agg != nil {
		for _, k := range q.agg.keys {
			columnsOf(k, used)
		}
		for _, a := range q.agg.aggs {
			if a.Arg != nil {
				columnsOf(a.Arg.(Expr), used)
			}
			if a.Arg2 != nil {
				columnsOf(a.Arg2.(Expr), used)
			}
			for _, o := range a.Order {
				columnsOf(o.(Expr), used)
			}
		}
		return used
	}
	for _, e := range q.proj.exprs {
		columnsOf(e, used)
	}
	for _, w := range q.win.specs {
		for _, es := range w.reads() {
			for _, e := range es {
				columnsOf(e, used)
			}
		}
	}
	return used
}

// ownRelation reports whether r is one of the FROM's steps (not a
// relation of an enclosing query).
func ownRelation(steps []joinStep, r *Relation) bool {
	for _, st := range steps {
		if st.rel == r {
			return true
		}
	}
	return false
}

// runsSubquery reports whether e holds a correlated subquery: a test that
// costs a lookup or a run per row, better made on the rows that are left
// after the joins' filters than before them.
func runsSubquery(e Expr) bool {
	if _, ok := e.(*corrExpr); ok {
		return true
	}
	for _, ch := range children(e) {
		if runsSubquery(ch) {
			return true
		}
	}
	return false
}

// joinKeeps marks, for each join step, the joined columns that something
// after it reads: the joins after it (keys, conditions), the WHERE left
// after the joins, and the aggregation or the select list and windows. A
// join gathers only those (a fact table's foreign key is not copied past
// its join). nil for a step that keeps all (and for FROMs with lateral
// subqueries, whose outer references read the joined rows).
func joinKeeps(steps []joinStep, joins []joinKeys, residual []Expr, agg *aggCtx, outExprs []Expr, win *winCtx) [][]bool {
	keeps := make([][]bool, len(steps))
	for _, st := range steps {
		if st.rel.lateral != nil {
			return keeps
		}
	}
	read := map[*ScopeCol]bool{}
	for _, c := range residual {
		columnsOf(c, read)
	}
	if agg != nil {
		for _, k := range agg.keys {
			columnsOf(k, read)
		}
		for _, a := range agg.aggs {
			for _, e := range append([]kernels.Expr{a.Arg, a.Arg2}, a.Order...) {
				if e != nil {
					columnsOf(e.(Expr), read)
				}
			}
		}
	} else {
		for _, e := range outExprs {
			columnsOf(e, read)
		}
		if win != nil {
			for _, w := range win.specs {
				for _, es := range w.reads() {
					for _, e := range es {
						columnsOf(e, read)
					}
				}
			}
		}
	}
	// From the last step back: a step keeps what is read after it.
	for i := len(steps) - 1; i >= 1; i-- {
		r := steps[i].rel
		keep := make([]bool, r.offset+r.width())
		all := true
		for _, st := range steps[:i+1] {
			for k, c := range st.rel.outputCols() {
				keep[st.rel.offset+k] = read[c]
				all = all && read[c]
			}
		}
		if !all {
			keeps[i] = keep
		}
		for _, es := range [][]Expr{joins[i].lkeys, joins[i].rkeys, joins[i].cond, {joins[i].asofL, joins[i].asofR}} {
			for _, e := range es {
				if e != nil {
					columnsOf(e, read)
				}
			}
		}
	}
	return keeps
}

// filterOnly lists the columns (by place in the relation) of a join's
// build side that only its own filter reads (not in later), to drop after
// the filter; none for the first relation, derived or lateral ones.
func filterOnly(r *Relation, later map[*ScopeCol]bool, i int, steps []joinStep) []int {
	if i == 0 || r.derived() || r.table == nil {
		return nil
	}
	for _, st := range steps {
		if st.rel.lateral != nil {
			return nil
		}
	}
	var drop []int
	for k, c := range r.used {
		if !later[c] {
			drop = append(drop, k)
		}
	}
	return drop
}
