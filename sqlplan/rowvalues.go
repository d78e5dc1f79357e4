package sqlplan

import (
	"github.com/xwb1989/sqlparser"
)

// Row values: (a, b) = (x, y) and <> compare field by field (AND of the
// fields' IS NOT DISTINCT FROM: DuckDB compares row values as structs,
// NULL fields alike); (a, b) [NOT] IN ((x, y), ...)
// and (a, b) [NOT] IN (subquery) are the OR of such equalities, over the
// subquery's rows (run once; correlated ones are refused).

// maxRowValueSet bounds the rows of an IN list of row values.
const maxRowValueSet = 10_000

func (p *planner) bindRowComparison(x *sqlparser.ComparisonExpr, left sqlparser.ValTuple, sc *scope, agg *aggCtx) (expr, error) {
	ls, err := bindRowOf(p, left, sc, agg)
	if err != nil {
		return nil, err
	}
	// rowEq is (ls) = (rs), field by field.
	rowEq := func(rs []expr) (expr, error) {
		if len(rs) != len(ls) {
			return nil, errorf("row values of %d and %d fields cannot be compared", len(ls), len(rs))
		}
		terms := make([]expr, len(ls))
		for i := range ls {
			// As DuckDB compares structs: NULL fields are equal, so a row
			// comparison is never NULL ((1, NULL) = (1, NULL) is true).
			c, err := p.compare(opNullSafeEq, ls[i], rs[i])
			if err != nil {
				return nil, err
			}
			terms[i] = c
		}
		return &andExpr{terms: terms}, nil
	}
	bindRow := func(e sqlparser.Expr) ([]expr, error) {
		if f, isRow := e.(*sqlparser.FuncExpr); isRow && f.Name.Lowered() == "row" && f.Qualifier.IsEmpty() {
			return bindRowOf(p, funcArgExprs(f), sc, agg) // row(1, 2) is the tuple (1, 2)
		}
		t, ok := e.(sqlparser.ValTuple)
		if !ok {
			if pe, isParen := e.(*sqlparser.ParenExpr); isParen {
				return bindRowOf(p, []sqlparser.Expr{pe.Expr}, sc, agg)
			}
			return bindRowOf(p, []sqlparser.Expr{e}, sc, agg)
		}
		return bindRowOf(p, t, sc, agg)
	}
	switch x.Operator {
	case sqlparser.EqualStr, sqlparser.NotEqualStr, "<>":
		if _, isTuple := x.Right.(sqlparser.ValTuple); !isTuple {
			break // (a, b) = row(...) or a struct: compared as structs below
		}
		rs, err := bindRow(x.Right)
		if err != nil {
			return nil, err
		}
		e, err := rowEq(rs)
		if err != nil {
			return nil, err
		}
		if x.Operator != sqlparser.EqualStr {
			return &notExpr{e: e}, nil
		}
		return e, nil
	case sqlparser.InStr, sqlparser.NotInStr:
		var rows [][]expr
		switch r := x.Right.(type) {
		case sqlparser.ValTuple:
			for _, item := range r {
				rs, err := bindRow(item)
				if err != nil {
					return nil, err
				}
				rows = append(rows, rs)
			}
		case *sqlparser.Subquery:
			b, err := p.runSubquery(r.Select, sc, maxRowValueSet+1)
			if isCorrelated(err) {
				return nil, unsupported("a correlated subquery of row values (write EXISTS)")
			}
			if err != nil {
				return nil, err
			}
			if len(b.Cols) != len(ls) {
				return nil, errorf("the subquery of IN returns %d columns, the row value has %d", len(b.Cols), len(ls))
			}
			if b.N > maxRowValueSet {
				return nil, unsupported("IN with a subquery of more than 10000 row values (write EXISTS)")
			}
			for i := 0; i < b.N; i++ {
				rs := make([]expr, len(b.Cols))
				for k, c := range b.Cols {
					rs[k] = &constExpr{t: c.T, v: c.Get(i)}
				}
				rows = append(rows, rs)
			}
		default:
			return nil, unsupported("IN with " + sqlparser.String(x.Right))
		}
		if len(rows) == 0 {
			return &constExpr{t: tBool, v: x.Operator == sqlparser.NotInStr}, nil
		}
		var terms []expr
		for _, rs := range rows {
			e, err := rowEq(rs)
			if err != nil {
				return nil, err
			}
			terms = append(terms, e)
		}
		var e expr = &orExpr{terms: terms}
		if x.Operator == sqlparser.NotInStr {
			e = &notExpr{e: e}
		}
		return e, nil
	}
	op, ok := cmpOps[x.Operator]
	if !ok {
		return nil, unsupported("the " + x.Operator + " comparison of row values")
	}
	// <, <=, >, >= (and = with a struct) compare row values as DuckDB
	// compares unnamed structs: field by field.
	l, err := p.bindRowValue(ls)
	if err != nil {
		return nil, err
	}
	r, err := p.bindExpr(x.Right, sc, agg)
	if err != nil {
		return nil, err
	}
	return p.compare(op, l, r)
}

func bindRowOf(p *planner, es []sqlparser.Expr, sc *scope, agg *aggCtx) ([]expr, error) {
	out := make([]expr, len(es))
	for i, e := range es {
		b, err := p.bindExpr(e, sc, agg)
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

// funcArgExprs are a call's arguments as expressions (a * argument, which
// row() does not take, is left out for the binder to report).
func funcArgExprs(f *sqlparser.FuncExpr) []sqlparser.Expr {
	out := make([]sqlparser.Expr, 0, len(f.Exprs))
	for _, a := range f.Exprs {
		if ae, ok := a.(*sqlparser.AliasedExpr); ok {
			out = append(out, ae.Expr)
		}
	}
	return out
}
