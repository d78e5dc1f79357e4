package plan

import (
	"cmp"
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
	"github.com/carquet-go/carquet/sqlplan/vec"
	"github.com/xwb1989/sqlparser"
)

// groupedExists answers a correlated EXISTS whose correlation is one
// equality inner = outer.k plus comparisons of inner expressions with
// outer columns (TPC-H Q21: l2.l_orderkey = l1.l_orderkey AND
// l2.l_suppkey <> l1.l_suppkey) from one run of the subquery instead of a
// run per outer row: SELECT inner, r1, r2, ... FROM s WHERE <the
// conjuncts without outer columns>, its rows bucketed by inner; an outer
// row's answer is whether a row of its bucket meets every comparison.
// That is a hash semi-join with a residual condition.
type groupedExists struct {
	sel     *sqlparser.Select
	keyRef  int // the outer reference the key equals (index in refs)
	keyT    Type
	resid   []existsResidual
	outerTs []Type

	// restrictions restrict sel to the keys the outer query will look up
	// (reduce.go).
	restrictions []keyRestriction

	built  bool
	rows   *Batch
	table  *rowTable // the rows by key
	useInt bool      // table keys int64s (else encoded keys)
}

// existsResidual is inner op outer: column 1+i of the built rows against
// outer reference ref.
type existsResidual struct {
	op  cmpOp
	ref int
	t   Type // the type both sides compare in
}

// groupedExistsOf returns the grouped form of a correlated EXISTS, or nil
// when its shape is not the one above. names are the outer references as
// the subquery names them (frame.names), ts their types.
func groupedExistsOf(x *sqlparser.ExistsExpr, names []*sqlparser.ColName, ts []Type) *groupedExists {
	sel, ok := x.Subquery.Select.(*sqlparser.Select)
	if !ok || sel.Where == nil || len(sel.GroupBy) > 0 || sel.Having != nil || sel.Limit != nil || sel.Lock != "" ||
		ContainsAggregate(sel.SelectExprs) {
		return nil
	}
	refs := outerNamesOf(names)
	mentions := func(n sqlparser.SQLNode) bool { return refs.count(n, -1) > 0 }
	if mentions(sel.From) {
		return nil
	}
	g := &groupedExists{keyRef: -1, outerTs: ts}
	var keyExpr sqlparser.Expr
	var residExprs []sqlparser.Expr
	var inner []sqlparser.Expr
	for _, c := range SplitAnd(sel.Where.Expr) {
		if !mentions(c) {
			inner = append(inner, c)
			continue
		}
		cmp, ok := c.(*sqlparser.ComparisonExpr)
		if !ok || cmp.Escape != nil {
			return nil
		}
		op, ok := cmpOps[cmp.Operator]
		if !ok || op == opNullSafeEq || ContainsSubquery(cmp) {
			return nil
		}
		var in sqlparser.Expr
		ref := -1
		switch {
		case refs.ref(cmp.Right) >= 0 && !mentions(cmp.Left):
			in, ref = cmp.Left, refs.ref(cmp.Right)
		case refs.ref(cmp.Left) >= 0 && !mentions(cmp.Right):
			in, ref, op = cmp.Right, refs.ref(cmp.Left), flipCmp(op)
		default:
			return nil
		}
		if op == opEq && keyExpr == nil {
			keyExpr, g.keyRef = in, ref
			continue
		}
		residExprs = append(residExprs, in)
		g.resid = append(g.resid, existsResidual{op: op, ref: ref})
	}
	if keyExpr == nil {
		return nil
	}
	items := sqlparser.SelectExprs{&sqlparser.AliasedExpr{Expr: keyExpr}}
	for _, r := range residExprs {
		items = append(items, &sqlparser.AliasedExpr{Expr: r})
	}
	g.sel = &sqlparser.Select{SelectExprs: items, From: sel.From, Distinct: ""}
	if len(inner) > 0 {
		g.sel.Where = &sqlparser.Where{Type: sqlparser.WhereStr, Expr: astAnd(inner)}
	}
	// No DISTINCT even when only the key matters: the hash table holds
	// repeated keys at the cost of a link each, less than removing them.
	return g
}

// build runs the subquery once and buckets its rows by key.
func (g *groupedExists) build(e *corrExpr) error {
	p := e.p.Child(e.p.Src)
	defer p.ReleaseAll()
	b, err := runRestricted(p, g.sel, g.restrictions, e.sc)
	if err != nil {
		return err
	}
	if g.keyT, err = UnifyTypes(WithoutField(b.Cols[0].T), WithoutField(g.outerTs[g.keyRef])); err != nil {
		return errGroupedFallback
	}
	key := b.Cols[0]
	if kernels.NeedsCast(key.T, g.keyT) {
		if key, err = CastCol(key, g.keyT); err != nil {
			return errGroupedFallback
		}
	}
	key = key.Decoded()
	for i := range g.resid {
		r := &g.resid[i]
		if r.t, err = UnifyTypes(WithoutField(b.Cols[1+i].T), WithoutField(g.outerTs[r.ref])); err != nil {
			return errGroupedFallback
		}
		c := b.Cols[1+i]
		if kernels.NeedsCast(c.T, r.t) {
			if b.Cols[1+i], err = CastCol(c, r.t); err != nil {
				return errGroupedFallback
			}
		}
		b.Cols[1+i] = b.Cols[1+i].Decoded()
	}
	g.rows = b
	g.useInt = Storage(g.keyT) == stInt && key.I != nil
	if g.useInt {
		g.table = kernels.BuildInts(key, b.N)
	} else {
		g.table = kernels.BuildKeys([]*Col{key}, b.N)
	}
	g.built = true
	return nil
}

