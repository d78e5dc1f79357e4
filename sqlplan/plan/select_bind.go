package plan

import (
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/xwb1989/sqlparser"
)

// Binding a SELECT: names and types resolved against the FROM clause's
// scope, into a logical tree (logical.go). No operator is built here; the
// rules of select_optimize.go place the filters and lay out the columns.

// planCore plans one SELECT (no UNION): bind, optimize, lower.
func (p *Planner) planCore(sel *sqlparser.Select, outer *Scope) (*SelectPlan, error) {
	q, err := p.bindCore(sel, outer)
	if err != nil {
		return nil, err
	}
	if err := p.optimize(q); err != nil {
		return nil, err
	}
	if p.OnLogical != nil {
		p.OnLogical("optimize", q)
	}
	return p.lower(q)
}

// bindCore binds one SELECT (no UNION) into its logical tree.
func (p *Planner) bindCore(sel *sqlparser.Select, outer *Scope) (*LQuery, error) {
	// Binding switches p.win between the clauses that allow window
	// functions and those that do not; the enclosing query's comes back.
	savedWin := p.win
	defer func() { p.win = savedWin }()
	sel, err := p.unnestInExprs(sel) // unnestexpr.go
	if err != nil {
		return nil, err
	}
	q, err := p.bindSelect(sel, outer)
	if err != nil {
		return nil, err
	}
	if p.OnLogical != nil {
		p.OnLogical("bind", q)
	}
	return q, nil
}

// bindSelect binds a SELECT into its logical tree, clause by clause in the
// order their names resolve (and their errors show): FROM, WHERE, GROUP
// BY, the select list, HAVING and QUALIFY, ORDER BY, LIMIT, then the
// joins' ON and USING conditions.
func (p *Planner) bindSelect(sel *sqlparser.Select, outer *Scope) (*LQuery, error) {
	if sel.Lock != "" {
		return nil, unsupported("SELECT ... FOR UPDATE / LOCK IN SHARE MODE")
	}
	restricted := p.restrict[sel] // before anything replaces sel
	steps, sc, err := p.bindFrom(sel, outer)
	if err != nil {
		return nil, err
	}
	q := &LQuery{}

	// WHERE (no window functions: p.win is nil until the select list).
	p.win = nil
	sel = p.lateralAliases(sel, sc)
	where, err := p.bindWhere(sel, sc, restricted)
	if err != nil {
		return nil, err
	}
	agg, qualify, err := p.bindGroupBy(sel, sc)
	if err != nil {
		return nil, err
	}
	q.agg = agg

	// Select list (window functions allowed here and in ORDER BY).
	win := &winCtx{}
	p.win = win
	q.win = win
	outExprs, cols, unnests, err := p.bindSelectList(sel, sc, agg)
	if err != nil {
		return nil, err
	}
	q.cols = cols
	visible := len(outExprs)
	having, qual, err := p.bindHavingQualify(sel, qualify, sc, agg, win)
	if err != nil {
		return nil, err
	}
	keys, outExprs, err := p.bindOrderBy(sel, sc, agg, cols, outExprs)
	if err != nil {
		return nil, err
	}
	lim, off, pct, err := p.limitValues(sel.Limit)
	if err != nil {
		return nil, err
	}
	from, err := p.bindJoins(steps, sc, outer)
	if err != nil {
		return nil, err
	}

	// The tree, from the FROM up.
	q.where = &lFilter{in: from, conds: where, what: "WHERE"}
	var n LNode = q.where
	if agg != nil {
		n = &lAggregate{in: n, agg: agg}
		if having != nil {
			n = &lFilter{in: n, conds: []Expr{having}, what: "HAVING"}
		}
	}
	if len(win.specs) > 0 {
		n = &lWindow{in: n, win: win}
	}
	if qual != nil {
		n = &lFilter{in: n, conds: []Expr{qual}, what: "QUALIFY"}
	}
	q.proj = &lProject{in: n, exprs: outExprs}
	n = q.proj
	if len(unnests) > 0 {
		un := &lUnnest{in: n, cols: unnests}
		for _, c := range unnests {
			un.elems = append(un.elems, outExprs[c].Type())
		}
		n = un
	}
	if sel.Distinct != "" {
		n = &lDistinct{in: n}
	}
	if len(keys) > 0 {
		n = &lSort{in: n, keys: keys, limit: lim, types: exprTypes(outExprs)}
	}
	if l := newLimit(n, lim, off, pct); l != nil {
		n = l
	}
	if visible < len(outExprs) {
		n = &lKeep{in: n, n: visible}
	}
	q.Root = n
	return q, nil
}

