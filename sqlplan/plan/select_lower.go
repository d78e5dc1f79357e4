package plan

import (
	"github.com/carquet-go/carquet/scan"
	"github.com/xwb1989/sqlparser"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// Lowering: the exec operators of an optimized logical tree. Besides the
// one-to-one translation, this is where the physical choices are made:
// pipelines run on several threads (parallel), an aggregate without keys
// is answered from the footers, group keys read dictionary codes
// (useCodes), a count per group over a join becomes a group-count join.

// lower builds the operators of a SELECT's optimized tree.
func (p *Planner) lower(q *LQuery) (*SelectPlan, error) {
	root, err := p.lowerNode(q, q.Root)
	if err != nil {
		return nil, err
	}
	return &SelectPlan{Root: root, Cols: q.cols, Tree: q.Root}, nil
}

// lowerNode builds the operators of n and its inputs, the FROM and WHERE
// at once (lowerWhere).
func (p *Planner) lowerNode(q *LQuery, n LNode) (Node, error) {
	switch x := n.(type) {
	case *lFilter:
		if x == q.where {
			return p.lowerWhere(q)
		}
	case *lUnion:
		return p.lowerUnion(x)
	}
	in, err := p.lowerNode(q, n.Inputs()[0])
	if err != nil {
		return nil, err
	}
	switch x := n.(type) {
	case *lAggregate:
		return p.lowerAggregate(q, x, in), nil
	case *lFilter:
		return newFilter(in, andOf(x.conds)), nil
	case *lWindow:
		return newWindow(in, x.win.specs), nil
	case *lProject:
		return newProject(in, x.exprs), nil
	case *lUnnest:
		return &kernels.Unnest{In: in, Cols: x.cols, Elems: x.elems, Convert: fromGo}, nil
	case *lDistinct:
		return &kernels.Distinct{In: in}, nil
	case *lSort:
		return &kernels.Sort{In: in, Keys: x.keys, Limit: x.limit, Types: x.types, Cast: CastCol}, nil
	case *lLimit:
		if x.percent >= 0 {
			return &kernels.LimitPercent{In: in, Percent: x.percent, Offset: x.offset}, nil
		}
		return &kernels.Limit{In: in, Limit: x.limit, Offset: x.offset}, nil
	case *lKeep:
		return &kernels.Keep{In: in, N: x.n}, nil
	}
	in.Close()
	return nil, errorf("internal error: no operator for logical node %s", n.Explain())
}

// lowerUnion builds the parts' operators and combines them step by step,
// so that a UNION after UNION ALL removes the duplicates of all the rows
// so far.
func (p *Planner) lowerUnion(u *lUnion) (Node, error) {
	var root Node
	for i, part := range u.parts {
		pp := u.planner(i, p)
		sp, err := pp.lower(part)
		p.adopt(pp)
		if err != nil {
			if root != nil {
				root.Close()
			}
			return nil, err
		}
		if i == 0 {
			root = sp.Root
			continue
		}
		switch kind := u.kinds[i-1]; kind {
		case sqlparser.UnionAllStr:
			root = &kernels.Union{Ins: []Node{root, sp.Root}, Types: u.types, Cast: CastCol}
		case sqlparser.UnionStr, sqlparser.UnionDistinctStr:
			root = &kernels.Distinct{In: &kernels.Union{Ins: []Node{root, sp.Root}, Types: u.types, Cast: CastCol}}
		default: // intersect, except, intersect all, except all
			root = &kernels.SetOp{Left: root, Right: sp.Root, Op: kind, Types: u.types, Cast: CastCol}
		}
	}
	return root, nil
}

// lowerWhere builds the joins of the FROM and the WHERE left above them.
// A WHERE that is never true reads nothing. Without aggregation, the
// filters and joins run on every thread, in order.
func (p *Planner) lowerWhere(q *LQuery) (Node, error) {
	root, err := p.lowerJoins(q)
	if err != nil {
		return nil, err
	}
	residual := q.where.conds
	if neverTrue(residual) {
		// No row can pass: nothing below is read (nor its errors raised).
		root.Close()
		root = &kernels.Const{What: "NO ROWS (WHERE is never true)"}
	} else if len(residual) > 0 {
		root = residualFilter(root, residual, p.Set.Threads)
	}
	if q.agg == nil {
		if pn := parallel(root, p.Set.Threads, nil); pn != nil {
			root = pn
		}
	}
	return root, nil
}

// lowerJoins builds the FROM's relations and the joins between them,
// left-deep in the plan's order.
func (p *Planner) lowerJoins(q *LQuery) (Node, error) {
	rels, joins := q.chain()
	if len(rels) == 0 {
		return &kernels.Const{Batches: []*Batch{{N: 1}}, What: "ONE ROW"}, nil
	}
	var root Node
	for i, lr := range rels {
		n, err := p.lowerRel(q, lr, i, len(rels))
		if err != nil {
			return nil, err
		}
		if i == 0 {
			root = n
			continue
		}
		if root, err = p.lowerJoin(joins[i], rels[:i], root, n); err != nil {
			return nil, err
		}
	}
	return root, nil
}

// lowerRel builds the i-th of n relations: its scan (or its derived
// table's plan; a lateral subquery's is built by its join) and its own
// filter, which a join's build side runs on every thread.
func (p *Planner) lowerRel(q *LQuery, lr *lRel, i, n int) (Node, error) {
	st := lr.step
	r := st.rel
	var out Node
	switch {
	case r.lateral != nil:
		if st.full || i == 0 {
			return nil, unsupported("a lateral subquery under RIGHT or FULL JOIN")
		}
	case r.lq != nil:
		var err error
		if out, err = p.lowerDerived(r); err != nil {
			return nil, err
		}
	case r.Sub != nil:
		out = r.Sub.Root
	default:
		out = p.scanOf(r, q.agg != nil && n == 1 && orderFree(q.agg.aggs))
	}
	if len(r.residual) > 0 {
		out = newRelFilter(out, andOf(r.residual), r.offset, lr.filterOnly)
		if pn := parallel(out, p.Set.Threads, nil); pn != nil && i > 0 {
			out = pn
		}
	}
	return out, nil
}

// lowerJoin builds the join j of right (its relation built) to left, the
// rows of the relations before it.
func (p *Planner) lowerJoin(j *lJoin, before []*lRel, left, right Node) (Node, error) {
	st := j.right.step
	r := st.rel
	jn := newHashJoin(left, right, r.offset, r.outputTypes(), st.left)
	if r.lateral != nil {
		setJoinCond(jn, j.keys.cond)
		return p.lateralJoin(r.lateral, jn), nil
	}
	if st.full || st.positional {
		jn.RightOuter = true
		for _, prev := range before {
			jn.LeftTypes = append(jn.LeftTypes, prev.step.rel.outputTypes()...)
		}
	}
	if st.positional {
		jn.Keep = j.keep
		return &kernels.PositionalJoin{J: jn}, nil
	}
	var lkeys, rkeys []Expr
	for k := range j.keys.lkeys {
		l, rr, err := p.unify(j.keys.lkeys[k], j.keys.rkeys[k])
		if err != nil {
			return nil, err
		}
		lkeys, rkeys = append(lkeys, l), append(rkeys, rr)
	}
	setJoinKeys(jn, lkeys, rkeys)
	setJoinCond(jn, j.keys.cond)
	jn.Keep = j.keep
	if !st.asof {
		return jn, nil
	}
	l, rr, err := p.unify(j.keys.asofL, j.keys.asofR)
	if err != nil {
		return nil, err
	}
	return &kernels.AsofJoin{J: jn, LT: l, RT: rr, Op: asofOp(j.keys.asofOp), Text: j.keys.asofText}, nil
}

// lowerAggregate builds the aggregation over in. An aggregate of one
// unfiltered table without keys is answered from the footers when it can
// be (fromFooters); group keys of a scan read dictionary codes; a count
// per group of a join's build side is counted in the join
// (groupCountJoin); else a hash aggregate, parallel over its input when
// that is a pipeline.
func (p *Planner) lowerAggregate(q *LQuery, x *lAggregate, in Node) Node {
	agg := x.agg
	rels, _ := q.chain()
	if len(agg.keys) == 0 && len(rels) == 1 && len(q.where.conds) == 0 && !(len(agg.aggs) == 1 && agg.aggs[0].Fn == "count_star") {
		if b, what, ok := p.fromFooters(rels[0].step.rel, agg.aggs); ok {
			in.Close()
			return &kernels.Const{Batches: []*Batch{b}, What: what}
		}
	}
	if sn, ok := in.(*kernels.Scan); ok {
		useCodes(sn, agg.keys, agg.aggs)
	}
	if gj, ok := groupCountJoin(in, agg); ok {
		return gj
	}
	return newAggregate(in, agg, p.Set.Threads)
}

// scanOf builds the scan of a table relation. countOnly asks for the
// footer row count when nothing is filtered.
func (p *Planner) scanOf(r *Relation, unordered bool) Node {
	req := scan.Request{Columns: []string{}, Threads: p.Set.Threads, Unordered: unordered}
	types := make([]Type, 0, len(r.used))
	for _, c := range r.used {
		req.Columns = append(req.Columns, c.Name)
		types = append(types, c.T)
		if c.T.Kind == KEnum {
			// An ENUM column's text: each dictionary entry is looked up
			// once (enumFromVector), not each row.
			req.Codes = append(req.Codes, c.Name)
		}
	}
	if len(r.pushed) == 1 {
		req.Filter = r.pushed[0]
	} else if len(r.pushed) > 1 {
		req.Filter = scan.And{Terms: r.pushed}
	}
	if p.OnlyPath != "" && r.table.Path == p.OnlyPath {
		req.RowGroups = map[int][]int{p.OnlyFile: p.OnlyRowGroups}
	}
	if req.Filter == nil && len(r.used) == 0 && req.RowGroups == nil {
		// Only the row count matters (COUNT(*), or a side of a cross join).
		return &footerCountNode{rel: r}
	}
	if req.Columns == nil {
		// No column to return (COUNT(*) with a filter): the scan reads the
		// filter's columns only. A nil list would mean every column.
		req.Columns = []string{}
	}
	n := &kernels.Scan{Alias: r.Alias, Path: r.path, Table: r.table, Req: req, Types: types, Convert: fromVector, Origin: r}
	p.Scans = append(p.Scans, n)
	return n
}

// neverTrue reports whether a conjunct is a constant FALSE or NULL.
func neverTrue(conjuncts []Expr) bool {
	for _, c := range conjuncts {
		if k, ok := IsConst(c); ok && (k.V == nil || k.V == false) {
			return true
		}
	}
	return false
}
