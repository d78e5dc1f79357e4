package plan

import (
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/xwb1989/sqlparser"
)

// Row values: (a, b) = (x, y) and <> compare field by field (AND of the
// fields' IS NOT DISTINCT FROM: DuckDB compares row values as structs,
// NULL fields alike); (a, b) [NOT] IN ((x, y), ...)
// and (a, b) [NOT] IN (subquery) are the OR of such equalities, over the
// subquery's rows (run once; correlated ones are refused); an item or a
// subquery's column may be a struct of as many fields. (a, b) op ANY|ALL
// (subquery) compares the row value with each row as structs.

// maxRowValueSet bounds the rows of an IN list of row values.
const maxRowValueSet = 10_000

func (p *Planner) bindRowComparison(x *sqlparser.ComparisonExpr, left sqlparser.ValTuple, sc *Scope, agg *aggCtx) (Expr, error) {
	ls, err := bindRowOf(p, left, sc, agg)
	if err != nil {
		return nil, err
	}
	// rowEq is (ls) = (rs), field by field.
	rowEq := func(rs []Expr) (Expr, error) {
		if len(rs) == 1 && len(ls) > 1 && rs[0].Type().Kind == KNested {
			return p.rowStructEq(ls, rs[0]) // (1, 2) IN ({'a': 1, 'b': 2})
		}
		if len(rs) != len(ls) {
			return nil, errorf("row values of %d and %d fields cannot be compared", len(ls), len(rs))
		}
		terms := make([]Expr, len(ls))
		for i := range ls {
			// As DuckDB compares structs: NULL fields are equal, so a row
			// comparison is never NULL ((1, NULL) = (1, NULL) is true).
			c, err := p.compare(opNullSafeEq, ls[i], rs[i])
			if err != nil {
				return nil, err
			}
			terms[i] = c
		}
		return &AndExpr{Terms: terms}, nil
	}
	bindRow := func(e sqlparser.Expr) ([]Expr, error) {
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
	if f, ok := x.Right.(*sqlparser.FuncExpr); ok && (f.Name.Lowered() == parse.AnyMarker || f.Name.Lowered() == parse.AllMarker) {
		return p.bindRowQuantified(x.Operator, ls, f, sc)
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
		var rows [][]Expr
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
			if rows, err = p.subqueryRows(r, ls, sc); err != nil {
				return nil, err
			}
		default:
			return nil, unsupported("IN with " + sqlparser.String(x.Right))
		}
		if len(rows) == 0 {
			return &ConstExpr{T: TBool, V: x.Operator == sqlparser.NotInStr}, nil
		}
		var terms []Expr
		for _, rs := range rows {
			e, err := rowEq(rs)
			if err != nil {
				return nil, err
			}
			terms = append(terms, e)
		}
		var e Expr = &orExpr{terms: terms}
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
	r, err := p.BindExpr(x.Right, sc, agg)
	if err != nil {
		return nil, err
	}
	return p.compare(op, l, r)
}

func bindRowOf(p *Planner, es []sqlparser.Expr, sc *Scope, agg *aggCtx) ([]Expr, error) {
	out := make([]Expr, len(es))
	for i, e := range es {
		b, err := p.BindExpr(e, sc, agg)
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

// rowStructEq is the row value ls = the struct s, compared as structs
// (NULL fields alike, as DuckDB).
func (p *Planner) rowStructEq(ls []Expr, s Expr) (Expr, error) {
	l, err := p.bindRowValue(ls)
	if err != nil {
		return nil, err
	}
	return p.compare(opNullSafeEq, l, s)
}

// subqueryRows runs the subquery of a row value ls IN (subquery) once and
// gives its rows: as many columns as ls has fields, or one column of
// unnamed structs of that many (DuckDB's rules and errors).
func (p *Planner) subqueryRows(r *sqlparser.Subquery, ls []Expr, sc *Scope) ([][]Expr, error) {
	b, err := p.runSubquery(r.Select, sc, maxRowValueSet+1)
	if isCorrelated(err) {
		return nil, unsupported("a correlated subquery of row values (write EXISTS)")
	}
	if err != nil {
		return nil, err
	}
	if len(b.Cols) == 1 && b.Cols[0].T.Unnamed {
		fields, _ := structFields(b.Cols[0].T)
		if len(fields) != len(ls) {
			l, err := p.bindRowValue(ls)
			if err != nil {
				return nil, err
			}
			return nil, errorf("Cannot compare values of type %s and %s in IN/ANY/ALL clause - an explicit cast is required", l.Type().SQLName(), b.Cols[0].T.SQLName())
		}
	} else if len(b.Cols) != len(ls) {
		return nil, errorf("Subquery returns %d columns - expected %d", len(b.Cols), len(ls))
	}
	if b.N > maxRowValueSet {
		return nil, unsupported("IN with a subquery of more than 10000 row values (write EXISTS)")
	}
	rows := make([][]Expr, b.N)
	for i := range rows {
		rows[i] = make([]Expr, len(b.Cols))
		for k, c := range b.Cols {
			rows[i][k] = &ConstExpr{T: c.T, V: c.Get(i)}
		}
	}
	return rows, nil
}

// bindRowQuantified binds (a, b) op ANY|SOME|ALL (subquery): the OR (ANY)
// or AND (ALL) of the row value compared with each row as structs; false
// (ANY) or true (ALL) for no rows.
func (p *Planner) bindRowQuantified(operator string, ls []Expr, f *sqlparser.FuncExpr, sc *Scope) (Expr, error) {
	all := f.Name.Lowered() == parse.AllMarker
	var sub *sqlparser.Subquery
	if args := funcArgExprs(f); len(args) == 1 {
		sub, _ = args[0].(*sqlparser.Subquery)
	}
	op, known := cmpOps[operator]
	if sub == nil || !known {
		return nil, unsupported("row values with " + operator + " ANY/ALL of a list")
	}
	rows, err := p.subqueryRows(sub, ls, sc)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return &ConstExpr{T: TBool, V: all}, nil
	}
	l, err := p.bindRowValue(ls)
	if err != nil {
		return nil, err
	}
	terms := make([]Expr, len(rows))
	for i, rs := range rows {
		r := rs[0]
		if len(rs) > 1 || !r.Type().Unnamed {
			if r, err = p.bindRowValue(rs); err != nil {
				return nil, err
			}
		}
		if terms[i], err = p.compare(op, l, r); err != nil {
			return nil, err
		}
	}
	if all {
		return &AndExpr{Terms: terms}, nil
	}
	return &orExpr{terms: terms}, nil
}