// bindFrom plans the FROM clause's items into join steps, and makes the
// scope their columns are named in.
func (p *Planner) bindFrom(sel *sqlparser.Select, outer *Scope) ([]joinStep, *Scope, error) {
	savedRefs := p.fromRefs
	p.fromRefs = refsOf(sel)
	steps, err := p.fromClause(sel.From, outer)
	p.fromRefs = savedRefs
	if err != nil {
		return nil, nil, err
	}
	for i, st := range steps {
		for _, prev := range steps[:i] {
			if strings.EqualFold(prev.rel.Alias, st.rel.Alias) {
				return nil, nil, p.Src.Locate(errorf("table name %q is used twice in FROM (use an alias)", st.rel.Alias), st.rel.Alias)
			}
		}
	}
	sc := newScope(steps, outer)
	if err := p.expandColumns(sel, sc); err != nil {
		return nil, nil, err
	}
	return steps, sc, nil
}

// bindWhere binds WHERE, and the restrictions a caller adds to it, as
// conjuncts.
func (p *Planner) bindWhere(sel *sqlparser.Select, sc *Scope, restricted []keyRestriction) ([]Expr, error) {
	var where []Expr
	if sel.Where != nil {
		if ContainsAggregate(sel.Where.Expr) {
			return nil, errorf("aggregate functions are not allowed in WHERE (use HAVING)")
		}
		w, err := p.BindBool(factorDisjunctions(sel.Where.Expr), sc, nil)
		if err != nil {
			return nil, err
		}
		where = conjuncts(w)
	}
	if restricted != nil {
		rs, err := p.bindRestrictions(restricted, sc)
		if err != nil {
			return nil, err
		}
		where = append(where, rs...)
	}
	return where, nil
}

// bindGroupBy binds the GROUP BY keys and grouping sets, nil when the
// SELECT does not aggregate. It also takes the QUALIFY condition out of
// HAVING, where the rewrite layer put it.
func (p *Planner) bindGroupBy(sel *sqlparser.Select, sc *Scope) (*aggCtx, sqlparser.Expr, error) {
	// GROUP BY ALL: every select item without an aggregate.
	if len(sel.GroupBy) == 1 && isMarker(sel.GroupBy[0], parse.ByAllMarker) {
		var keys sqlparser.GroupBy
		for _, se := range sel.SelectExprs {
			if ae, ok := se.(*sqlparser.AliasedExpr); ok && !ContainsAggregate(ae.Expr) {
				keys = append(keys, ae.Expr)
			}
		}
		sel.GroupBy = keys
		if len(keys) == 0 {
			sel.GroupBy = nil
		}
	}
	sets, err := expandGroupingSets(sel)
	if err != nil {
		return nil, nil, err
	}
	// QUALIFY rides in HAVING (see rewrite): take it out.
	var qualify sqlparser.Expr
	if sel.Having != nil {
		var rest sqlparser.Expr
		rest, qualify = splitQualify(sel.Having.Expr)
		if rest == nil {
			sel.Having = nil
		} else {
			sel.Having.Expr = rest
		}
	}
	hasAgg := len(sel.GroupBy) > 0 || sel.Having != nil || ContainsAggregate(sel.SelectExprs) || ContainsAggregate(sel.OrderBy) || qualify != nil && ContainsAggregate(qualify)
	if !hasAgg {
		return nil, qualify, nil
	}
	agg := &aggCtx{inScope: sc, sets: sets}
	for _, g := range sel.GroupBy {
		ge := p.groupTarget(g, sel.SelectExprs, sc)
		if ContainsAggregate(ge) {
			return nil, nil, errorf("aggregate functions are not allowed in GROUP BY")
		}
		k, err := p.BindExpr(ge, sc, nil)
		if err != nil {
			return nil, nil, err
		}
		agg.keys = append(agg.keys, k)
		agg.keyTexts = append(agg.keyTexts, groupKeyText(ge))
		var kc *ScopeCol
		if c, ok := k.(*ColExpr); ok {
			kc = c.col
		}
		agg.keyCols = append(agg.keyCols, kc)
		agg.slots = append(agg.slots, &Slot{})
	}
	return agg, qualify, nil
}

