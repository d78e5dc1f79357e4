package plan

import (
	"errors"
	"fmt"
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
	"sync"

	"github.com/xwb1989/sqlparser"
)

// Correlated subqueries: a scalar subquery, EXISTS or IN (subquery) that
// names columns of the query around it. The subquery is planned and run
// once per distinct combination of the outer values it names (and
// memoized), with those values bound as constants, so that every form is
// exact (any correlation predicate, aggregates, LIMIT, nested levels) and
// each run is pruned like an uncorrelated query with constants. The
// common forms run once instead: an aggregate correlated by equalities is
// grouped by their keys (groupedCorr), an EXISTS correlated by one
// equality (plus comparisons) is a hash semi-join (groupedExists).
//
// How the binder sees the outer values: the subquery is planned under a
// correlation scope, a scope without relations whose outer is the query's
// scope and which holds a corrFrame. A name the subquery cannot resolve
// itself reaches the correlation scope, resolves in the outer query, and
// is captured: it binds as a constant of the outer column's type, NULL
// while probing (planning once to learn the result type and the outer
// columns), the current outer row's value while running.

// errCorrelated marks a name of an enclosing query met where no
// correlation scope can capture it; the binder of the subquery expression
// catches it and plans the subquery as correlated.
var errCorrelated = fmt.Errorf("correlated subquery: %w", ErrUnsupported)

// corrFrame holds the outer columns a correlated subquery names and, while
// it runs, their values for one outer row.
type corrFrame struct {
	refs  []*ScopeCol
	names []*sqlparser.ColName // how each ref was first named (bound again in the outer scope)
	vals  []any                // nil while probing: every ref is NULL
	fixed bool                 // refs are known: capturing another is a bug
}

// capture returns the stand-in column of outer column c.
func (f *corrFrame) capture(c *ScopeCol, n *sqlparser.ColName) (*ScopeCol, error) {
	for i, r := range f.refs {
		if sameOuterCol(r, c) {
			return &ScopeCol{Name: c.Name, T: c.T, corr: f, corrIdx: i}, nil
		}
	}
	if f.fixed {
		return nil, errorf("internal error: correlated column %q was not seen while planning", c.Name)
	}
	f.refs = append(f.refs, c)
	f.names = append(f.names, n)
	return &ScopeCol{Name: c.Name, T: c.T, corr: f, corrIdx: len(f.refs) - 1}, nil
}

// sameOuterCol: r and c are one column. A column captured further out
// (a subquery two levels in naming the outermost query) is a new
// stand-in each time it is resolved: the same frame's slot is the same
// column.
func sameOuterCol(r, c *ScopeCol) bool {
	return r == c || r.corr != nil && r.corr == c.corr && r.corrIdx == c.corrIdx
}

// constant is what a captured column binds to.
func (f *corrFrame) constant(c *ScopeCol) Expr {
	var v any
	if c.corrIdx < len(f.vals) {
		v = f.vals[c.corrIdx]
	}
	k := &ConstExpr{T: c.T, V: v}
	k.setText(c.Name)
	return k
}

// corrKind is the form of a correlated subquery expression.
type corrKind uint8

const (
	corrScalar corrKind = iota
	corrExists
	corrIn
)

// corrExpr is a correlated subquery expression, evaluated per batch: the
// rows are grouped by their outer values, and each group's result comes
// from the memo or from running the subquery with those values.
type corrExpr struct {
	named
	p     *Planner
	sc    *Scope // the scope the subquery is nested in
	kind  corrKind
	node  sqlparser.Expr // the Subquery or ExistsExpr; for IN, the right side
	not   bool           // NOT IN
	refs  []*ScopeCol    // the outer columns the subquery names
	outer []Expr         // those columns bound in the outer query
	left  Expr           // IN: the left operand (in the outer query)
	t     Type

	mu   sync.Mutex
	memo map[string]Expr // by the outer values: the subquery's result (for IN, a test of slot 0)
	// grouped, when set, answers every outer value from one grouped run
	// of the subquery instead of a run per value; existsG does so for an
	// EXISTS (existsgroup.go).
	grouped *groupedCorr
	existsG *groupedExists
}

