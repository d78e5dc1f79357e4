package plan

import (
	"github.com/carquet-go/carquet/sqlplan/function"
	"strings"

	"github.com/carquet-go/carquet/parquet/value"
)

// Join order. The FROM list is joined left-deep in its order, each step's
// relation being the hash join's build side. For a FROM of base tables
// joined by WHERE alone (commas or CROSS JOIN, no ON, USING or outer
// join), orderJoins chooses the order instead: the largest relation
// first (streamed, never held), then at each step the smallest relation
// that an equality of the WHERE connects to those already joined (a
// cross product only when none is), so that every hash table is built
// from a small input and no join multiplies rows for nothing.

// orderJoins returns the steps in the order to join them (steps itself
// when the FROM is not of that kind).
func (p *Planner) orderJoins(steps []joinStep, where []Expr) []joinStep {
	if len(steps) < 2 {
		return steps
	}
	for _, st := range steps {
		if st.left || st.full || st.asof || st.positional || st.on != nil || len(st.using) > 0 || st.swapped || st.rel.table == nil || st.rel.lateral != nil {
			return steps
		}
	}
	size := make(map[*Relation]float64, len(steps))
	for _, st := range steps {
		n, err := st.rel.table.NumRows()
		if err != nil {
			return steps
		}
		size[st.rel] = float64(n)
	}
	// Conjuncts of one relation filter it: guess what they keep, from the
	// footers' value ranges where a column is compared with constants.
	var links []map[*Relation]bool
	var keys []joinEquality
	ranges := map[*ScopeCol]*valueRange{}
	for _, c := range where {
		rs := relsOf(c)
		switch {
		case len(rs) == 1:
			if col, op, k, ok := columnBound(c); ok {
				rg := ranges[col]
				if rg == nil {
					rg = &valueRange{}
					ranges[col] = rg
				}
				rg.narrow(op, k)
				continue
			}
			for r := range rs {
				if _, ok := size[r]; ok {
					size[r] *= selectivity(c)
				}
			}
		case len(rs) > 1:
			if eq, ok := c.(*cmpExpr); ok && eq.op == opEq {
				links = append(links, rs)
				if l, r := baseColumn(eq.l), baseColumn(eq.r); l != nil && r != nil && l.Rel != r.Rel {
					keys = append(keys, joinEquality{l, r})
				}
			}
		}
	}
	for col, rg := range ranges {
		if _, ok := size[col.Rel]; ok {
			size[col.Rel] *= rg.share(col)
		}
	}
	joined := map[*Relation]bool{}
	connected := func(r *Relation) bool {
		for _, l := range links {
			if !l[r] {
				continue
			}
			touches, within := false, true
			for x := range l {
				if x == r {
					continue
				}
				if joined[x] {
					touches = true
				} else if _, own := size[x]; own {
					within = false
				}
			}
			if touches && within {
				return true
			}
		}
		return false
	}
	// rowsAfter estimates the rows of joining r to the relations joined so
	// far (cur rows): cur * |r| / the distinct count of the most selective
	// equality between them (no equality: a cross product).
	ndvs := map[*ScopeCol]float64{}
	ndv := func(c *ScopeCol) float64 {
		if v, ok := ndvs[c]; ok {
			return v
		}
		v := distinctEstimate(c)
		ndvs[c] = v
		return v
	}
	rowsAfter := func(cur float64, r *Relation) float64 {
		best := 1.0
		for _, k := range keys {
			var mine, theirs *ScopeCol
			switch {
			case k.l.Rel == r && joined[k.r.Rel]:
				mine, theirs = k.l, k.r
			case k.r.Rel == r && joined[k.l.Rel]:
				mine, theirs = k.r, k.l
			default:
				continue
			}
			// The smaller count: a range-based guess overcounts sparse
			// keys, and a foreign key has no more values than its target.
			best = max(best, min(ndv(mine), ndv(theirs)))
		}
		return cur * size[r] / best
	}
	out := make([]joinStep, 0, len(steps))
	used := make([]bool, len(steps))
	pick := func(i int) {
		used[i] = true
		joined[steps[i].rel] = true
		out = append(out, steps[i])
	}
	first := 0
	for i, st := range steps {
		if size[st.rel] > size[steps[first].rel] {
			first = i
		}
	}
	pick(first)
	cur := size[steps[first].rel]
	for len(out) < len(steps) {
		best, bestConnected, bestRows := -1, false, 0.0
		for i, st := range steps {
			if used[i] {
				continue
			}
			c := connected(st.rel)
			rows := rowsAfter(cur, st.rel)
			switch {
			case best < 0, c && !bestConnected, c == bestConnected && rows < bestRows:
				best, bestConnected, bestRows = i, c, rows
			}
		}
		pick(best)
		cur = max(bestRows, 1)
	}
	return out
}