// bindSelectList binds the select items into output expressions and
// columns; unnests lists the items that are unnest(list).
func (p *Planner) bindSelectList(sel *sqlparser.Select, sc *Scope, agg *aggCtx) (outExprs []Expr, cols []Column, unnests []int, err error) {
	for k, se := range sel.SelectExprs {
		if starMarker(se) != nil {
			continue // applied with the star before it
		}
		switch x := se.(type) {
		case *sqlparser.StarExpr:
			if agg != nil {
				return nil, nil, nil, errorf("SELECT * cannot be used with GROUP BY or aggregates")
			}
			// SELECT * EXCLUDE (names) / REPLACE (e AS name, ...).
			exclude, replace, err := starModifiers(sel.SelectExprs, k)
			if err != nil {
				return nil, nil, nil, err
			}
			es, cs, err := p.bindStar(x, sc, exclude, replace)
			if err != nil {
				return nil, nil, nil, err
			}
			outExprs, cols = append(outExprs, es...), append(cols, cs...)
		case *sqlparser.AliasedExpr:
			var e Expr
			if f, ok := isUnnest(x.Expr); ok {
				if agg != nil {
					return nil, nil, nil, unsupported("unnest with GROUP BY or aggregates (unnest in a subquery first)")
				}
				outs, err := p.bindUnnestItem(f, sc) // unneststruct.go: a struct gives several columns
				if err != nil {
					return nil, nil, nil, err
				}
				if err := p.unnestInside(x, outs); err != nil { // unnestexpr.go
					return nil, nil, nil, err
				}
				for _, o := range outs {
					if o.rows {
						unnests = append(unnests, len(outExprs))
					}
					if o.name == "" {
						o.name = itemName(x)
					}
					cols = append(cols, Column{Name: o.name, Type: o.e.Type(), Nullable: true})
					outExprs = append(outExprs, o.e)
				}
				continue
			}
			if e, err = p.BindExpr(x.Expr, sc, agg); err != nil {
				return nil, nil, nil, err
			}
			nullable := true
			if c, ok := e.(*ColExpr); ok && c.col != nil {
				nullable = colNullable(c.col)
			}
			if f, ok := x.Expr.(*sqlparser.FuncExpr); ok && f.Name.Lowered() == "count" {
				nullable = false
			}
			cols = append(cols, Column{Name: itemName(x), Type: e.Type(), Nullable: nullable})
			outExprs = append(outExprs, e)
		default:
			return nil, nil, nil, unsupported(sqlparser.String(se))
		}
	}
	return outExprs, cols, unnests, nil
}

// starModifiers reads the EXCLUDE and REPLACE markers that follow the
// star at items[k].
func starModifiers(items sqlparser.SelectExprs, k int) (exclude map[string]bool, replace map[string]sqlparser.Expr, err error) {
	for j := k + 1; j < len(items) && j <= k+2; j++ {
		f := starMarker(items[j])
		if f == nil {
			break
		}
		ex, re, err := starChanges(f)
		if err != nil {
			return nil, nil, err
		}
		if ex != nil {
			exclude = ex
		}
		if re != nil {
			replace = re
		}
	}
	return exclude, replace, nil
}

