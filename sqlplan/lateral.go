package sqlplan

import (
	"context"

	"github.com/xwb1989/sqlparser"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// Lateral derived tables: a subquery in FROM that names columns of the
// FROM items before it, with or without the word LATERAL; table functions
// over such columns (FROM t, unnest(t.list) u(x), FROM t, range(t.n))
// are rewritten into one. Planning the subquery on its own fails on those
// names; it is then planned like a correlated subquery (correlated.go):
// probed once with the outer values NULL, for its columns and the outer
// columns it names, and run for each distinct combination of those values
// among a batch of left rows. Each left row pairs with the rows of its
// run; ON and LEFT JOIN work as for other joins.

// lateralSpec is what a lateral relation runs.
type lateralSpec struct {
	stmt  sqlparser.SelectStatement
	sc    *scope      // the scope of the FROM items before it
	refs  []*scopeCol // the outer columns the subquery names
	outer []expr      // those columns, bound in sc
	types []Type      // the relation's column types
}

// lateralRelation plans sub, named alias, as a lateral derived table over
// the steps before it.
func (p *planner) lateralRelation(sub *sqlparser.Subquery, alias string, before []joinStep, outer *scope) (*relation, error) {
	left := &scope{outer: outer}
	for _, st := range before {
		left.rels = append(left.rels, st.rel)
	}
	frame := &corrFrame{}
	sp, err := p.planSelect(sub.Select, &scope{outer: left, corr: frame})
	if err != nil {
		return nil, err
	}
	sp.root.Close()
	if len(frame.refs) == 0 {
		return nil, errorf("not a lateral subquery")
	}
	frame.fixed = true
	spec := &lateralSpec{stmt: sub.Select, sc: left, refs: frame.refs}
	for _, name := range frame.names {
		o, err := p.bindExpr(name, left, nil)
		if err != nil {
			return nil, err
		}
		spec.outer = append(spec.outer, o)
	}
	for _, c := range sp.cols {
		spec.types = append(spec.types, c.Type)
	}
	if alias == "" {
		alias = "subquery"
	}
	return derivedRelation(alias, sp.cols, &relation{lateral: spec})
}

// lateralNode joins each left batch with the rows of the lateral
// subquery for its rows' outer values: their runs' rows are gathered into
// one right batch, and the pairs go through the join's condition and
// outer-join handling.
type lateralNode struct {
	p    *planner
	spec *lateralSpec
	join *kernels.HashJoin // left input, layout, condition, LEFT; right unused
}

func (n *lateralNode) Next(ctx context.Context) (*Batch, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := n.join.Left.Next(ctx)
		if err != nil {
			return nil, err
		}
		li, ri, err := n.pairs(b)
		if err != nil {
			return nil, err
		}
		out, err := n.join.Finish(b, li, ri)
		if err != nil {
			return nil, err
		}
		if out.N > 0 {
			return out, nil
		}
	}
}

// pairs runs the subquery once per distinct outer values in b, gathers
// the rows into the join's right batch, and pairs each left row with the
// rows of its run.
func (n *lateralNode) pairs(b *Batch) (li, ri []int32, err error) {
	outer := make([]*Col, len(n.spec.outer))
	for i, o := range n.spec.outer {
		if outer[i], err = o.Eval(b); err != nil {
			return nil, nil, err
		}
	}
	right := &Batch{Cols: make([]*Col, len(n.spec.types))}
	for k, t := range n.spec.types {
		right.Cols[k] = newBuilder(t, 0).C
	}
	type span struct{ from, to int32 }
	runs := map[string]span{}
	var buf []byte
	vals := make([]any, len(outer))
	for i := 0; i < b.N; i++ {
		buf = buf[:0]
		for j, c := range outer {
			vals[j] = c.Get(i)
			buf = appendOuterKey(buf, vals[j])
		}
		sp, ok := runs[string(buf)]
		if !ok {
			rows, err := n.run(vals)
			if err != nil {
				return nil, nil, err
			}
			sp = span{int32(right.N), int32(right.N + rows.N)}
			for k := range right.Cols {
				appendCol(right.Cols[k], rows.Cols[k])
			}
			right.N += rows.N
			runs[string(buf)] = sp
		}
		for r := sp.from; r < sp.to; r++ {
			li, ri = append(li, int32(i)), append(ri, r)
		}
	}
	n.join.SetRight(right)
	return li, ri, nil
}

// run plans and runs the subquery for one set of outer values, with a
// planner of its own (see corrExpr.instantiate), and returns its rows in
// the relation's column types.
func (n *lateralNode) run(vals []any) (*Batch, error) {
	p := n.p.child(n.p.src)
	defer p.releaseAll()
	sc := &scope{outer: n.spec.sc, corr: &corrFrame{refs: n.spec.refs, vals: vals, fixed: true}}
	rows, err := p.runSubquery(n.spec.stmt, sc, -1)
	if err != nil {
		return nil, err
	}
	if len(rows.Cols) != len(n.spec.types) {
		return nil, errorf("internal error: the lateral subquery returned %d columns, planned %d", len(rows.Cols), len(n.spec.types))
	}
	for k, t := range n.spec.types {
		if c := rows.Cols[k]; c.T.Kind != t.Kind || c.T.Scale != t.Scale {
			if rows.Cols[k], err = castCol(c, t); err != nil {
				return nil, err
			}
		}
	}
	return rows, nil
}

func (n *lateralNode) Close() { n.join.Left.Close() }

func (n *lateralNode) Explain(x *explainer, depth int) {
	kind := "INNER"
	if n.join.LeftOuter {
		kind = "LEFT"
	}
	x.Line(depth, "LATERAL JOIN %s (the subquery runs per distinct %s)", kind, exprList(n.spec.outer))
	if n.join.Cond != nil {
		x.Line(depth+1, "join condition: %s", n.join.Cond)
	}
	n.join.Left.Explain(x, depth+1)
}
