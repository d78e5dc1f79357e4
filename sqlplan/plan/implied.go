package plan

import (
	"slices"
	"strings"
)

// impliedFilters derives single-relation filters from the WHERE's
// disjunctions over several relations: when every branch of
// (A1 AND B1) OR (A2 AND B2) has conjuncts on relation A alone, the
// condition implies A1 OR A2, which can filter A before the join (or be
// pushed into its scan). TPC-H Q19's three branches over lineitem and
// part so filter each table by its own half. The original condition
// stays: the derived ones only let fewer rows reach it. A derived filter
// is true wherever the original is, in three-valued logic too (a true
// branch has every conjunct true), so adding it changes no answer.
func impliedFilters(where []Expr) []Expr {
	var out []Expr
	for _, c := range where {
		or, ok := c.(*orExpr)
		if !ok || runsSubquery(c) {
			continue
		}
		rels := relsOf(c)
		if len(rels) < 2 {
			continue
		}
		order := make([]*Relation, 0, len(rels))
		for r := range rels {
			order = append(order, r)
		}
		slices.SortFunc(order, func(a, b *Relation) int { return strings.Compare(a.Alias, b.Alias) })
		for _, r := range order {
			if f := impliedOn(or, r); f != nil {
				out = append(out, f)
			}
		}
	}
	return out
}

// impliedOn is the OR of each branch's conjuncts on r alone, or nil when
// a branch has none.
func impliedOn(or *orExpr, r *Relation) Expr {
	branches := make([]Expr, 0, len(or.terms))
	for _, t := range or.terms {
		var mine []Expr
		for _, cj := range conjuncts(t) {
			if rs := relsOf(cj); len(rs) == 1 && rs[r] {
				mine = append(mine, cj)
			}
		}
		if len(mine) == 0 {
			return nil
		}
		branches = append(branches, andOf(mine))
	}
	if len(branches) == 1 {
		return branches[0]
	}
	e := &orExpr{terms: branches}
	texts := make([]string, len(branches))
	for i, b := range branches {
		texts[i] = "(" + b.String() + ")"
	}
	e.setText(strings.Join(texts, " or "))
	return e
}

// Filters implied by equalities between columns: a.k = b.k AND a.k < 5
// gives b.k < 5, so that b's scan prunes too (a join on keys with a
// range or a value on one side: orders JOIN lineitem ON l_orderkey =
// o_orderkey WHERE o_orderkey < 1000 reads only lineitem's first keys).
//
// The conditions every row of the result meets are the WHERE's and the
// ON conditions of the inner joins, when no FULL or RIGHT JOIN can add
// rows that meet none of them. From those, a comparison of a column with
// a constant (or an IN list) is copied onto each column an equality
// makes it equal to, if both have the same type (then equal means the
// same value, and the copy holds wherever the original does); the copy
// goes into the WHERE, from where pushDownWhere takes it to its
// relation. A LEFT JOIN's right side is not filtered by the WHERE (its
// unmatched rows are NULLs there), but the right side's key in an ON
// equality with a column of the rows before it takes the filters of
// that column: a row of the right side that fails them could only match
// a left row that fails them too, and no result row holds that left row
// (a WHERE filter removes them all; an ON filter lets none match).

// addKeyFilters adds the filters the FROM's equalities imply: those of
// the WHERE to it, those a LEFT JOIN's right side takes to the join's ON.
func addKeyFilters(q *LQuery) {
	_, joins := q.chain()
	facts := append([]Expr(nil), q.where.conds...)
	for _, j := range joins {
		if j == nil {
			continue
		}
		st := j.right.step
		if st.full {
			return // rows that meet no condition of the joins before it
		}
		if plainJoin(st) && !st.left {
			facts = append(facts, j.on...)
		}
	}
	steps := q.steps()
	implied := copiedFilters(facts, facts, func(c *ScopeCol) bool {
		r := c.Rel
		return !r.nullExtended && !r.pinned && r.lateral == nil && ownRelation(steps, r)
	})
	q.where.conds = append(q.where.conds, implied...)
	facts = append(facts, implied...)
	for _, j := range joins {
		if j == nil || !plainJoin(j.right.step) || !j.right.step.left {
			continue
		}
		r := j.right.step.rel
		onRight := func(c *ScopeCol) bool { return c.Rel == r }
		// The filters of the rows before the join: the WHERE's, the inner
		// joins', and this ON's own on the left side.
		var left []Expr
		for _, f := range append(facts, j.on...) {
			if rs := relsOf(f); len(rs) == 1 && !rs[r] {
				left = append(left, f)
			}
		}
		j.on = append(j.on, copiedFilters(left, j.on, onRight)...)
	}
}