// bindStar binds SELECT * (or t.*) into a column per relation column,
// less those EXCLUDE names, with REPLACE's expressions in their places.
func (p *Planner) bindStar(x *sqlparser.StarExpr, sc *Scope, exclude map[string]bool, replace map[string]sqlparser.Expr) ([]Expr, []Column, error) {
	var outExprs []Expr
	var cols []Column
	rels := sc.from
	qualified := false
	if q := x.TableName.Name.String(); q != "" {
		r := sc.relByName(q)
		if r == nil {
			// s.* of a struct column s (structfields.go); no aggregates here.
			if outs, scols, ok, err := p.structStar(q, sc, nil); ok || err != nil {
				return outs, scols, err
			}
			return nil, nil, p.Src.Locate(errorf("no table %q in FROM%s", q, suggest(q, relNames(sc))), q)
		}
		rels, qualified = []*Relation{r}, true
	}
	for _, r := range rels {
		for _, c := range r.Cols {
			if strings.Contains(c.Name, ".") && r.table != nil || exclude[strings.ToLower(c.Name)] {
				continue
			}
			name := c.Name
			if !qualified && sc.hidden[c] {
				continue // a USING column, shown once
			}
			if s, ok := sc.shown[c]; ok && !qualified {
				c = s
			}
			if re, ok := replace[strings.ToLower(name)]; ok {
				e, err := p.BindExpr(re, sc, nil)
				if err != nil {
					return nil, nil, err
				}
				outExprs = append(outExprs, e)
				cols = append(cols, Column{Name: name, Type: e.Type(), Nullable: true})
				continue
			}
			var e Expr = &ColExpr{S: c.Slot, T: c.T, col: c}
			e.setText(name)
			if c.coalesce != nil && !qualified {
				var err error
				if e, err = p.usingCoalesce(c, name); err != nil {
					return nil, nil, err
				}
			}
			outExprs = append(outExprs, e)
			cols = append(cols, Column{Name: name, Type: c.T, Nullable: colNullable(c)})
		}
	}
	return outExprs, cols, nil
}

// bindHavingQualify binds HAVING (no window functions) and QUALIFY;
// select-item aliases that name no column stand for their items in both.
func (p *Planner) bindHavingQualify(sel *sqlparser.Select, qualify sqlparser.Expr, sc *Scope, agg *aggCtx, win *winCtx) (having, qual Expr, err error) {
	if sel.Having != nil {
		p.win = nil
		if having, err = p.BindBool(p.qualifyAliases(sel.Having.Expr, sel.SelectExprs, sc), sc, agg); err != nil {
			return nil, nil, err
		}
		p.win = win
	}
	if qualify != nil {
		if qual, err = p.BindBool(p.qualifyAliases(qualify, sel.SelectExprs, sc), sc, agg); err != nil {
			return nil, nil, err
		}
	}
	return having, qual, nil
}

