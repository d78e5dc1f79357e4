package plan

import (
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/vec"
	"github.com/xwb1989/sqlparser"
)

// x op ANY|SOME|ALL (subquery), or (list): the list form is the subquery
// form over the list's elements (SELECT unnest(list)), so a NULL or empty
// list makes ANY false and ALL true.
//
// For a subquery: = ANY is IN and <> ALL is NOT IN (both
// also correlated); the others compare x with the subquery's smallest or
// largest value, which gives the same three-valued result: x > ANY (s) is
// x > min(s), and, when s holds a NULL, that OR NULL (true stays true,
// false becomes unknown); x > ALL (s) is x > max(s), AND NULL when s holds
// a NULL; over an empty s, ANY is false and ALL true. = ALL is x = min =
// max, <> ANY its negation.

func (p *Planner) bindQuantified(x *sqlparser.ComparisonExpr, l Expr, f *sqlparser.FuncExpr, sc *Scope, agg *aggCtx) (Expr, error) {
	all := f.Name.Lowered() == parse.AllMarker
	var sub *sqlparser.Subquery
	if len(f.Exprs) == 1 {
		if ae, ok := f.Exprs[0].(*sqlparser.AliasedExpr); ok {
			sub, _ = ae.Expr.(*sqlparser.Subquery)
		}
	}
	op := x.Operator
	if op == "!=" {
		op = "<>"
	}
	if sub == nil {
		if len(f.Exprs) != 1 {
			return nil, errorf("ANY, SOME and ALL take a subquery or a list")
		}
		return p.bindQuantifiedList(op, all, l, f.Exprs[0], sc, agg)
	}
	switch {
	case op == "=" && !all:
		return p.bindComparison(&sqlparser.ComparisonExpr{Operator: sqlparser.InStr, Left: x.Left, Right: sub}, sc, agg)
	case op == "<>" && all:
		return p.bindComparison(&sqlparser.ComparisonExpr{Operator: sqlparser.NotInStr, Left: x.Left, Right: sub}, sc, agg)
	}
	b, err := p.runSubquery(sub.Select, sc, -1)
	if isCorrelated(err) {
		return nil, unsupported("a correlated subquery under " + op + " ANY/ALL (write EXISTS)")
	}
	if err != nil {
		return nil, err
	}
	if len(b.Cols) != 1 {
		return nil, errorf("the subquery of ANY/ALL returns %d columns, not 1", len(b.Cols))
	}
	if b.N == 0 {
		return &ConstExpr{T: TBool, V: all}, nil
	}
	c := b.Cols[0]
	var lo, hi any
	hasNull := false
	for i := 0; i < b.N; i++ {
		v := c.Get(i)
		if v == nil {
			hasNull = true
			continue
		}
		if lo == nil || vec.CompareScalars(c.T, v, lo) < 0 {
			lo = v
		}
		if hi == nil || vec.CompareScalars(c.T, v, hi) > 0 {
			hi = v
		}
	}
	unknown := &ConstExpr{T: TBool}
	if lo == nil { // only NULLs
		return unknown, nil
	}
	cmp := func(o cmpOp, v any) (Expr, error) { return p.compare(o, l, &ConstExpr{T: c.T, V: v}) }
	var e Expr
	switch op {
	case "=", "<>": // = ALL, <> ANY
		eq, err := cmp(opEq, lo)
		if err != nil {
			return nil, err
		}
		if vec.CompareScalars(c.T, lo, hi) != 0 {
			// x cannot equal two values: false, or NULL for a NULL x.
			if eq, err = p.compare(opNe, l, l); err != nil {
				return nil, err
			}
		}
		e = eq
		if op == "<>" {
			e = &notExpr{e: e}
		}
		all = op == "="
	default:
		ops := map[string]cmpOp{"<": opLt, "<=": opLe, ">": opGt, ">=": opGe}
		o := ops[op]
		// ANY: the easiest value to beat; ALL: the hardest.
		v := lo
		if (o == opLt || o == opLe) != all {
			v = hi
		}
		if e, err = cmp(o, v); err != nil {
			return nil, err
		}
	}
	if hasNull {
		if all {
			e = &AndExpr{Terms: []Expr{e, unknown}}
		} else {
			e = &orExpr{terms: []Expr{e, unknown}}
		}
	}
	return e, nil
}

// bindQuantifiedList binds x op ANY|ALL (list), three-valued per element:
// ANY is true when some comparison is, else NULL when some is NULL, else
// false; ALL is false when some comparison is, else NULL when some is
// NULL, else true.
func (p *Planner) bindQuantifiedList(op string, all bool, l Expr, arg sqlparser.SelectExpr, sc *Scope, agg *aggCtx) (Expr, error) {
	ae, ok := arg.(*sqlparser.AliasedExpr)
	if !ok {
		return nil, errorf("ANY, SOME and ALL take a subquery or a list")
	}
	list, err := p.BindExpr(ae.Expr, sc, agg)
	if err != nil {
		return nil, err
	}
	et, err := listArgElem(op+" ANY/ALL", list)
	if err != nil {
		return nil, err
	}
	ct, err := UnifyTypes(l.Type(), plainType(et))
	if err != nil {
		return nil, err
	}
	x, err := p.cast(l, ct)
	if err != nil {
		return nil, err
	}
	o, known := map[string]cmpOp{"=": opEq, "<>": opNe, "<": opLt, "<=": opLe, ">": opGt, ">=": opGe}[op]
	if !known {
		return nil, errorf("ANY and ALL do not take the operator %s", op)
	}
	word := "ANY"
	if all {
		word = "ALL"
	}
	e := nestedFunc(x.String()+" "+op+" "+word+"("+list.String()+")", TBool, []Expr{x, list}, func(v []any) (any, error) {
		elems, _ := v[1].([]any)
		sawNull := false
		for _, el := range elems {
			s, err := fromGo(et, el)
			if err != nil {
				return nil, err
			}
			if s != nil {
				s, err = CastScalar(s, plainType(et), ct)
				if err != nil {
					return nil, err
				}
			}
			if s == nil || v[0] == nil {
				sawNull = true
				continue
			}
			if h := holds(o, vec.CompareScalars(ct, v[0], s)); h != all {
				return h, nil
			}
		}
		if sawNull {
			return nil, nil
		}
		return all, nil
	})
	e.strict = false
	return e, nil
}