// plainJoin reports whether a join step is one whose ON conditions are
// only that (not ASOF, POSITIONAL or LATERAL).
func plainJoin(st joinStep) bool {
	return !st.asof && !st.positional && st.rel.lateral == nil
}

// copiedFilters copies each filter of filters (a column compared with a
// constant, or IN a list) onto the columns that the equalities of eqs
// make equal to its column, directly or through others, and that onto
// accepts; a copy whose text filters already has is left out.
func copiedFilters(filters, eqs []Expr, onto func(*ScopeCol) bool) []Expr {
	classes := equalColumns(eqs)
	if len(classes) == 0 {
		return nil
	}
	have := map[string]bool{}
	for _, f := range append(filters, eqs...) {
		have[f.String()] = true
	}
	var out []Expr
	for _, f := range filters {
		col, ok := filteredColumn(f)
		if !ok {
			continue
		}
		for _, other := range classes[col] {
			if other == col || other.Rel == col.Rel || !onto(other) {
				continue
			}
			if g := onColumn(f, other); g != nil && !have[g.String()] {
				have[g.String()] = true
				out = append(out, g)
			}
		}
	}
	return out
}

// equalColumns groups the columns that the equalities among conds make
// equal (a.x = b.y AND b.y = c.z: a.x, b.y and c.z), each column
// mapped to its group; only columns of the same type are grouped.
func equalColumns(conds []Expr) map[*ScopeCol][]*ScopeCol {
	classes := map[*ScopeCol][]*ScopeCol{}
	for _, c := range conds {
		eq, ok := c.(*cmpExpr)
		if !ok || eq.op != opEq {
			continue
		}
		a, aok := eq.l.(*ColExpr)
		b, bok := eq.r.(*ColExpr)
		if !aok || !bok || a.col == nil || b.col == nil || a.col.Rel == b.col.Rel || !sameValues(a.T, b.T) {
			continue
		}
		ga, gb := classes[a.col], classes[b.col]
		if ga == nil {
			ga = []*ScopeCol{a.col}
		}
		if gb == nil {
			gb = []*ScopeCol{b.col}
		}
		if slices.Contains(ga, b.col) {
			continue
		}
		merged := append(append([]*ScopeCol(nil), ga...), gb...)
		for _, m := range merged {
			classes[m] = merged
		}
	}
	return classes
}

// filteredColumn is the column a filter compares with a constant (x < 5,
// 5 > x, x IN (1, 2)); ok is false for other filters.
func filteredColumn(f Expr) (*ScopeCol, bool) {
	switch x := f.(type) {
	case *cmpExpr:
		if x.op == opNullSafeEq {
			return nil, false
		}
		c, cok := x.l.(*ColExpr)
		_, kok := IsConst(x.r)
		if !cok || !kok {
			c, cok = x.r.(*ColExpr)
			_, kok = IsConst(x.l)
		}
		if cok && kok && c.col != nil {
			return c.col, true
		}
	case *inExpr:
		if c, ok := x.e.(*ColExpr); ok && c.col != nil {
			return c.col, true
		}
	}
	return nil, false
}

// onColumn is filter f (of filteredColumn's forms) on column c instead of
// its own, with the column first (5 > x becomes c < 5).
func onColumn(f Expr, c *ScopeCol) Expr {
	col := &ColExpr{S: c.Slot, T: c.T, col: c}
	col.setText(c.Rel.Alias + "." + c.Name)
	switch x := f.(type) {
	case *cmpExpr:
		n := *x
		if _, ok := x.l.(*ColExpr); ok {
			n.l = col
		} else {
			n.l, n.r, n.op = col, x.l, flipCmp(x.op)
		}
		n.setParts(n.l, " "+cmpNames[n.op]+" ", n.r)
		return &n
	case *inExpr:
		n := *x
		n.e = col
		text := x.String()
		if rest, ok := strings.CutPrefix(text, x.e.String()); ok {
			n.setText(col.String() + rest)
		}
		return &n
	}
	return nil
}