func (e *corrExpr) Type() Type { return e.t }

// bindCorrelated binds n, an expression holding a subquery, as a
// correlated subquery after binding it plainly failed on a name of this
// scope. A name of a scope further out is left to that scope's binder
// (errCorrelated again).
func (p *Planner) bindCorrelated(kind corrKind, n sqlparser.Expr, left sqlparser.Expr, not bool, sc *Scope, agg *aggCtx) (Expr, error) {
	e := &corrExpr{p: p, sc: sc, kind: kind, node: n, not: not, t: Type{Kind: KBool}, memo: map[string]Expr{}}
	if left != nil {
		l, err := p.BindExpr(left, sc, agg)
		if err != nil {
			return nil, err
		}
		e.left = l
	}
	// Probe: plan once with the outer values NULL, for the result type
	// and the outer columns named.
	frame := &corrFrame{}
	var stmt sqlparser.SelectStatement
	switch x := n.(type) {
	case *sqlparser.Subquery:
		stmt = x.Select
	case *sqlparser.ExistsExpr:
		stmt = x.Subquery.Select
	}
	sp, err := p.PlanSelect(stmt, &Scope{outer: sc, corr: frame})
	if err != nil {
		return nil, err
	}
	sp.Root.Close()
	switch kind {
	case corrScalar:
		if len(sp.Cols) != 1 {
			return nil, errorf("a scalar subquery must return one column, not %d", len(sp.Cols))
		}
		e.t = sp.Cols[0].Type
	case corrIn:
		if len(sp.Cols) != 1 {
			return nil, errorf("the subquery of IN returns %d columns, not 1", len(sp.Cols))
		}
	}
	frame.fixed = true
	e.refs = frame.refs
	if !NoGroupedCorrelation && len(frame.refs) > 0 {
		ts := make([]Type, len(frame.refs))
		for i, r := range frame.refs {
			ts[i] = r.T
		}
		switch kind {
		case corrScalar:
			e.grouped = groupedCorrelation(n.(*sqlparser.Subquery), frame.names, ts, e.t)
		case corrExists:
			e.existsG = groupedExistsOf(n.(*sqlparser.ExistsExpr), frame.names, ts)
		}
	}
	for _, name := range frame.names {
		o, err := p.BindExpr(name, sc, agg)
		if err != nil {
			return nil, err
		}
		e.outer = append(e.outer, o)
	}
	e.setNode(n)
	return e, nil
}

// appendOuterKey appends to a key of outer values the value v (see
// exec.AppendOuterKey, which a lateral join keys its runs by).
func appendOuterKey(buf []byte, v any) []byte { return kernels.AppendOuterKey(buf, v) }

// isCorrelated reports an error that bindCorrelated can resolve.
func isCorrelated(err error) bool { return errors.Is(err, errCorrelated) }

