package sqlplan

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
func impliedFilters(where []expr) []expr {
	var out []expr
	for _, c := range where {
		or, ok := c.(*orExpr)
		if !ok || runsSubquery(c) {
			continue
		}
		rels := relsOf(c)
		if len(rels) < 2 {
			continue
		}
		order := make([]*relation, 0, len(rels))
		for r := range rels {
			order = append(order, r)
		}
		slices.SortFunc(order, func(a, b *relation) int { return strings.Compare(a.alias, b.alias) })
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
func impliedOn(or *orExpr, r *relation) expr {
	branches := make([]expr, 0, len(or.terms))
	for _, t := range or.terms {
		var mine []expr
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
