package plan

import (
	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// The hash join (exec.HashJoin) and the ASOF and POSITIONAL joins built
// on its layout (exec.AsofJoin, exec.PositionalJoin) run in package exec;
// the planner picks their keys, build side and kept columns (lowerJoin)
// and gives them what only it knows: the columns the condition reads, and
// as hooks the restriction of the build keys' correlated subqueries
// (reduceOnBuild) and the key filters of the probe side's scan
// (keyfilter.go).

// newHashJoin is the join of right, the relation at offset width of the
// joined batches with columns of types, to left.
func newHashJoin(left, right Node, width int, types []Type, leftOuter bool) *kernels.HashJoin {
	return &kernels.HashJoin{Left: left, Right: right, LeftWidth: width, RightTypes: types, LeftOuter: leftOuter, Cast: CastCol}
}

// setJoinCond gives jn the conjuncts of ON that are not its keys, and
// marks the joined columns they read.
func setJoinCond(jn *kernels.HashJoin, conds []Expr) {
	if len(conds) == 0 {
		return
	}
	cond := andOf(conds)
	jn.Cond, jn.CondCols = cond, condSlots(cond, jn.LeftWidth+len(jn.RightTypes))
}

// setJoinKeys gives jn its equality keys and the hooks its build runs on
// them.
func setJoinKeys(jn *kernels.HashJoin, lkeys, rkeys []Expr) {
	jn.LKeys, jn.RKeys = execExprs(lkeys), execExprs(rkeys)
	jn.Reduce = func(build *Batch) ([]int, error) { return reduceOnBuild(rkeys, build) }
	jn.FilterProbe = func(j int, keys *Col, rows int) { filterProbe(jn, j, keys, rows) }
}

// condSlots marks the columns of a joined batch of width columns that
// cond reads; nil (all of them) when cond has kinds of expression whose
// inputs children may not list.
func condSlots(cond Expr, width int) []bool {
	if !concurrentSafe(cond) {
		return nil
	}
	cols := make([]bool, width)
	var walk func(e Expr)
	walk = func(e Expr) {
		if c, ok := e.(*ColExpr); ok && c.S.Idx >= 0 && c.S.Idx < width {
			cols[c.S.Idx] = true
		}
		for _, ch := range children(e) {
			walk(ch)
		}
	}
	walk(cond)
	return cols
}

// probeConcurrently reports whether a pipeline may probe jn on several
// left batches at once: an equality join whose right side's unmatched
// rows need no bookkeeping, with expressions that can.
func probeConcurrently(jn *kernels.HashJoin) bool {
	if len(jn.LKeys) == 0 || jn.RightOuter || jn.Cond != nil && !concurrentSafe(jn.Cond.(Expr)) {
		return false
	}
	for _, k := range jn.LKeys {
		if !concurrentSafe(k.(Expr)) {
			return false
		}
	}
	return true
}

// joinKeys are what a join step matches on: equalities between the
// relations before it (lkeys) and its own (rkeys), and other conditions.
type joinKeys struct {
	lkeys, rkeys []Expr
	cond         []Expr
	// An ASOF join's inequality asofL asofOp asofR (asofL reads the
	// relations before the join); asofText is how it was written.
	asofL, asofR Expr
	asofOp       cmpOp
	asofText     string
}

// whereJoinKeys moves the WHERE equalities between an inner-joined
// relation and the relations before it into that relation's join keys, so
// that FROM a, b WHERE a.k = b.k is a hash join rather than a filtered
// cross product. It returns the conjuncts left for WHERE. An equality is
// left where it is when its relation's step is an outer join, or when a
// FULL or RIGHT join comes after it: that join's null-extended rows must
// still meet the WHERE.
func whereJoinKeys(steps []joinStep, where []Expr, joins []joinKeys) []Expr {
	if len(steps) < 2 {
		return where
	}
	index := map[*Relation]int{}
	lastFull := -1
	for i, st := range steps {
		index[st.rel] = i
		if st.full {
			lastFull = i
		}
	}
	// span gives the lowest and highest step an expression reads, ok false
	// when it reads none or a relation not of this FROM (an outer query's).
	span := func(e Expr) (lo, hi int, ok bool) {
		lo, hi = len(steps), -1
		for r := range relsOf(e) {
			i, found := index[r]
			if !found {
				return 0, 0, false
			}
			lo, hi = min(lo, i), max(hi, i)
		}
		return lo, hi, hi >= 0
	}
	var rest []Expr
	for _, c := range where {
		if eq, ok := c.(*cmpExpr); ok && eq.op == opEq {
			llo, lhi, lok := span(eq.l)
			rlo, rhi, rok := span(eq.r)
			if lok && rok {
				l, r := eq.l, eq.r
				if lhi > rhi {
					l, r, llo, lhi, rlo, rhi = r, l, rlo, rhi, llo, lhi
				}
				// r reads step rhi alone, l only steps before it.
				if i := rhi; rlo == i && lhi < i && i > lastFull && !steps[i].left && !steps[i].full && steps[i].rel.lateral == nil && !steps[i].asof && !steps[i].positional {
					joins[i].lkeys = append(joins[i].lkeys, l)
					joins[i].rkeys = append(joins[i].rkeys, r)
					continue
				}
			}
		}
		rest = append(rest, c)
	}
	return rest
}