func (e *corrExpr) Eval(b *Batch) (*Col, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	outer := make([]*Col, len(e.outer))
	for i, o := range e.outer {
		c, err := o.Eval(b)
		if err != nil {
			return nil, err
		}
		outer[i] = c
	}
	if e.existsG != nil {
		out, err := e.existsG.evalRows(e, outer, b.N)
		if !errors.Is(err, errGroupedFallback) {
			return out, err
		}
		e.existsG = nil // keys of types that do not unify: run per value
	}
	if e.grouped != nil && e.left == nil && e.kind == corrScalar {
		out, ok, err := e.grouped.evalBatch(e, outer, b.N)
		if errors.Is(err, errGroupedFallback) {
			e.grouped = nil
		} else if err != nil || ok {
			return out, err
		}
	}
	var left *Col
	if e.left != nil {
		c, err := e.left.Eval(b)
		if err != nil {
			return nil, err
		}
		left = c
	}
	// Group the rows by their outer values, in order of first appearance.
	var keys []string
	groups := map[string][]int32{}
	var buf []byte
	for i := 0; i < b.N; i++ {
		buf = buf[:0]
		for _, c := range outer {
			buf = appendOuterKey(buf, c.Get(i))
		}
		k := string(buf)
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], int32(i))
	}
	results := make([]any, b.N)
	for _, k := range keys {
		rows := groups[k]
		test, ok := e.memo[k]
		if !ok {
			vals := make([]any, len(outer))
			for j, c := range outer {
				vals[j] = c.Get(int(rows[0]))
			}
			var err error
			if e.grouped != nil {
				var v any
				v, err = e.grouped.value(e, vals)
				if errors.Is(err, errGroupedFallback) {
					e.grouped = nil // keys of types that do not unify: run per value
				} else if err != nil {
					return nil, err
				}
				test = &ConstExpr{T: e.t, V: v}
			}
			if e.grouped == nil {
				if test, err = e.instantiate(vals); err != nil {
					return nil, err
				}
			}
			e.memo[k] = test
		}
		in := &Batch{N: len(rows)}
		if left != nil {
			in.Cols = []*Col{left.Take(rows)}
		}
		res, err := test.Eval(in)
		if err != nil {
			return nil, err
		}
		for j, r := range rows {
			v := res.Get(j)
			if v != nil && (res.T.Kind != e.t.Kind || res.T.Scale != e.t.Scale) {
				if v, err = CastScalar(v, res.T, e.t); err != nil {
					return nil, AsError(err)
				}
			}
			results[r] = v
		}
	}
	out := NewBuilder(e.t, b.N)
	for _, v := range results {
		out.Add(v)
	}
	return out.C, nil
}

// instantiate plans and runs the subquery for one set of outer values: a
// constant, or for IN a test of the value in slot 0 of its input.
//
// It plans with a planner of its own: the statement's planner has finished,
// and other correlated subqueries of the statement may run at the same
// time. The tables it opens are released once the subquery has run.
func (e *corrExpr) instantiate(vals []any) (Expr, error) {
	p := e.p.Child(e.p.Src)
	defer p.ReleaseAll()
	sc := &Scope{outer: e.sc, corr: &corrFrame{refs: e.refs, vals: vals, fixed: true}}
	switch e.kind {
	case corrIn:
		return p.bindIn(&ColExpr{S: &Slot{}, T: e.left.Type()}, e.node, e.not, sc, nil)
	case corrExists:
		x := e.node.(*sqlparser.ExistsExpr)
		rows, err := p.runSubquery(x.Subquery.Select, sc, 1)
		if err != nil {
			return nil, err
		}
		return &ConstExpr{T: Type{Kind: KBool}, V: rows.N > 0}, nil
	}
	return p.scalarSubquery(e.node.(*sqlparser.Subquery), sc)
}

// NoGroupedCorrelation turns the grouped form off (tests compare the two).
var NoGroupedCorrelation bool

// errGroupedFallback: the grouped form cannot key the outer values; the
// subquery runs per value instead.
var errGroupedFallback = errors.New("grouped correlation does not apply")

// groupedCorr runs a correlated aggregate once for every outer value:
// (SELECT agg FROM s WHERE s.k = outer.c AND rest) is, for each value of
// outer.c, the row of SELECT k, agg FROM s WHERE rest GROUP BY k with
// that key, or the aggregate over no rows (count 0, others NULL) when
// there is none or the outer value is NULL. Several equalities
// (s.k1 = outer.c1 AND s.k2 = outer.c2, TPC-H Q20) group by every key.
type groupedCorr struct {
	grouped, empty *sqlparser.Select
	// restrictions restrict grouped to the keys the outer query will
	// look up (reduce.go).
	restrictions []keyRestriction
	outerTs      []Type
	resT         Type

	built bool
	res   *Batch // the grouped rows: keys, then the result
	keyTs []Type
	m     map[string]any // results by encoded keys (index)
	none  any
	// table and resCol answer a batch of keys at a time (evalBatch).
	table  *rowTable
	resCol *Col
}