// bindOrderBy binds ORDER BY into sort keys: output columns by position,
// alias or text, else hidden columns added after the visible ones (and
// returned with them).
func (p *Planner) bindOrderBy(sel *sqlparser.Select, sc *Scope, agg *aggCtx, cols []Column, outExprs []Expr) ([]sortKey, []Expr, error) {
	visible := len(outExprs)
	var keys []sortKey
	if len(sel.OrderBy) == 1 && isMarker(firstOf(orderItem(sel.OrderBy[0])), parse.ByAllMarker) {
		_, desc, nullsFirst := p.orderKey(sel.OrderBy[0])
		for i := 0; i < visible; i++ {
			keys = append(keys, sortKey{Col: i, Desc: desc, NullsFirst: nullsFirst, Text: cols[i].Name})
		}
		sel.OrderBy = nil
	}
	for _, o := range sel.OrderBy {
		item, desc, nullsFirst := p.orderKey(o)
		idx, err := p.outputIndex(item, cols, sel.SelectExprs)
		if err != nil {
			return nil, nil, err
		}
		if idx < 0 {
			e, err := p.BindExpr(item, sc, agg)
			if err != nil {
				return nil, nil, err
			}
			// Reuse a select item with the same text.
			for i := 0; i < visible; i++ {
				if outExprs[i].String() == e.String() {
					idx = i
				}
			}
			if idx < 0 {
				if sel.Distinct != "" {
					return nil, nil, errorf("for SELECT DISTINCT, ORDER BY expressions must appear in the select list: %s", sqlparser.String(item))
				}
				outExprs = append(outExprs, e)
				idx = len(outExprs) - 1
			}
		}
		keys = append(keys, sortKey{Col: idx, Desc: desc, NullsFirst: nullsFirst, Text: sqlparser.String(item)})
	}
	return keys, outExprs, nil
}

// bindJoins binds each join's ON and USING conditions (an ASOF join's
// into its keys and inequality) and chains the relations into the
// left-deep join tree, in FROM order.
func (p *Planner) bindJoins(steps []joinStep, sc *Scope, outer *Scope) (LNode, error) {
	rels := make([]*lRel, len(steps))
	joins := map[*lRel]*lJoin{}
	for i, st := range steps {
		rels[i] = &lRel{step: st}
		if i == 0 {
			continue
		}
		switch {
		case st.positional:
			if st.rel.lateral != nil {
				return nil, unsupported("a lateral subquery in a POSITIONAL JOIN")
			}
			// No conjunct is pushed below a POSITIONAL join: rows pair by
			// position.
			for _, s := range steps[:i+1] {
				s.rel.pinned = true
			}
		case st.asof:
			st.rel.pinned = true
		}
		on, err := p.bindJoinCondition(st, sc.Rels[:i+1], sc.Rels[:i], outer)
		if err != nil {
			return nil, err
		}
		j := &lJoin{on: on}
		if st.asof {
			if st.rel.lateral != nil {
				return nil, unsupported("a lateral subquery in an ASOF JOIN")
			}
			if err := p.asofKeys(st.rel, on, &j.keys); err != nil {
				return nil, err
			}
			j.on = nil // all in the keys and the inequality now
		}
		joins[rels[i]] = j
	}
	return joinChain(rels, joins), nil
}

// bindJoinCondition binds a join step's ON condition (over the relations
// up to it, visible) and its USING columns (each an equality of the
// column of the step's relation with that of the first relation before it
// that has it) as conjuncts.
func (p *Planner) bindJoinCondition(st joinStep, visible, before []*Relation, outer *Scope) ([]Expr, error) {
	var on []Expr
	if st.on != nil {
		sub := &Scope{Rels: visible, outer: outer}
		b, err := p.BindBool(st.on, sub, nil)
		if err != nil {
			return nil, err
		}
		on = conjuncts(b)
	}
	for _, u := range st.using {
		rc := findCol(st.rel, u)
		var lc *ScopeCol
		for _, r := range before {
			if c := findCol(r, u); c != nil {
				lc = c
				break
			}
		}
		if rc == nil || lc == nil {
			return nil, p.Src.Locate(errorf("column %q of USING is not in both sides of the join", u), u)
		}
		op := opEq
		if st.asof && u == st.using[len(st.using)-1] {
			op = opGe // ASOF JOIN ... USING (keys, t): left.t >= right.t
		}
		eq, err := p.compare(op, &ColExpr{S: lc.Slot, T: lc.T, col: lc}, &ColExpr{S: rc.Slot, T: rc.T, col: rc})
		if err != nil {
			return nil, err
		}
		on = append(on, eq)
	}
	return on, nil
}
