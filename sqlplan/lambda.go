package sqlplan

import (
	"errors"
	"strings"

	"github.com/xwb1989/sqlparser"
)

// Lambdas: list_transform(l, x -> body), list_filter(l, x -> cond) and
// list_reduce(l, (acc, x) -> body), with their array_ and short names. The
// rewrite turns a lambda into lambdaMarker('x', body); the body is bound in
// a scope of its own, where only the parameters are columns (it may not
// name the query's columns), and evaluated over every element of the
// batch's lists at once.

// lambdaKind is what a lambda function does with its lambda's results.
func lambdaKind(name string) byte {
	switch name {
	case "list_filter", "array_filter", "filter":
		return 'f'
	case "list_reduce", "array_reduce", "reduce":
		return 'r'
	}
	return 't'
}

// bindLambdaCall binds f(list, lambda).
func (p *planner) bindLambdaCall(name string, x *sqlparser.FuncExpr, sc *scope, agg *aggCtx) (expr, error) {
	if len(x.Exprs) != 2 {
		return nil, errorf("%s takes a list and a lambda", name)
	}
	first, ok1 := x.Exprs[0].(*sqlparser.AliasedExpr)
	second, ok2 := x.Exprs[1].(*sqlparser.AliasedExpr)
	if !ok1 || !ok2 {
		return nil, errorf("%s takes a list and a lambda", name)
	}
	lam, ok := second.Expr.(*sqlparser.FuncExpr)
	if !ok || lam.Name.Lowered() != lambdaMarker {
		return nil, errorf("the second argument of %s must be a lambda (x -> ...)", name)
	}
	list, err := p.bindExpr(first.Expr, sc, agg)
	if err != nil {
		return nil, err
	}
	lt := list.typ()
	if lt.Kind == KNull {
		return &constExpr{t: Type{Kind: KNull}}, nil
	}
	elem, ok := listElem(lt)
	if !ok {
		return nil, errorf("%s needs a list, not %s", name, lt.SQLName())
	}
	kind := lambdaKind(name)
	want := 1
	if kind == 'r' {
		want = 2
	}
	body, params, err := p.bindLambdaBody(name, lam, want, elem)
	if err != nil {
		return nil, err
	}
	e := &lambdaExpr{kind: kind, list: list, elem: elem, body: body}
	switch kind {
	case 'f':
		if e.body, err = p.coerce(body, tBool); err != nil {
			return nil, err
		}
		e.t = lt
	case 'r':
		// The accumulator keeps the element type: the body is cast to it.
		if e.body, err = p.cast(body, elem); err != nil {
			return nil, err
		}
		e.t = elem
	default:
		bt := plainType(body.typ())
		if bt.Kind == KNull {
			bt = tInt
		}
		if e.body, err = p.cast(body, bt); err != nil {
			return nil, err
		}
		e.t = Type{Kind: KNested, Elem: &bt}
	}
	e.setText(name + "(" + list.String() + ", " + strings.Join(params, ", ") + " -> " + body.String() + ")")
	return e, nil
}

