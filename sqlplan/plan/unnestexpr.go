package plan

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/xwb1989/sqlparser"
)

// unnest inside expressions, as DuckDB has it: SELECT x, unnest(l) * 2
// FROM t gives a row per element of l, the expression evaluated on each;
// several unnests in one SELECT are zipped, the shorter padded with
// NULLs. The select-list unnest of unneststruct.go does the unnesting;
// a SELECT with unnests inside expressions is rewritten, before it is
// bound, into that form:
//
//	SELECT <items over h1, h2, ...> FROM (
//	    SELECT unnest(l) AS h1, x AS h2, ... FROM ... WHERE ... GROUP BY ...
//	) [ORDER BY ...] [LIMIT ...]
//
// The inner SELECT computes, before the unnest, everything of the items
// that does not depend on an element (the parts of an item around its
// unnest calls that read columns, call functions or hold window
// functions) and the unnested elements; the outer one puts the items
// together on each unnested row and applies DISTINCT, ORDER BY and
// LIMIT after the unnest, as DuckDB does. unnest elsewhere (WHERE,
// GROUP BY, HAVING, inside an aggregate, inside another unnest) is an
// error, as in DuckDB.

// unnestHidden prefixes the inner SELECT's column names.
const unnestHidden = "__carquet_unnest_"

// unnestDerived names the inner SELECT.
const unnestDerived = "__carquet_unnested__"

// isUnnestCall reports an unnest(...) call.
func isUnnestCall(n sqlparser.SQLNode) bool {
	f, ok := n.(*sqlparser.FuncExpr)
	return ok && f.Qualifier.IsEmpty() && f.Name.Lowered() == "unnest"
}

// hasUnnest reports an unnest call in n, outside subqueries (which plan
// their own).
func hasUnnest(n sqlparser.SQLNode) bool {
	if n == nil || reflect.ValueOf(n).Kind() == reflect.Pointer && reflect.ValueOf(n).IsNil() {
		return false
	}
	found := false
	sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if _, ok := n.(*sqlparser.Subquery); ok {
			return false, nil
		}
		if isUnnestCall(n) {
			found = true
		}
		return !found, nil
	}, n)
	return found
}

// unnestNotHere is DuckDB's error for unnest where it has no meaning.
func (p *Planner) unnestNotHere() error {
	return p.Src.Locate(errorf("UNNEST not supported here"), "unnest")
}

// checkUnnestPlaces refuses unnest in WHERE, GROUP BY, HAVING and
// QUALIFY, inside an aggregate and inside another unnest.
func (p *Planner) checkUnnestPlaces(sel *sqlparser.Select) error {
	if sel.Where != nil && hasUnnest(sel.Where.Expr) || hasUnnest(sel.GroupBy) || sel.Having != nil && hasUnnest(sel.Having.Expr) {
		return p.unnestNotHere()
	}
	var bad error
	sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch x := n.(type) {
		case *sqlparser.Subquery:
			return false, nil
		case *sqlparser.FuncExpr:
			switch {
			case isUnnestCall(x) && hasUnnest(x.Exprs):
				bad = p.Src.Locate(errorf("nested UNNEST calls are not supported - use UNNEST(x, recursive := true) to unnest multiple levels"), "unnest")
			case IsAggregate(x) && hasUnnest(x.Exprs):
				bad = p.unnestNotHere()
			}
		case *sqlparser.GroupConcatExpr:
			if hasUnnest(x.Exprs) {
				bad = p.unnestNotHere()
			}
		}
		return bad == nil, nil
	}, sel.SelectExprs)
	return bad
}

// unnestSplit builds the two SELECTs of the rewrite.
type unnestSplit struct {
	inner  sqlparser.SelectExprs
	hidden []string // the names of inner's columns, in order
}

// pass adds e to the inner SELECT and returns the reference to it.
func (u *unnestSplit) pass(e sqlparser.Expr) *sqlparser.ColName {
	name := unnestHidden + strconv.Itoa(len(u.hidden)+1)
	u.hidden = append(u.hidden, name)
	u.inner = append(u.inner, &sqlparser.AliasedExpr{Expr: e, As: sqlparser.NewColIdent(name)})
	return &sqlparser.ColName{Name: sqlparser.NewColIdent(name)}
}

// split rewrites e for the outer SELECT: its unnest calls, and its
// largest parts without one that are not literals, go to the inner
// SELECT, replaced by references to its columns.
func (u *unnestSplit) split(e sqlparser.Expr) sqlparser.Expr {
	if isUnnestCall(e) || !hasUnnest(e) {
		if isLiteral(e) {
			return e
		}
		return u.pass(e)
	}
	type change struct{ from, to sqlparser.Expr }
	var changes []change
	sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		x, isExpr := n.(sqlparser.Expr)
		if !isExpr {
			return true, nil
		}
		if _, isTuple := x.(sqlparser.ValTuple); isTuple {
			return true, nil // its elements, one by one
		}
		if hasUnnest(x) && !isUnnestCall(x) {
			return true, nil
		}
		// Replaced by identity, so only a pointer (a node of its own).
		if !isLiteral(x) && reflect.ValueOf(x).Kind() == reflect.Pointer {
			changes = append(changes, change{x, nil})
		}
		return false, nil
	}, e)
	for i := range changes {
		changes[i].to = u.pass(changes[i].from)
	}
	for _, c := range changes {
		e = sqlparser.ReplaceExpr(e, c.from, c.to)
	}
	return e
}

