package plan

import (
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/xwb1989/sqlparser"
)

// Lambdas: list_transform(l, x -> body), list_filter(l, x -> cond) and
// list_reduce(l, (acc, x) -> body), with their array_ and short names. The
// rewrite turns a lambda into parse.LambdaMarker('x', body); the body is bound in
// a scope of its own parameters, which sees the query's columns too, and
// is evaluated over every element of the batch's lists at once, on a batch
// of the query's columns repeated for each element of their row, the
// parameters after them.

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
func (p *Planner) bindLambdaCall(name string, x *sqlparser.FuncExpr, sc *Scope, agg *aggCtx) (Expr, error) {
	if len(x.Exprs) != 2 {
		return nil, errorf("%s takes a list and a lambda", name)
	}
	first, ok1 := x.Exprs[0].(*sqlparser.AliasedExpr)
	second, ok2 := x.Exprs[1].(*sqlparser.AliasedExpr)
	if !ok1 || !ok2 {
		return nil, errorf("%s takes a list and a lambda", name)
	}
	lam, ok := second.Expr.(*sqlparser.FuncExpr)
	if !ok || lam.Name.Lowered() != parse.LambdaMarker {
		return nil, errorf("the second argument of %s must be a lambda (x -> ...)", name)
	}
	list, err := p.BindExpr(first.Expr, sc, agg)
	if err != nil {
		return nil, err
	}
	lt := list.Type()
	if lt.Kind == KNull {
		return &ConstExpr{T: Type{Kind: KNull}}, nil
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
	body, params, slots, err := p.bindLambdaBody(name, lam, want, elem, sc, agg)
	if err != nil {
		return nil, err
	}
	e := &lambdaExpr{kind: kind, list: list, elem: elem, body: body, params: params, paramSlots: slots}
	e.outer = outerRefs(body, slots)
	switch kind {
	case 'f':
		if e.body, err = p.coerce(body, TBool); err != nil {
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
		bt := plainType(body.Type())
		if bt.Kind == KNull {
			bt = TInt
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
func (p *Planner) bindLambdaBody(name string, lam *sqlparser.FuncExpr, want int, t Type, outer *Scope, agg *aggCtx) (Expr, []string, []*Slot, error) {
	var params []string
	for _, a := range lam.Exprs[:len(lam.Exprs)-1] {
		ae, ok := a.(*sqlparser.AliasedExpr)
		if !ok {
			return nil, nil, nil, errorf("bad lambda")
		}
		v, ok := ae.Expr.(*sqlparser.SQLVal)
		if !ok {
			return nil, nil, nil, errorf("bad lambda")
		}
		params = append(params, string(v.Val))
	}
	if len(params) != want {
		return nil, nil, nil, errorf("the lambda of %s takes %d parameter(s), not %d", name, want, len(params))
	}
	bodyAE, ok := lam.Exprs[len(lam.Exprs)-1].(*sqlparser.AliasedExpr)
	if !ok {
		return nil, nil, nil, errorf("bad lambda")
	}
	rel := &Relation{Alias: parse.LambdaMarker}
	for i, name := range params {
		rel.Cols = append(rel.Cols, &ScopeCol{Rel: rel, Name: name, T: t, Slot: &Slot{Idx: i}, Local: i})
	}
	lsc := &Scope{Rels: []*Relation{rel}, from: []*Relation{rel}, outer: outer, lambda: true,
		Merged: map[*Relation]map[string]bool{}, hidden: map[*ScopeCol]bool{}, shown: map[*ScopeCol]*ScopeCol{}}
	// Under GROUP BY the body reads the group keys and aggregates, as the
	// select item it is in (bindExpr0 finds the parameters first).
	body, err := p.BindExpr(bodyAE.Expr, lsc, agg)
	if err != nil {
		return nil, nil, nil, err
	}
	slots := make([]*Slot, len(rel.Cols))
	for i, c := range rel.Cols {
		slots[i] = c.Slot
	}
	return body, params, slots, nil
}

// outerRefs lists the query's columns that a bound lambda body reads
// (every column it names but the parameters, at params).
func outerRefs(body Expr, params []*Slot) []Expr {
	isParam := map[*Slot]bool{}
	for _, s := range params {
		isParam[s] = true
	}
	var out []Expr
	seen := map[*Slot]bool{}
	var walk func(e Expr)
	walk = func(e Expr) {
		if c, ok := e.(*ColExpr); ok && !isParam[c.S] && !seen[c.S] {
			seen[c.S] = true
			out = append(out, c)
		}
		for _, ch := range children(e) {
			walk(ch)
		}
	}
	walk(body)
	return out
}

// lambdaExpr applies a lambda to the elements of a list: transform ('t')
// maps them, filter ('f') keeps those it holds for, reduce ('r') folds
// them from the first (an empty list is an error, as in DuckDB).
type lambdaExpr struct {
	named
	kind   byte
	list   Expr
	elem   Type
	body   Expr
	t      Type
	params []string
	// paramSlots are the body's parameter slots, placed after the
	// query's columns when the body is evaluated; outer are the query's
	// columns the body reads.
	paramSlots []*Slot
	outer      []Expr
}

func (e *lambdaExpr) Type() Type { return e.t }

func (e *lambdaExpr) Eval(b *Batch) (*Col, error) {
	lc, err := e.list.Eval(b)
	if err != nil {
		return nil, err
	}
	lists := make([][]any, b.N)
	for i := range lists {
		if v := lc.Get(i); v != nil {
			lists[i] = v.([]any)
		}
	}
	// The parameters come after the batch's columns.
	width := len(b.Cols)
	for i, s := range e.paramSlots {
		s.Idx = width + i
	}
	out := NewBuilder(e.t, b.N)
	if e.kind == 'r' {
		for i, l := range lists {
			if lc.IsNull(i) {
				out.Add(nil)
				continue
			}
			v, err := e.reduce(b, i, l)
			if err != nil {
				return nil, err
			}
			out.Add(v)
		}
		return out.C, nil
	}
	// Every element of every list in one batch, the body evaluated once,
	// each element with the query's columns of its row.
	elems := NewBuilder(e.elem, b.N)
	var rowOf []int32
	for i, l := range lists {
		for _, x := range l {
			v, err := fromGo(e.elem, x)
			if err != nil {
				return nil, err
			}
			elems.Add(v)
			rowOf = append(rowOf, int32(i))
		}
	}
	eb := e.elementBatch(b, rowOf)
	eb.Cols[width] = elems.C
	res, err := e.body.Eval(eb)
	if err != nil {
		return nil, err
	}
	rt := e.t
	if e.kind == 't' {
		rt = *e.t.Elem
	}
	k := 0
	for i, l := range lists {
		if lc.IsNull(i) {
			k += len(l)
			out.Add(nil)
			continue
		}
		vals := []any{}
		for _, x := range l {
			switch e.kind {
			case 'f':
				if !res.IsNull(k) && res.B[k] {
					vals = append(vals, x)
				}
			default:
				vals = append(vals, toGo(rt, res.Get(k)))
			}
			k++
		}
		out.Add(vals)
	}
	return out.C, nil
}

// elementBatch is a batch of len(rowOf) rows holding the query's columns
// the body reads, of row rowOf[k] for row k, and room for the parameters.
func (e *lambdaExpr) elementBatch(b *Batch, rowOf []int32) *Batch {
	eb := &Batch{N: len(rowOf), Cols: make([]*Col, len(b.Cols)+len(e.paramSlots))}
	for _, o := range e.outer {
		if idx := o.(*ColExpr).S.Idx; idx < len(b.Cols) && b.Cols[idx] != nil && eb.Cols[idx] == nil {
			eb.Cols[idx] = b.Cols[idx].Take(rowOf)
		}
	}
	return eb
}

// reduce folds the list l of row i of b with the body (the accumulator
// and the element are its parameters).
func (e *lambdaExpr) reduce(b *Batch, i int, l []any) (any, error) {
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
		a, c := NewBuilder(e.elem, 1), NewBuilder(e.elem, 1)
		a.Add(acc)
		c.Add(v)
		eb := e.elementBatch(b, []int32{int32(i)})
		eb.Cols[len(b.Cols)], eb.Cols[len(b.Cols)+1] = a.C, c.C
		r, err := e.body.Eval(eb)
		if err != nil {
			return nil, err
		}
		acc = r.Get(0)
	}
	return acc, nil
}

// lambdaParam is the lambda parameter that c names in the lambda body
// scope sc, nil if sc is not one or c names something else.
func lambdaParam(sc *Scope, c *sqlparser.ColName) *ScopeCol {
	for ; sc != nil && sc.lambda; sc = sc.outer {
		if !c.Qualifier.IsEmpty() {
			return nil
		}
		for _, col := range sc.Rels[0].Cols {
			if strings.EqualFold(col.Name, c.Name.String()) {
				return col
			}
		}
	}
	return nil
}