// groupedCorrelation returns the grouped form of a scalar subquery that is
// an aggregate without GROUP BY whose only correlations are equalities
// inner = outer, one for each outer reference (named once each, as
// names), or nil.
func groupedCorrelation(sub *sqlparser.Subquery, names []*sqlparser.ColName, outerTs []Type, resT Type) *groupedCorr {
	sel, ok := sub.Select.(*sqlparser.Select)
	if !ok || sel.Where == nil || len(sel.GroupBy) > 0 || sel.Having != nil || sel.Limit != nil || sel.Distinct != "" ||
		len(sel.SelectExprs) != 1 || sel.Lock != "" {
		return nil
	}
	item, ok := sel.SelectExprs[0].(*sqlparser.AliasedExpr)
	if !ok || !ContainsAggregate(item.Expr) || ContainsSubquery(item.Expr) {
		return nil
	}
	refs := outerNamesOf(names)
	for i := range refs {
		if refs.count(sel, i) != 1 {
			return nil
		}
	}
	if refs.count(sel.From, -1) > 0 || refs.count(sel.SelectExprs, -1) > 0 {
		return nil
	}
	inners := make([]sqlparser.Expr, len(refs))
	var rest []sqlparser.Expr
	for _, c := range SplitAnd(sel.Where.Expr) {
		cmp, ok := c.(*sqlparser.ComparisonExpr)
		if ok && cmp.Operator == sqlparser.EqualStr {
			if r := refs.ref(cmp.Right); r >= 0 && inners[r] == nil && refs.count(cmp.Left, -1) == 0 {
				inners[r] = cmp.Left
				continue
			}
			if r := refs.ref(cmp.Left); r >= 0 && inners[r] == nil && refs.count(cmp.Right, -1) == 0 {
				inners[r] = cmp.Right
				continue
			}
		}
		rest = append(rest, c)
	}
	for _, inner := range inners {
		if inner == nil || ContainsAggregate(inner) || ContainsSubquery(inner) {
			return nil
		}
	}
	var where *sqlparser.Where
	if len(rest) > 0 {
		w := rest[0]
		for _, r := range rest[1:] {
			w = &sqlparser.AndExpr{Left: w, Right: r}
		}
		where = &sqlparser.Where{Type: sqlparser.WhereStr, Expr: w}
	}
	var items sqlparser.SelectExprs
	var groupBy sqlparser.GroupBy
	for _, inner := range inners {
		items = append(items, &sqlparser.AliasedExpr{Expr: inner})
		groupBy = append(groupBy, inner)
	}
	grouped := &sqlparser.Select{
		SelectExprs: append(items, &sqlparser.AliasedExpr{Expr: item.Expr}),
		From:        sel.From,
		Where:       where,
		GroupBy:     groupBy,
	}
	empty := &sqlparser.Select{
		SelectExprs: sqlparser.SelectExprs{&sqlparser.AliasedExpr{Expr: item.Expr}},
		From:        sel.From,
		Where:       &sqlparser.Where{Type: sqlparser.WhereStr, Expr: sqlparser.BoolVal(false)},
	}
	return &groupedCorr{grouped: grouped, empty: empty, outerTs: outerTs, resT: resT}
}

// outerNames are a correlated subquery's outer references as it spells
// them (frame.names, as text), to find them in its tree.
type outerNames []string

func outerNamesOf(names []*sqlparser.ColName) outerNames {
	out := make(outerNames, len(names))
	for i, n := range names {
		out[i] = sqlparser.String(n)
	}
	return out
}