// isLiteral reports a constant the outer SELECT can keep as it is.
func isLiteral(e sqlparser.Expr) bool {
	switch e.(type) {
	case *sqlparser.SQLVal, *sqlparser.NullVal, sqlparser.BoolVal:
		return true
	}
	return false
}

// unnestInExprs rewrites a SELECT with unnest inside an expression of
// its select list (see above); any other SELECT comes back as it is,
// once unnest is checked to be nowhere DuckDB refuses it.
func (p *Planner) unnestInExprs(sel *sqlparser.Select) (*sqlparser.Select, error) {
	if err := p.checkUnnestPlaces(sel); err != nil {
		return nil, err
	}
	nested, stars := false, 0
	for _, se := range sel.SelectExprs {
		switch x := se.(type) {
		case *sqlparser.StarExpr:
			stars++
		case *sqlparser.AliasedExpr:
			if _, top := isUnnest(x.Expr); !top && hasUnnest(x.Expr) {
				nested = true
			}
		}
	}
	if !nested {
		return sel, nil
	}
	if stars > 1 {
		return nil, unsupported("several * with unnest inside an expression")
	}
	sel = parse.CloneAST(sel)
	u := &unnestSplit{}
	var outer sqlparser.SelectExprs
	var exclude *sqlparser.FuncExpr // the outer star's EXCLUDE of the hidden columns
	names := map[string]bool{}      // the outer column names, for ORDER BY
	for k, se := range sel.SelectExprs {
		if starMarker(se) != nil {
			continue // applied in the inner SELECT, with its star
		}
		x, ok := se.(*sqlparser.AliasedExpr)
		if !ok {
			// The star and its EXCLUDE or REPLACE are the inner SELECT's;
			// the outer one takes its columns, not the hidden ones.
			u.inner = append(u.inner, se)
			if k+1 < len(sel.SelectExprs) && starMarker(sel.SelectExprs[k+1]) != nil {
				u.inner = append(u.inner, sel.SelectExprs[k+1])
			}
			exclude = &sqlparser.FuncExpr{Name: sqlparser.NewColIdent(parse.ExcludeMarker)}
			outer = append(outer, &sqlparser.StarExpr{}, &sqlparser.AliasedExpr{Expr: exclude})
			continue
		}
		name := itemName(x)
		names[strings.ToLower(name)] = true
		outer = append(outer, &sqlparser.AliasedExpr{Expr: u.split(x.Expr), As: sqlparser.NewColIdent(name)})
	}
	// ORDER BY reads the outer columns by position or name; any other
	// key is computed by the inner SELECT, before the unnest.
	var order sqlparser.OrderBy
	for _, o := range sel.OrderBy {
		if hasUnnest(o.Expr) {
			return nil, p.unnestNotHere()
		}
		c := *o
		if !orderByOutput(o.Expr, names) {
			c.Expr = u.split(o.Expr)
		}
		order = append(order, &c)
	}
	if exclude != nil {
		for _, h := range u.hidden {
			exclude.Exprs = append(exclude.Exprs, &sqlparser.AliasedExpr{Expr: &sqlparser.ColName{Name: sqlparser.NewColIdent(h)}})
		}
	}
	inner := *sel
	inner.SelectExprs, inner.Distinct, inner.OrderBy, inner.Limit = u.inner, "", nil, nil
	from := &sqlparser.AliasedTableExpr{Expr: &sqlparser.Subquery{Select: &inner}, As: sqlparser.NewTableIdent(unnestDerived)}
	return &sqlparser.Select{Comments: sel.Comments, Distinct: sel.Distinct, SelectExprs: outer,
		From: sqlparser.TableExprs{from}, OrderBy: order, Limit: sel.Limit}, nil
}

// orderByOutput reports an ORDER BY key that names an output column: a
// position, ALL, or a bare name among names.
func orderByOutput(e sqlparser.Expr, names map[string]bool) bool {
	switch x := e.(type) {
	case *sqlparser.SQLVal:
		return x.Type == sqlparser.IntVal
	case *sqlparser.ColName:
		return x.Qualifier.IsEmpty() && (names[x.Name.Lowered()] || isMarker(x, parse.ByAllMarker))
	}
	return isLiteral(e)
}

// unnestInside refuses, as DuckDB does, an unnest that an expression
// holds (the inner SELECT's item x, of columns outs) when it makes
// columns of a struct's fields: the expression needs one value.
func (p *Planner) unnestInside(x *sqlparser.AliasedExpr, outs []unnestOut) error {
	if !strings.HasPrefix(x.As.String(), unnestHidden) || len(outs) == 1 && outs[0].rows {
		return nil
	}
	return p.Src.Locate(errorf("UNNEST() on a struct column can only be applied as the root element of a SELECT expression"), "unnest")
}
