package plan

import (
	"strings"

	"github.com/xwb1989/sqlparser"
)

// factorDisjunctions pulls the conjuncts that every branch of an OR in a
// condition shares out in front of it: (a AND b) OR (a AND c) is
// a AND (b OR c) (the distributive law, which holds in SQL's three-valued
// logic too), so that a join key written in each branch, as TPC-H Q19
// does, becomes a join condition and a pushed-down filter instead of a
// test of every pair of rows. The AST is not changed: a new condition is
// built around its subtrees.
func factorDisjunctions(e sqlparser.Expr) sqlparser.Expr {
	conj := SplitAnd(e)
	changed := false
	out := make([]sqlparser.Expr, 0, len(conj))
	for _, c := range conj {
		if f, ok := factorOr(c); ok {
			changed = true
			out = append(out, SplitAnd(f)...)
			continue
		}
		out = append(out, c)
	}
	if !changed {
		return e
	}
	return astAnd(out)
}

// factorOr factors one OR; ok is false when its branches share nothing.
func factorOr(e sqlparser.Expr) (sqlparser.Expr, bool) {
	for {
		pe, ok := e.(*sqlparser.ParenExpr)
		if !ok {
			break
		}
		e = pe.Expr
	}
	if _, ok := e.(*sqlparser.OrExpr); !ok {
		return nil, false
	}
	branches := splitOr(e)
	conjs := make([][]sqlparser.Expr, len(branches))
	keys := make([]map[string]bool, len(branches))
	for i, b := range branches {
		conjs[i] = SplitAnd(b)
		keys[i] = map[string]bool{}
		for _, c := range conjs[i] {
			keys[i][sqlparser.String(c)] = true
		}
	}
	var common []sqlparser.Expr
	shared := map[string]bool{}
	for _, c := range conjs[0] {
		k := sqlparser.String(c)
		if shared[k] || !deterministic(c) {
			continue
		}
		all := true
		for _, ks := range keys[1:] {
			if !ks[k] {
				all = false
				break
			}
		}
		if all {
			shared[k] = true
			common = append(common, c)
		}
	}
	if len(common) == 0 {
		return nil, false
	}
	var rest []sqlparser.Expr
	for _, cs := range conjs {
		var left []sqlparser.Expr
		for _, c := range cs {
			if !shared[sqlparser.String(c)] {
				left = append(left, c)
			}
		}
		if len(left) == 0 {
			// This branch is the common part alone: the OR holds
			// whenever the common part does.
			return astAnd(common), true
		}
		rest = append(rest, &sqlparser.ParenExpr{Expr: astAnd(left)})
	}
	or := rest[0]
	for _, r := range rest[1:] {
		or = &sqlparser.OrExpr{Left: or, Right: r}
	}
	return astAnd(append(common, &sqlparser.ParenExpr{Expr: or})), true
}

// splitOr flattens a chain of ORs (through parentheses).
func splitOr(e sqlparser.Expr) []sqlparser.Expr {
	switch x := e.(type) {
	case *sqlparser.OrExpr:
		return append(splitOr(x.Left), splitOr(x.Right)...)
	case *sqlparser.ParenExpr:
		if _, ok := x.Expr.(*sqlparser.OrExpr); ok {
			return splitOr(x.Expr)
		}
	}
	return []sqlparser.Expr{e}
}

// astAnd joins conditions with AND (at least one).
func astAnd(es []sqlparser.Expr) sqlparser.Expr {
	out := es[0]
	for _, e := range es[1:] {
		out = &sqlparser.AndExpr{Left: out, Right: e}
	}
	return out
}

// deterministic reports whether a condition gives the same answer each
// time it is evaluated on a row: no subquery, no volatile function.
func deterministic(e sqlparser.Expr) bool {
	ok := true
	sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch x := n.(type) {
		case *sqlparser.Subquery:
			ok = false
		case *sqlparser.FuncExpr:
			switch strings.ToLower(x.Name.String()) {
			case "random", "rand", "nextval", "currval", "setseed", "uuid", "gen_random_uuid":
				ok = false
			}
		}
		return ok, nil
	}, e)
	return ok
}