// ref is the index of the reference e is, or -1.
func (o outerNames) ref(e sqlparser.Expr) int {
	if c, ok := e.(*sqlparser.ColName); ok {
		s := sqlparser.String(c)
		for i, t := range o {
			if t == s {
				return i
			}
		}
	}
	return -1
}

// count counts the mentions in n of reference ref (of any when ref < 0).
func (o outerNames) count(n sqlparser.SQLNode, ref int) int {
	k := 0
	sqlparser.Walk(func(x sqlparser.SQLNode) (bool, error) {
		if c, ok := x.(*sqlparser.ColName); ok {
			if r := o.ref(c); r >= 0 && (ref < 0 || r == ref) {
				k++
			}
		}
		return true, nil
	}, n)
	return k
}

func SplitAnd(e sqlparser.Expr) []sqlparser.Expr {
	switch x := e.(type) {
	case *sqlparser.AndExpr:
		return append(SplitAnd(x.Left), SplitAnd(x.Right)...)
	case *sqlparser.ParenExpr:
		if _, ok := x.Expr.(*sqlparser.AndExpr); ok {
			return SplitAnd(x.Expr)
		}
	}
	return []sqlparser.Expr{e}
}

func ContainsSubquery(n sqlparser.SQLNode) bool {
	found := false
	sqlparser.Walk(func(x sqlparser.SQLNode) (bool, error) {
		if _, ok := x.(*sqlparser.Subquery); ok {
			found = true
		}
		return !found, nil
	}, n)
	return found
}

// value is the subquery's result for the outer values vals (built on
// first use, with a planner of its own).
func (g *groupedCorr) value(e *corrExpr, vals []any) (any, error) {
	if err := g.build(e); err != nil {
		return nil, err
	}
	if err := g.index(); err != nil {
		return nil, err
	}
	var key []byte
	for k, v := range vals {
		if v == nil {
			return g.none, nil
		}
		var err error
		if key, err = g.appendKey(key, k, v, g.outerTs[k]); err != nil {
			return nil, err
		}
	}
	if r, ok := g.m[string(key)]; ok {
		return r, nil
	}
	return g.none, nil
}

// build runs the grouped subquery and the one over no rows, once.
func (g *groupedCorr) build(e *corrExpr) error {
	if g.built {
		return nil
	}
	nk := len(g.outerTs)
	p := e.p.Child(e.p.Src)
	defer p.ReleaseAll()
	b, err := runRestricted(p, g.grouped, g.restrictions, e.sc)
	if err != nil {
		return err
	}
	nb, err := p.runSubquery(g.empty, e.sc, -1)
	if err != nil {
		return err
	}
	if nb.N == 1 {
		g.none = nb.Cols[0].Get(0)
	}
	g.keyTs = make([]Type, nk)
	for k := range nk {
		if g.keyTs[k], err = UnifyTypes(WithoutField(b.Cols[k].T), WithoutField(g.outerTs[k])); err != nil {
			return errGroupedFallback
		}
	}
	g.res = b
	g.built = true
	return nil
}

// index keys the built rows' results by their encoded keys, once.
func (g *groupedCorr) index() error {
	if g.m != nil {
		return nil
	}
	b, nk := g.res, len(g.outerTs)
	g.m = make(map[string]any, b.N)
	res := b.Cols[nk]
rows:
	for i := 0; i < b.N; i++ {
		var key []byte
		for k := range nk {
			v := b.Cols[k].Get(i)
			if v == nil {
				continue rows // never equal to an outer value
			}
			var err error
			if key, err = g.appendKey(key, k, v, b.Cols[k].T); err != nil {
				return err
			}
		}
		r := res.Get(i)
		if r != nil && (res.T.Kind != g.resT.Kind || res.T.Scale != g.resT.Scale) {
			var err error
			if r, err = CastScalar(r, res.T, g.resT); err != nil {
				return AsError(err)
			}
		}
		g.m[string(key)] = r
	}
	return nil
}