// joinEquality is a WHERE equality of columns of two relations.
type joinEquality struct{ l, r *ScopeCol }

// baseColumn is the table column e reads (through casts), or nil.
func baseColumn(e Expr) *ScopeCol {
	for {
		switch x := e.(type) {
		case *ColExpr:
			if x.col != nil && x.col.Rel != nil && x.col.Rel.table != nil && !strings.Contains(x.col.Name, ".") {
				return x.col
			}
			return nil
		case *castExpr:
			e = x.e
		default:
			return nil
		}
	}
}

// distinctEstimate guesses a column's count of distinct values: for
// integer-like columns at most the width of its footer range, else (and
// at most) the table's rows.
func distinctEstimate(c *ScopeCol) float64 {
	rows, err := c.Rel.table.NumRows()
	if err != nil || rows <= 0 {
		return 1
	}
	n := float64(rows)
	if Storage(c.T) != stInt || c.T.Kind == KDecimal && c.T.Scale > 0 {
		return n
	}
	lo, hi, ok := footerRange(c)
	if !ok {
		return n
	}
	return max(1, min(n, hi-lo+1))
}

// footerRange is a column's smallest and largest value over the table
// as numbers (scalarNumber), from the footers' statistics.
func footerRange(c *ScopeCol) (lo, hi float64, ok bool) {
	sum, ok, err := c.Rel.table.Summarize(c.Name)
	if err != nil || !ok || sum.Min == nil || sum.Max == nil {
		return 0, 0, false
	}
	mn, err1 := goScalar(sum.Min, c.T)
	mx, err2 := goScalar(sum.Max, c.T)
	lo, ok1 := scalarNumber(c.T, mn)
	hi, ok2 := scalarNumber(c.T, mx)
	return lo, hi, err1 == nil && err2 == nil && ok1 && ok2 && lo <= hi
}

// columnBound returns the column and the numeric bound of a conjunct
// col < k, col <= k, col > k or col >= k (k a constant), ok false for
// other conjuncts.
func columnBound(c Expr) (*ScopeCol, cmpOp, float64, bool) {
	cmp, ok := c.(*cmpExpr)
	if !ok || cmp.op < opLt || cmp.op > opGe {
		return nil, 0, 0, false
	}
	col, ok := cmp.l.(*ColExpr)
	k, kok := IsConst(cmp.r)
	if !ok || !kok || col.col == nil || col.col.Rel == nil || col.col.Rel.table == nil || strings.Contains(col.col.Name, ".") {
		return nil, 0, 0, false
	}
	x, ok := scalarNumber(k.T, k.V)
	if !ok {
		return nil, 0, 0, false
	}
	return col.col, cmp.op, x, true
}

// valueRange is the interval of values the conjuncts on one column keep.
type valueRange struct {
	lo, hi       float64
	hasLo, hasHi bool
}

func (r *valueRange) narrow(op cmpOp, k float64) {
	switch op {
	case opLt, opLe:
		if !r.hasHi || k < r.hi {
			r.hi, r.hasHi = k, true
		}
	default:
		if !r.hasLo || k > r.lo {
			r.lo, r.hasLo = k, true
		}
	}
}

// share is the part of the column's footer range [min, max] that the
// interval covers (values taken as spread evenly), 0.3 without footers.
func (r *valueRange) share(col *ScopeCol) float64 {
	mn, mx, ok := footerRange(col)
	if !ok || mx == mn {
		return 0.3
	}
	a, b := mn, mx
	if r.hasLo {
		a = max(a, r.lo)
	}
	if r.hasHi {
		b = min(b, r.hi)
	}
	return max((b-a)/(mx-mn), 0.001)
}

// scalarNumber is a numeric scalar of t as a float64 (dates and times by
// their counts), ok false for other kinds.
func scalarNumber(t Type, v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		if t.Kind == KDecimal {
			return function.DecFloat(x, t.Scale), true
		}
		return float64(x), true
	case float64:
		return x, true
	case value.Decimal:
		return x.Float64(), true
	}
	return 0, false
}

// selectivity guesses the share of rows a one-relation conjunct keeps.
func selectivity(c Expr) float64 {
	if cmp, ok := c.(*cmpExpr); ok {
		if _, isConst := IsConst(cmp.r); isConst && cmp.op == opEq {
			return 0.1
		}
	}
	return 0.3
}
