package plan

import (
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/xwb1989/sqlparser"
)

// GROUP BY GROUPING SETS (...), ROLLUP (...) and CUBE (...): the keys are
// aggregated once per grouping set, in one pass over the input, and the
// rows of all sets are output one set after another; the keys a set does
// not group by are NULL in its rows, and GROUPING(k, ...) tells which
// (a bit per key, 1 where the key is not grouped by, the first key
// leftmost). Several GROUP BY items combine as their cross product:
// GROUP BY a, ROLLUP (b, c) is GROUPING SETS ((a, b, c), (a, b), (a)).

// maxGroupingSets bounds the sets a GROUP BY expands to (CUBE of n keys
// has 2^n).
const maxGroupingSets = 4096

// expandGroupingSets rewrites a GROUP BY with ROLLUP, CUBE or GROUPING
// SETS into the list of its distinct keys (sel.GroupBy) and returns the
// grouping sets as key indices; nil when the GROUP BY has none of them.
func expandGroupingSets(sel *sqlparser.Select) ([][]int, error) {
	special := false
	for _, g := range sel.GroupBy {
		if groupingKind(g) != "" {
			special = true
		}
	}
	if !special {
		return nil, nil
	}
	var keys sqlparser.GroupBy
	index := func(e sqlparser.Expr) int {
		text := sqlparser.String(e)
		for i, k := range keys {
			if sqlparser.String(k) == text {
				return i
			}
		}
		keys = append(keys, e)
		return len(keys) - 1
	}
	sets := [][]int{{}}
	for _, g := range sel.GroupBy {
		var item [][]int // the sets of this GROUP BY item
		switch groupingKind(g) {
		case "":
			item = [][]int{{index(g)}}
		case "rollup", "cube":
			f := g.(*sqlparser.FuncExpr)
			var cols []int
			for _, a := range f.Exprs {
				ae, ok := a.(*sqlparser.AliasedExpr)
				if !ok {
					return nil, errorf("%s takes expressions", strings.ToUpper(groupingKind(g)))
				}
				cols = append(cols, setOf(ae.Expr, index)...)
			}
			if groupingKind(g) == "rollup" {
				for n := len(cols); n >= 0; n-- {
					item = append(item, cols[:n:n])
				}
			} else {
				if len(cols) > 12 {
					return nil, errorf("CUBE of %d keys is too large", len(cols))
				}
				for m := (1 << len(cols)) - 1; m >= 0; m-- {
					var s []int
					for b, c := range cols {
						if m&(1<<(len(cols)-1-b)) != 0 {
							s = append(s, c)
						}
					}
					item = append(item, s)
				}
			}
		case "sets":
			for _, a := range g.(*sqlparser.FuncExpr).Exprs {
				ae, ok := a.(*sqlparser.AliasedExpr)
				if !ok {
					return nil, errorf("GROUPING SETS takes sets of expressions")
				}
				if groupingKind(ae.Expr) == "rollup" || groupingKind(ae.Expr) == "cube" || groupingKind(ae.Expr) == "sets" {
					return nil, unsupported("ROLLUP, CUBE or GROUPING SETS inside GROUPING SETS")
				}
				item = append(item, setOf(ae.Expr, index))
			}
		default:
			return nil, errorf("a grouping set may only appear in GROUPING SETS")
		}
		var next [][]int
		for _, s := range sets {
			for _, t := range item {
				next = append(next, append(append([]int(nil), s...), t...))
			}
		}
		if len(next) > maxGroupingSets {
			return nil, errorf("the GROUP BY expands to more than %d grouping sets", maxGroupingSets)
		}
		sets = next
	}
	sel.GroupBy = keys
	return sets, nil
}

// groupingKind says what a GROUP BY item is: "" for a plain key,
// "rollup", "cube", "sets" (GROUPING SETS) or "set" (one set in it).
func groupingKind(e sqlparser.Expr) string {
	f, ok := e.(*sqlparser.FuncExpr)
	if !ok || !f.Qualifier.IsEmpty() {
		return ""
	}
	switch f.Name.Lowered() {
	case "rollup", "cube":
		return f.Name.Lowered()
	case parse.GroupingSetsMarker:
		return "sets"
	case parse.GroupingSetMarker:
		return "set"
	}
	return ""
}

// setOf lists the keys of one grouping set: a parenthesized list (a set
// marker, a tuple or a parenthesized expression) or one expression.
func setOf(e sqlparser.Expr, index func(sqlparser.Expr) int) []int {
	var exprs []sqlparser.Expr
	switch x := e.(type) {
	case *sqlparser.FuncExpr:
		if groupingKind(x) != "set" {
			exprs = []sqlparser.Expr{e}
			break
		}
		for _, a := range x.Exprs {
			if ae, ok := a.(*sqlparser.AliasedExpr); ok {
				exprs = append(exprs, ae.Expr)
			}
		}
	case sqlparser.ValTuple:
		exprs = x
	case *sqlparser.ParenExpr:
		exprs = []sqlparser.Expr{x.Expr}
	default:
		exprs = []sqlparser.Expr{e}
	}
	var out []int
	for _, x := range exprs {
		i := index(x)
		dup := false
		for _, o := range out {
			dup = dup || o == i
		}
		if !dup {
			out = append(out, i)
		}
	}
	return out
}

// bindGrouping binds GROUPING(k, ...) (or grouping_id): its arguments must
// be GROUP BY keys.
func (p *Planner) bindGrouping(x *sqlparser.FuncExpr, spec *aggSpec, agg *aggCtx) error {
	if len(x.Exprs) == 0 {
		return errorf("%s needs at least one GROUP BY key", spec.Fn)
	}
	for _, a := range x.Exprs {
		ae, ok := a.(*sqlparser.AliasedExpr)
		if !ok {
			return errorf("%s takes GROUP BY keys", spec.Fn)
		}
		text := groupKeyText(ae.Expr)
		found := -1
		for i, kt := range agg.keyTexts {
			if kt == text {
				found = i
			}
		}
		if found < 0 {
			if c, ok := ae.Expr.(*sqlparser.ColName); ok {
				if col, err := p.resolve(agg.inScope, c); err == nil {
					for i, kc := range agg.keyCols {
						if kc == col {
							found = i
						}
					}
				}
			}
		}
		if found < 0 {
			return errorf("the arguments of %s must be GROUP BY keys: %s", spec.Fn, text)
		}
		spec.Grouping = append(spec.Grouping, found)
	}
	spec.Fn, spec.T = "grouping", TInt
	return nil
}