// exists answers the EXISTS for one outer row's reference values.
func (g *groupedExists) exists(e *corrExpr, vals []any) (bool, error) {
	if !g.built {
		if err := g.build(e); err != nil {
			return false, err
		}
	}
	kv := vals[g.keyRef]
	if kv == nil {
		return false, nil
	}
	kv, err := CastScalar(kv, WithoutField(g.outerTs[g.keyRef]), g.keyT)
	if err != nil {
		return false, AsError(err)
	}
	var bucket []int32
	if g.useInt {
		x, _ := kv.(int64)
		if u, ok := kv.(uint64); ok {
			x = int64(u)
		}
		_, bucket = g.table.AppendIntMatches(nil, nil, 0, x)
	} else {
		one := NewBuilder(g.keyT, 1)
		one.Add(kv)
		_, bucket = g.table.AppendKeyMatches(nil, nil, 0, vec.AppendKey(nil, one.C, 0))
	}
	if len(bucket) == 0 {
		return false, nil
	}
	ovs := make([]any, len(g.resid))
	for i, r := range g.resid {
		v := vals[r.ref]
		if v == nil {
			return false, nil // a comparison with NULL holds for no row
		}
		if ovs[i], err = CastScalar(v, WithoutField(g.outerTs[r.ref]), r.t); err != nil {
			return false, AsError(err)
		}
	}
rows:
	for _, row := range bucket {
		for i, r := range g.resid {
			c := g.rows.Cols[1+i]
			iv := c.Get(int(row))
			if iv == nil || !holds(r.op, vec.CompareScalars(r.t, iv, ovs[i])) {
				continue rows
			}
		}
		return true, nil
	}
	return false, nil
}

// evalRows answers the EXISTS for every row of a batch from the outer
// references' columns, without the per-value memo of other correlated
// subqueries: one bucket lookup per row (an integer key straight from the
// column when it is one).
func (g *groupedExists) evalRows(e *corrExpr, outer []*Col, n int) (*Col, error) {
	if !g.built {
		if err := g.build(e); err != nil {
			return nil, err
		}
	}
	out := &Col{T: Type{Kind: KBool}, Len: n, B: make([]bool, n)}
	kc := outer[g.keyRef].Decoded()
	direct := g.useInt && len(g.resid) == 0 && kc.I != nil && kc.T.Kind != KUint &&
		(kc.T.Kind == g.keyT.Kind || kc.T.Op() == KInt && g.keyT.Op() == KInt) && kc.T.Kind != KDecimal
	if direct {
		for i := 0; i < n; i++ {
			if !kc.IsNull(i) {
				out.B[i] = g.table.FindInt(kc.I[i]) >= 0
			}
		}
		return out, nil
	}
	if g.intResiduals(kc, outer) {
		g.existsInts(kc, outer, out.B)
		return out, nil
	}
	vals := make([]any, len(outer))
	for i := 0; i < n; i++ {
		for j, c := range outer {
			vals[j] = c.Get(i)
		}
		found, err := g.exists(e, vals)
		if err != nil {
			return nil, err
		}
		out.B[i] = found
	}
	return out, nil
}

// intResiduals reports whether the key and every residual comparison
// can be answered on the int64s of the columns as they are: the same
// types on both sides, no casts.
func (g *groupedExists) intResiduals(kc *Col, outer []*Col) bool {
	same := func(c *Col, t Type) bool {
		return c.I != nil && c.Dict == nil && Storage(t) == stInt && c.T.Kind == t.Kind && c.T.Kind != KUint &&
			c.T.Scale == t.Scale && c.T.Nanos == t.Nanos && c.T.Coarse == t.Coarse
	}
	if !g.useInt || !same(kc, g.keyT) {
		return false
	}
	for i, r := range g.resid {
		if !same(g.rows.Cols[1+i], r.t) || !same(outer[r.ref].Decoded(), r.t) {
			return false
		}
	}
	return true
}

// existsInts answers the EXISTS of each row from int64 keys and
// residuals (intResiduals): a row exists when a built row has its key and
// meets every residual comparison.
func (g *groupedExists) existsInts(kc *Col, outer []*Col, out []bool) {
	ocols := make([]*Col, len(g.resid))
	for i, r := range g.resid {
		ocols[i] = outer[r.ref].Decoded()
	}
	t := g.table
	for i := range out {
		if kc.IsNull(i) {
			continue
		}
		k := kc.I[i]
	rows:
		for j := range t.IntRows(k) {
			for q, res := range g.resid {
				in, oc := g.rows.Cols[1+q], ocols[q]
				if in.IsNull(int(j)) || oc.IsNull(i) {
					continue rows // a comparison with NULL holds for no row
				}
				if !holds(res.op, cmp.Compare(in.I[j], oc.I[i])) {
					continue rows
				}
			}
			out[i] = true
			break
		}
	}
}