// bindLambdaBody binds the body of the lambda lam, which must have want
// parameters, each of type t. The parameters are the columns of a relation
// of their own, at slots 0 (and 1) of the batches the body is evaluated
// on.
func (p *planner) bindLambdaBody(name string, lam *sqlparser.FuncExpr, want int, t Type) (expr, []string, error) {
	var params []string
	for _, a := range lam.Exprs[:len(lam.Exprs)-1] {
		ae, ok := a.(*sqlparser.AliasedExpr)
		if !ok {
			return nil, nil, errorf("bad lambda")
		}
		v, ok := ae.Expr.(*sqlparser.SQLVal)
		if !ok {
			return nil, nil, errorf("bad lambda")
		}
		params = append(params, string(v.Val))
	}
	if len(params) != want {
		return nil, nil, errorf("the lambda of %s takes %d parameter(s), not %d", name, want, len(params))
	}
	bodyAE, ok := lam.Exprs[len(lam.Exprs)-1].(*sqlparser.AliasedExpr)
	if !ok {
		return nil, nil, errorf("bad lambda")
	}
	rel := &relation{alias: lambdaMarker}
	for i, name := range params {
		rel.cols = append(rel.cols, &scopeCol{rel: rel, name: name, t: t, slot: &slot{idx: i}, local: i})
	}
	lsc := &scope{rels: []*relation{rel}, from: []*relation{rel}, merged: map[*relation]map[string]bool{}, hidden: map[*scopeCol]bool{}, shown: map[*scopeCol]*scopeCol{}}
	body, err := p.bindExpr(bodyAE.Expr, lsc, nil)
	if err != nil {
		if e, ok := err.(*Error); ok && errors.Is(e.Err, ErrNoColumn) {
			e.Msg += " (a lambda's body here reads only its parameters: " + strings.Join(params, ", ") + ")"
		}
		return nil, nil, err
	}
	return body, params, nil
}

// lambdaExpr applies a lambda to the elements of a list: transform ('t')
// maps them, filter ('f') keeps those it holds for, reduce ('r') folds
// them from the first (an empty list is an error, as in DuckDB).
type lambdaExpr struct {
	named
	kind byte
	list expr
	elem Type
	body expr
	t    Type
}

func (e *lambdaExpr) typ() Type { return e.t }

func (e *lambdaExpr) eval(b *Batch) (*Col, error) {
	lc, err := e.list.eval(b)
	if err != nil {
		return nil, err
	}
	lists := make([][]any, b.N)
	for i := range lists {
		if v := lc.get(i); v != nil {
			lists[i] = v.([]any)
		}
	}
	out := newBuilder(e.t, b.N)
	if e.kind == 'r' {
		for i, l := range lists {
			if lc.isNull(i) {
				out.add(nil)
				continue
			}
			v, err := e.reduce(l)
			if err != nil {
				return nil, err
			}
			out.add(v)
		}
		return out.c, nil
	}
	// Every element of every list in one batch, the body evaluated once.
	elems := newBuilder(e.elem, b.N)
	total := 0
	for _, l := range lists {
		for _, x := range l {
			v, err := fromGo(e.elem, x)
			if err != nil {
				return nil, err
			}
			elems.add(v)
			total++
		}
	}
	res, err := e.body.eval(&Batch{N: total, Cols: []*Col{elems.c}})
	if err != nil {
		return nil, err
	}
	rt := e.t
	if e.kind == 't' {
		rt = *e.t.Elem
	}
	k := 0
	for i, l := range lists {
		if lc.isNull(i) {
			k += len(l)
			out.add(nil)
			continue
		}
		vals := []any{}
		for _, x := range l {
			switch e.kind {
			case 'f':
				if !res.isNull(k) && res.B[k] {
					vals = append(vals, x)
				}
			default:
				vals = append(vals, toGo(rt, res.get(k)))
			}
			k++
		}
		out.add(vals)
	}
	return out.c, nil
}

// reduce folds one list with the body (acc at slot 0, the element at 1).
func (e *lambdaExpr) reduce(l []any) (any, error) {
	if len(l) == 0 {
		return nil, errorf("list_reduce of an empty list") // as DuckDB
	}
	acc, err := fromGo(e.elem, l[0])
	if err != nil {
		return nil, err
	}
	for _, x := range l[1:] {
		v, err := fromGo(e.elem, x)
		if err != nil {
			return nil, err
		}
		a, c := newBuilder(e.elem, 1), newBuilder(e.elem, 1)
		a.add(acc)
		c.add(v)
		r, err := e.body.eval(&Batch{N: 1, Cols: []*Col{a.c, c.c}})
		if err != nil {
			return nil, err
		}
		acc = r.get(0)
	}
	return acc, nil
}