// evalBatch answers the subquery for every row of a batch whose outer
// references are columns of the inner keys' types (integer-like or
// strings): a lookup in a hash table of the built keys, the results taken
// as a column. ok is false when the shape is another.
func (g *groupedCorr) evalBatch(e *corrExpr, outer []*Col, n int) (*Col, bool, error) {
	if err := g.build(e); err != nil {
		return nil, true, err
	}
	nk := len(g.outerTs)
	if g.table == nil {
		keys := make([]*Col, nk)
		for k := range keys {
			keys[k] = g.res.Cols[k].Decoded()
			if !hashableAs(keys[k], g.keyTs[k]) {
				return nil, false, nil
			}
		}
		res := g.res.Cols[nk]
		if res.T.Kind != g.resT.Kind || res.T.Scale != g.resT.Scale || res.T.Prec != g.resT.Prec {
			c, err := CastCol(res, g.resT)
			if err != nil {
				return nil, false, nil
			}
			res = c
		}
		g.resCol = res.Decoded()
		if nk == 1 && Storage(g.keyTs[0]) == stInt {
			g.table = kernels.BuildInts(keys[0], g.res.N)
		} else {
			g.table = kernels.BuildKeys(keys, g.res.N)
		}
	}
	cols := make([]*Col, nk)
	for k, c := range outer {
		if cols[k] = c.Decoded(); !hashableAs(cols[k], g.keyTs[k]) {
			return nil, false, nil
		}
	}
	var noneI int64
	switch v := g.none.(type) {
	case nil:
	case int64:
		if Storage(g.resT) != stInt {
			return nil, false, nil
		}
		noneI = v
	default:
		return nil, false, nil
	}
	idx := g.lookup(cols, n)
	if g.res.N == 0 {
		if g.none != nil {
			return ConstCol(g.resT, g.none, n), true, nil
		}
		return NullCol(g.resT, n), true, nil
	}
	safe := make([]int32, n)
	for i, j := range idx {
		safe[i] = max(j, 0)
	}
	out := g.resCol.Take(safe)
	for i, j := range idx {
		switch {
		case j >= 0:
		case g.none == nil:
			out.SetNull(i)
		default:
			out.I[i] = noneI
			if out.Null != nil {
				out.Null[i] = false
			}
		}
	}
	return out, true, nil
}

// lookup returns, for each of n outer rows, the built row with its keys,
// or -1.
func (g *groupedCorr) lookup(cols []*Col, n int) []int32 {
	idx := make([]int32, n)
	t := g.table
	var buf []byte
	for i := range idx {
		idx[i] = -1
		if t.IntKeyed() {
			if !cols[0].IsNull(i) {
				idx[i] = t.FindInt(cols[0].I[i])
			}
			continue
		}
		var ok bool
		if buf, ok = kernels.JoinKey(buf, cols, i); ok {
			idx[i] = t.FindKey(buf)
		}
	}
	return idx
}

// hashableAs reports whether c's values, as stored, are those of type t
// (so that equal keys have equal int64s or bytes): the same kind and
// unit, integer-like or strings.
func hashableAs(c *Col, t Type) bool {
	switch Storage(t) {
	case stInt:
		if c.I == nil {
			return false
		}
	case stBytes:
		if c.Off == nil {
			return false
		}
	default:
		return false
	}
	return c.T.Kind == t.Kind && c.T.Scale == t.Scale && c.T.Nanos == t.Nanos && c.T.Coarse == t.Coarse
}

// appendKey appends key k's value v (of type t) in the keys' common type.
func (g *groupedCorr) appendKey(buf []byte, k int, v any, t Type) ([]byte, error) {
	c, err := CastScalar(v, WithoutField(t), g.keyTs[k])
	if err != nil {
		return nil, AsError(err)
	}
	return appendOuterKey(buf, c), nil
}
