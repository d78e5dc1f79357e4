package sqlplan

import (
	"github.com/carquet-go/carquet/sqlplan/function"
	"maps"
	"regexp"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/xwb1989/sqlparser"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// planCore plans one SELECT (no UNION).
func (p *planner) planCore(sel *sqlparser.Select, outer *scope) (*selectPlan, error) {
	if sel.Lock != "" {
		return nil, unsupported("SELECT ... FOR UPDATE / LOCK IN SHARE MODE")
	}
	restricted := p.restrict[sel] // before anything replaces sel
	savedRefs := p.fromRefs
	p.fromRefs = refsOf(sel)
	steps, err := p.fromClause(sel.From, outer)
	p.fromRefs = savedRefs
	if err != nil {
		return nil, err
	}
	for i, st := range steps {
		for _, prev := range steps[:i] {
			if strings.EqualFold(prev.rel.alias, st.rel.alias) {
				return nil, p.src.Locate(errorf("table name %q is used twice in FROM (use an alias)", st.rel.alias), st.rel.alias)
			}
		}
	}
	sc := newScope(steps, outer)
	if err := p.expandColumns(sel, sc); err != nil {
		return nil, err
	}

	// WHERE (no window functions: p.win is nil until the select list).
	savedOuterWin := p.win
	p.win = nil
	defer func() { p.win = savedOuterWin }()
	sel = p.lateralAliases(sel, sc)
	var where []expr
	if sel.Where != nil {
		if containsAggregate(sel.Where.Expr) {
			return nil, errorf("aggregate functions are not allowed in WHERE (use HAVING)")
		}
		w, err := p.bindBool(factorDisjunctions(sel.Where.Expr), sc, nil)
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

	// GROUP BY ALL: every select item without an aggregate.
	if len(sel.GroupBy) == 1 && isMarker(sel.GroupBy[0], parse.ByAllMarker) {
		var keys sqlparser.GroupBy
		for _, se := range sel.SelectExprs {
			if ae, ok := se.(*sqlparser.AliasedExpr); ok && !containsAggregate(ae.Expr) {
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
		return nil, err
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
	// Aggregation.
	hasAgg := len(sel.GroupBy) > 0 || sel.Having != nil || containsAggregate(sel.SelectExprs) || containsAggregate(sel.OrderBy) || qualify != nil && containsAggregate(qualify)
	var agg *aggCtx
	if hasAgg {
		agg = &aggCtx{inScope: sc, sets: sets}
		for _, g := range sel.GroupBy {
			ge := p.groupTarget(g, sel.SelectExprs, sc)
			if containsAggregate(ge) {
				return nil, errorf("aggregate functions are not allowed in GROUP BY")
			}
			k, err := p.bindExpr(ge, sc, nil)
			if err != nil {
				return nil, err
			}
			agg.keys = append(agg.keys, k)
			agg.keyTexts = append(agg.keyTexts, groupKeyText(ge))
			var kc *scopeCol
			if c, ok := k.(*colExpr); ok {
				kc = c.col
			}
			agg.keyCols = append(agg.keyCols, kc)
			agg.slots = append(agg.slots, &slot{})
		}
	}

	// Select list (window functions allowed here and in ORDER BY).
	savedWin := p.win
	win := &winCtx{}
	p.win = win
	defer func() { p.win = savedWin }()
	var outExprs []expr
	var cols []Column
	var unnests []int // select items that are unnest(list)
	for k, se := range sel.SelectExprs {
		if starMarker(se) != nil {
			continue // applied with the star before it
		}
		// SELECT * EXCLUDE (names) / REPLACE (e AS name, ...).
		var exclude map[string]bool
		var replace map[string]sqlparser.Expr
		for j := k + 1; j < len(sel.SelectExprs) && j <= k+2; j++ {
			f := starMarker(sel.SelectExprs[j])
			if f == nil {
				break
			}
			ex, re, err := starChanges(f)
			if err != nil {
				return nil, err
			}
			if ex != nil {
				exclude = ex
			}
			if re != nil {
				replace = re
			}
		}
		switch x := se.(type) {
		case *sqlparser.StarExpr:
			if agg != nil {
				return nil, errorf("SELECT * cannot be used with GROUP BY or aggregates")
			}
			rels := sc.from
			qualified := false
			if q := x.TableName.Name.String(); q != "" {
				r := sc.relByName(q)
				if r == nil {
					return nil, p.src.Locate(errorf("no table %q in FROM%s", q, suggest(q, relNames(sc))), q)
				}
				rels, qualified = []*relation{r}, true
			}
			for _, r := range rels {
				for _, c := range r.cols {
					if strings.Contains(c.name, ".") && r.table != nil || exclude[strings.ToLower(c.name)] {
						continue
					}
					name := c.name
					if !qualified && sc.hidden[c] {
						continue // a USING column, shown once
					}
					if s, ok := sc.shown[c]; ok && !qualified {
						c = s
					}
					if re, ok := replace[strings.ToLower(name)]; ok {
						e, err := p.bindExpr(re, sc, agg)
						if err != nil {
							return nil, err
						}
						outExprs = append(outExprs, e)
						cols = append(cols, Column{Name: name, Type: e.Type(), Nullable: true})
						continue
					}
					var e expr = &colExpr{s: c.slot, t: c.t, col: c}
					e.setText(name)
					if c.coalesce != nil && !qualified {
						var err error
						if e, err = p.usingCoalesce(c, name); err != nil {
							return nil, err
						}
					}
					outExprs = append(outExprs, e)
					cols = append(cols, Column{Name: name, Type: c.t, Nullable: colNullable(c)})
				}
			}
		case *sqlparser.AliasedExpr:
			var e expr
			var err error
			if f, ok := isUnnest(x.Expr); ok {
				if agg != nil {
					return nil, unsupported("unnest with GROUP BY or aggregates (unnest in a subquery first)")
				}
				if e, err = p.bindUnnest(f, sc); err != nil {
					return nil, err
				}
				unnests = append(unnests, len(outExprs))
			} else if e, err = p.bindExpr(x.Expr, sc, agg); err != nil {
				return nil, err
			}
			name := itemName(x)
			nullable := true
			if c, ok := e.(*colExpr); ok && c.col != nil {
				nullable = colNullable(c.col)
			}
			if f, ok := x.Expr.(*sqlparser.FuncExpr); ok && f.Name.Lowered() == "count" {
				nullable = false
			}
			cols = append(cols, Column{Name: name, Type: e.Type(), Nullable: nullable})
			outExprs = append(outExprs, e)
		default:
			return nil, unsupported(sqlparser.String(se))
		}
	}
	visible := len(outExprs)

	var having expr
	if sel.Having != nil {
		p.win = nil
		// Select-item aliases that name no column stand for their items
		// (as in QUALIFY).
		if having, err = p.bindBool(p.qualifyAliases(sel.Having.Expr, sel.SelectExprs, sc), sc, agg); err != nil {
			return nil, err
		}
		p.win = win
	}
	var qual expr
	if qualify != nil {
		if qual, err = p.bindBool(p.qualifyAliases(qualify, sel.SelectExprs, sc), sc, agg); err != nil {
			return nil, err
		}
	}

	// ORDER BY: output columns by position or alias, else hidden columns.
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
			return nil, err
		}
		if idx < 0 {
			e, err := p.bindExpr(item, sc, agg)
			if err != nil {
				return nil, err
			}
			// Reuse a select item with the same text.
			for i := 0; i < visible; i++ {
				if outExprs[i].String() == e.String() {
					idx = i
				}
			}
			if idx < 0 {
				if sel.Distinct != "" {
					return nil, errorf("for SELECT DISTINCT, ORDER BY expressions must appear in the select list: %s", sqlparser.String(item))
				}
				outExprs = append(outExprs, e)
				idx = len(outExprs) - 1
			}
		}
		keys = append(keys, sortKey{Col: idx, Desc: desc, NullsFirst: nullsFirst, Text: sqlparser.String(item)})
	}
	lim, off, err := p.limitValues(sel.Limit)
	if err != nil {
		return nil, err
	}

	if len(steps) > 1 {
		where = append(where, impliedFilters(where)...)
	}
	steps = p.orderJoins(steps, where)

	// Joins: equality keys, conditions pushed to the right relation's scan,
	// and the rest.
	joins := make([]joinKeys, len(steps))
	for i := 1; i < len(steps); i++ {
		st := steps[i]
		switch {
		case st.positional:
			if st.rel.lateral != nil {
				return nil, unsupported("a lateral subquery in a POSITIONAL JOIN")
			}
			for _, s := range steps[:i+1] {
				s.rel.pinned = true
			}
		case st.asof:
			st.rel.pinned = true
		}
		var on []expr
		if st.on != nil {
			sub := &scope{rels: sc.rels[:i+1], outer: outer}
			b, err := p.bindBool(st.on, sub, nil)
			if err != nil {
				return nil, err
			}
			on = conjuncts(b)
		}
		for _, u := range st.using {
			rc := findCol(st.rel, u)
			var lc *scopeCol
			for _, r := range sc.rels[:i] {
				if c := findCol(r, u); c != nil {
					lc = c
					break
				}
			}
			if rc == nil || lc == nil {
				return nil, p.src.Locate(errorf("column %q of USING is not in both sides of the join", u), u)
			}
			op := opEq
			if st.asof && u == st.using[len(st.using)-1] {
				op = opGe // ASOF JOIN ... USING (keys, t): left.t >= right.t
			}
			eq, err := p.compare(op, &colExpr{s: lc.slot, t: lc.t, col: lc}, &colExpr{s: rc.slot, t: rc.t, col: rc})
			if err != nil {
				return nil, err
			}
			on = append(on, eq)
		}
		if st.asof {
			if st.rel.lateral != nil {
				return nil, unsupported("a lateral subquery in an ASOF JOIN")
			}
			if err := p.asofKeys(st.rel, on, &joins[i]); err != nil {
				return nil, err
			}
			continue
		}
		for _, c := range on {
			rs := relsOf(c)
			if eq, ok := c.(*cmpExpr); ok && eq.op == opEq && st.rel.lateral == nil {
				lr, rr := relsOf(eq.l), relsOf(eq.r)
				onlyRight := func(m map[*relation]bool) bool { return len(m) == 1 && m[st.rel] }
				onlyLeft := func(m map[*relation]bool) bool { return len(m) > 0 && !m[st.rel] }
				switch {
				case onlyLeft(lr) && onlyRight(rr):
					joins[i].lkeys = append(joins[i].lkeys, eq.l)
					joins[i].rkeys = append(joins[i].rkeys, eq.r)
					continue
				case onlyRight(lr) && onlyLeft(rr):
					joins[i].lkeys = append(joins[i].lkeys, eq.r)
					joins[i].rkeys = append(joins[i].rkeys, eq.l)
					continue
				}
			}
			// A condition on the right side alone filters it before the
			// join, but not under FULL JOIN, which keeps every right row.
			if len(rs) == 1 && rs[st.rel] && st.rel.table != nil && !st.full {
				if pred, ok := toPredicate(c); ok {
					st.rel.pushed = append(st.rel.pushed, pred)
					continue
				}
			}
			if len(rs) == 1 && rs[st.rel] && !st.full && st.rel.lateral == nil && !runsSubquery(c) {
				// The rest filters the right input before it is hashed
				// (TPC-H Q13's o_comment NOT LIKE under LEFT JOIN).
				st.rel.residual = append(st.rel.residual, c)
				continue
			}
			if len(rs) == 0 && !st.left && !st.full {
				where = append(where, c)
				continue
			}
			joins[i].cond = append(joins[i].cond, c)
		}
	}

	where = whereJoinKeys(steps, where, joins)

	// WHERE pushdown: single-table conjuncts the scan evaluates exactly;
	// the other single-relation conjuncts filter the relation before it is
	// joined (not a relation NULLs may fill, whose rows the WHERE sees
	// only after the join).
	var residual []expr
	for _, c := range where {
		rs := relsOf(c)
		if len(rs) == 1 {
			for r := range rs {
				if r.table != nil && !r.nullExtended && !r.pinned {
					if pred, ok := toPredicate(c); ok {
						r.pushed = append(r.pushed, pred)
						goto next
					}
				}
				if len(steps) > 1 && !r.nullExtended && !r.pinned && r.lateral == nil && ownRelation(steps, r) && !runsSubquery(c) {
					r.residual = append(r.residual, c)
					goto next
				}
			}
		}
		residual = append(residual, c)
	next:
	}

	// Mark the columns read, then lay out the batches.
	used := map[*scopeCol]bool{}
	for _, c := range residual {
		columnsOf(c, used)
	}
	for _, st := range steps {
		if l := st.rel.lateral; l != nil {
			for _, e := range l.outer {
				columnsOf(e, used)
			}
		}
	}
	for _, j := range joins {
		for _, e := range j.lkeys {
			columnsOf(e, used)
		}
		for _, e := range j.rkeys {
			columnsOf(e, used)
		}
		for _, e := range j.cond {
			columnsOf(e, used)
		}
		if j.asofL != nil {
			columnsOf(j.asofL, used)
			columnsOf(j.asofR, used)
		}
	}
	if agg != nil {
		for _, k := range agg.keys {
			columnsOf(k, used)
		}
		for _, a := range agg.aggs {
			if a.arg != nil {
				columnsOf(a.arg, used)
			}
			if a.arg2 != nil {
				columnsOf(a.arg2, used)
			}
			for _, o := range a.order {
				columnsOf(o, used)
			}
		}
	} else {
		for _, e := range outExprs {
			columnsOf(e, used)
		}
		for _, w := range win.specs {
			for _, es := range [][]expr{w.args, w.part, w.order} {
				for _, e := range es {
					columnsOf(e, used)
				}
			}
		}
	}
	// Columns that only a relation's own filter reads are dropped after
	// it (filterOnly); the scan reads them all.
	later := maps.Clone(used)
	for _, st := range steps {
		for _, c := range st.rel.residual {
			columnsOf(c, used)
		}
	}
	offset := 0
	for _, st := range steps {
		r := st.rel
		r.offset = offset
		if r.derived() {
			for k, c := range r.cols {
				c.slot.idx = offset + k
			}
		} else {
			for _, c := range r.cols {
				if used[c] {
					r.use(c)
				}
			}
			for k, c := range r.used {
				c.slot.idx = offset + k
			}
		}
		offset += r.width()
	}
	if agg != nil {
		for i, s := range agg.slots {
			s.idx = i
		}
	}
	keeps := joinKeeps(steps, joins, residual, agg, outExprs, win)

	// Build the operators.
	var root node
	if len(steps) == 0 {
		root = &kernels.Const{Batches: []*Batch{{N: 1}}, What: "ONE ROW"}
	}
	for i, st := range steps {
		var n node
		r := st.rel
		switch {
		case r.lateral != nil:
			if st.full || i == 0 {
				return nil, unsupported("a lateral subquery under RIGHT or FULL JOIN")
			}
		case r.sub != nil:
			n = r.sub.root
		default:
			n = p.scanOf(r, agg != nil && len(steps) == 1 && orderFree(agg.aggs))
		}
		if len(r.residual) > 0 {
			n = newRelFilter(n, andOf(r.residual), r.offset, filterOnly(r, later, i, steps))
			if pn := parallel(n, p.set.threads, nil); pn != nil && i > 0 {
				n = pn // a join's build side, filtered on every thread
			}
		}
		if i == 0 {
			root = n
			continue
		}
		types := r.outputTypes()
		jn := &joinNode{left: root, right: n, leftWidth: r.offset, rightTypes: types, leftOuter: st.left}
		if r.lateral != nil {
			if len(joins[i].cond) > 0 {
				jn.cond = andOf(joins[i].cond)
			}
			root = &lateralNode{p: p, spec: r.lateral, join: jn}
			continue
		}
		if st.full || st.positional {
			jn.rightOuter = true
			for _, prev := range steps[:i] {
				jn.leftTypes = append(jn.leftTypes, prev.rel.outputTypes()...)
			}
		}
		if st.positional {
			jn.keep = keeps[i]
			root = &positionalNode{j: jn}
			continue
		}
		for k := range joins[i].lkeys {
			l, rr, err := p.unify(joins[i].lkeys[k], joins[i].rkeys[k])
			if err != nil {
				return nil, err
			}
			jn.lkeys = append(jn.lkeys, l)
			jn.rkeys = append(jn.rkeys, rr)
		}
		if len(joins[i].cond) > 0 {
			jn.cond = andOf(joins[i].cond)
		}
		jn.keep = keeps[i]
		root = jn
		if st.asof {
			l, rr, err := p.unify(joins[i].asofL, joins[i].asofR)
			if err != nil {
				return nil, err
			}
			root = &asofNode{j: jn, lt: l, rt: rr, op: joins[i].asofOp, text: joins[i].asofText}
		}
	}
	if neverTrue(residual) {
		// No row can pass: nothing below is read (nor its errors raised).
		root.Close()
		root = &kernels.Const{What: "NO ROWS (WHERE is never true)"}
	} else if len(residual) > 0 {
		root = residualFilter(root, residual, p.set.threads)
	}
	if agg != nil && len(agg.keys) == 0 && len(steps) == 1 && len(residual) == 0 && !(len(agg.aggs) == 1 && agg.aggs[0].fn == "count_star") {
		if b, what, ok := p.fromFooters(steps[0].rel, agg.aggs); ok {
			root.Close()
			root = &kernels.Const{Batches: []*Batch{b}, What: what}
			agg = &aggCtx{keys: nil, aggs: nil, slots: agg.slots, inScope: agg.inScope, done: true}
		}
	}
	if agg == nil {
		if pn := parallel(root, p.set.threads, nil); pn != nil {
			root = pn // filters and joins on every thread, in order
		}
	}
	if agg != nil && !agg.done {
		if sn, ok := root.(*kernels.Scan); ok {
			useCodes(sn, agg.keys, agg.aggs)
		}
		if gj, ok := groupCountJoin(root, agg); ok {
			root = gj
		} else {
			an := &aggNode{in: root, keys: agg.keys, aggs: agg.aggs, sets: agg.sets}
			an.parallelInputs(p.set.threads)
			root = an
		}
	}
	if agg != nil && having != nil {
		// HAVING filters the aggregated row, whether it was computed or
		// answered from the footers.
		root = newFilter(root, having)
	}
	if len(win.specs) > 0 {
		base := offset
		if agg != nil {
			base = len(agg.slots)
		}
		for k, w := range win.specs {
			w.slot.idx = base + k
		}
		root = newWindow(root, win.specs)
	}
	if qual != nil {
		root = newFilter(root, qual)
	}
	root = newProject(root, outExprs)
	if len(unnests) > 0 {
		un := &kernels.Unnest{In: root, Cols: unnests, Convert: fromGo}
		for _, c := range unnests {
			un.Elems = append(un.Elems, outExprs[c].Type())
		}
		root = un
	}
	if sel.Distinct != "" {
		root = &kernels.Distinct{In: root}
	}
	types := exprTypes(outExprs)
	if len(keys) > 0 {
		root = &kernels.Sort{In: root, Keys: keys, Limit: lim, Types: types, Cast: castCol}
	}
	if lim >= 0 || off > 0 {
		l := lim - off
		if lim < 0 {
			l = -1
		}
		root = &kernels.Limit{In: root, Limit: l, Offset: off}
	}
	if visible < len(outExprs) {
		root = &kernels.Keep{In: root, N: visible}
	}
	return &selectPlan{root: root, cols: cols}, nil
}

// castTypeName matches the parser's spelling of a cast's type in the
// rewrite layer's casts, convert(x, char(9000NN)) and the like.
var castTypeName = regexp.MustCompile(`^(char\(9\d{5}\)|decimal\(\d+, \d+\)|[a-z]+)$`)

// unmarkCasts names the rewrite layer's casts as the user wrote them:
// convert(x, char(9000NN)) reads CAST(x AS TYPE), nested ones too.
func unmarkCasts(s string) string {
	const open = "convert("
	for from := 0; ; {
		i := strings.Index(s[from:], open)
		if i < 0 {
			return s
		}
		i += from
		args, end := parse.SplitCallArgs(s, i+len(open))
		if end < 0 || len(args) != 2 || !castTypeName.MatchString(args[1]) || i > 0 && parse.IsIdentByte(s[i-1]) {
			from = i + len(open)
			continue
		}
		t := args[1]
		if strings.HasPrefix(t, "char(") {
			if n, err := strconv.Atoi(t[5 : len(t)-1]); err == nil {
				if ct, ok := function.CastCodeType(n); ok {
					t = ct.SQLName()
				}
			}
		}
		repl := "CAST(" + unmarkCasts(args[0]) + " AS " + strings.ToUpper(t) + ")"
		s = s[:i] + repl + s[end:]
		from = i + len(repl)
	}
}

func colNullable(c *scopeCol) bool {
	if c.rel != nil && c.rel.nullExtended {
		return true
	}
	if c.t.Field != nil {
		return c.t.Field.Nullable || strings.Contains(c.name, ".")
	}
	return true
}

func andOf(es []expr) expr {
	if len(es) == 1 {
		return es[0]
	}
	e := &andExpr{terms: es}
	e.setText(exprList(es))
	return e
}

// groupTarget resolves GROUP BY 1 and GROUP BY alias to select items.
func (p *planner) groupTarget(g sqlparser.Expr, items sqlparser.SelectExprs, sc *scope) sqlparser.Expr {
	if v, ok := g.(*sqlparser.SQLVal); ok && v.Type == sqlparser.IntVal {
		n, _ := strconv.Atoi(string(v.Val))
		if n >= 1 && n <= len(items) {
			if ae, ok := items[n-1].(*sqlparser.AliasedExpr); ok {
				return ae.Expr
			}
		}
		return g
	}
	if c, ok := g.(*sqlparser.ColName); ok && c.Qualifier.IsEmpty() {
		if _, err := p.resolve(sc, c); err == nil {
			return g
		}
		for _, it := range items {
			if ae, ok := it.(*sqlparser.AliasedExpr); ok && ae.As.EqualString(c.Name.Lowered()) {
				return ae.Expr
			}
		}
	}
	return g
}

// scanOf builds the scan of a table relation. countOnly asks for the
// footer row count when nothing is filtered.
func (p *planner) scanOf(r *relation, unordered bool) node {
	req := scan.Request{Columns: []string{}, Threads: p.set.threads, Unordered: unordered}
	types := make([]Type, 0, len(r.used))
	for _, c := range r.used {
		req.Columns = append(req.Columns, c.name)
		types = append(types, c.t)
	}
	if len(r.pushed) == 1 {
		req.Filter = r.pushed[0]
	} else if len(r.pushed) > 1 {
		req.Filter = scan.And{Terms: r.pushed}
	}
	if p.onlyPath != "" && r.table.Path == p.onlyPath {
		req.RowGroups = map[int][]int{p.onlyFile: p.onlyRowGroups}
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
	n := &kernels.Scan{Alias: r.alias, Path: r.path, Table: r.table, Req: req, Types: types, Convert: fromVector, Origin: r}
	p.scans = append(p.scans, n)
	return n
}

// neverTrue reports whether a conjunct is a constant FALSE or NULL.
func neverTrue(conjuncts []expr) bool {
	for _, c := range conjuncts {
		if k, ok := isConst(c); ok && (k.v == nil || k.v == false) {
			return true
		}
	}
	return false
}

// runSubquery plans and runs an uncorrelated subquery to completion.
func (p *planner) runSubquery(stmt sqlparser.SelectStatement, outer *scope, limit int) (*Batch, error) {
	sp, err := p.planSelect(stmt, outer)
	if err != nil {
		return nil, err
	}
	defer sp.root.Close()
	types := make([]Type, len(sp.cols))
	for i, c := range sp.cols {
		types[i] = c.Type
	}
	root := sp.root
	if limit >= 0 {
		root = &kernels.Limit{In: root, Limit: int64(limit)}
	}
	return drain(p.ctx, root, types)
}

func (p *planner) scalarSubquery(x *sqlparser.Subquery, sc *scope) (expr, error) {
	b, err := p.runSubquery(x.Select, sc, 2)
	if err != nil {
		return nil, err
	}
	if len(b.Cols) != 1 {
		return nil, errorf("a scalar subquery must return one column, not %d", len(b.Cols))
	}
	if b.N > 1 {
		return nil, errorf("a scalar subquery returned more than one row")
	}
	t := b.Cols[0].T
	if b.N == 0 {
		return &constExpr{t: t}, nil
	}
	return &constExpr{t: t, v: b.Cols[0].Get(0)}, nil
}

// isMarker reports whether an expression is the rewrite layer's marker
// column (GROUP BY ALL, ORDER BY ALL).
func isMarker(e sqlparser.Expr, marker string) bool {
	c, ok := e.(*sqlparser.ColName)
	return ok && c.Qualifier.IsEmpty() && c.Name.String() == marker
}

// splitQualify takes the QUALIFY condition (parse.QualifyMarker(q)) out of a
// HAVING expression: HAVING parse.QualifyMarker(q), or (h) AND parse.QualifyMarker(q).
func splitQualify(e sqlparser.Expr) (rest, qualify sqlparser.Expr) {
	marker := func(e sqlparser.Expr) sqlparser.Expr {
		if f, ok := e.(*sqlparser.FuncExpr); ok && f.Name.Lowered() == parse.QualifyMarker && len(f.Exprs) == 1 {
			if ae, ok := f.Exprs[0].(*sqlparser.AliasedExpr); ok {
				return ae.Expr
			}
		}
		return nil
	}
	if q := marker(e); q != nil {
		return nil, q
	}
	if a, ok := e.(*sqlparser.AndExpr); ok {
		if q := marker(a.Right); q != nil {
			return a.Left, q
		}
	}
	return e, nil
}

// qualifyAliases replaces, in a QUALIFY condition, the names of select
// items (AS aliases) that are not columns of the FROM clause by the items'
// expressions, so that QUALIFY rn = 1 filters on the item named rn.
func (p *planner) qualifyAliases(q sqlparser.Expr, items sqlparser.SelectExprs, sc *scope) sqlparser.Expr {
	aliases := map[string]sqlparser.Expr{}
	for _, it := range items {
		if ae, ok := it.(*sqlparser.AliasedExpr); ok && !ae.As.IsEmpty() {
			aliases[ae.As.Lowered()] = ae.Expr
		}
	}
	q, _ = p.replaceAliases(q, aliases, sc)
	return q
}

// replaceAliases replaces the unqualified names in e that are keys of
// aliases and not columns in scope by their expressions (in parentheses).
// Subqueries and lambda bodies keep their names. It changes e in place
// (and returns it, or what replaced it), and says whether it did.
func (p *planner) replaceAliases(e sqlparser.Expr, aliases map[string]sqlparser.Expr, sc *scope) (sqlparser.Expr, bool) {
	names := p.aliasRefs(e, aliases, sc)
	changed := false
	for _, c := range names {
		// A copy: trees that share a node would make cycles when replaced
		// into again.
		if sub, ok := cloneExpr(aliases[c.Name.Lowered()]); ok {
			e, changed = sqlparser.ReplaceExpr(e, c, &sqlparser.ParenExpr{Expr: sub}), true
		}
	}
	return e, changed
}

// aliasRefs lists the names in e that replaceAliases replaces.
func (p *planner) aliasRefs(e sqlparser.Expr, aliases map[string]sqlparser.Expr, sc *scope) []*sqlparser.ColName {
	if len(aliases) == 0 || e == nil {
		return nil
	}
	var names []*sqlparser.ColName
	sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch x := n.(type) {
		case *sqlparser.Subquery:
			return false, nil
		case *sqlparser.FuncExpr:
			return x.Name.Lowered() != parse.LambdaMarker, nil
		case *sqlparser.ColName:
			if x.Qualifier.IsEmpty() && aliases[x.Name.Lowered()] != nil {
				if _, err := p.resolve(sc, x); err != nil {
					names = append(names, x)
				}
			}
		}
		return true, nil
	}, e)
	return names
}

// cloneExpr copies an expression (by printing and parsing it: sqlparser
// has no deep copy).
func cloneExpr(e sqlparser.Expr) (sqlparser.Expr, bool) {
	st, err := sqlparser.Parse("select " + sqlparser.String(e))
	if err != nil {
		return nil, false
	}
	sel, ok := st.(*sqlparser.Select)
	if !ok || len(sel.SelectExprs) != 1 {
		return nil, false
	}
	ae, ok := sel.SelectExprs[0].(*sqlparser.AliasedExpr)
	if !ok {
		return nil, false
	}
	return ae.Expr, true
}

// lateralAliases lets a select item use the aliases of the items before
// it, and WHERE those of every item, where the names are not columns (as
// DuckDB does): SELECT amount * 2 AS d, d + 1 ... WHERE d > 10. An item
// changed keeps its output name. The statement's own tree is shared by
// every execution (and goroutine) and is never changed: a SELECT that
// uses such names is replaced by a copy.
func (p *planner) lateralAliases(sel *sqlparser.Select, sc *scope) *sqlparser.Select {
	if !p.usesLateralAliases(sel, sc) {
		return sel
	}
	st, err := sqlparser.Parse(sqlparser.String(sel))
	c, ok := st.(*sqlparser.Select)
	if err != nil || !ok {
		return sel
	}
	sel = c
	aliases := map[string]sqlparser.Expr{}
	for _, it := range sel.SelectExprs {
		ae, ok := it.(*sqlparser.AliasedExpr)
		if !ok {
			continue
		}
		name := itemName(ae)
		if e, changed := p.replaceAliases(ae.Expr, aliases, sc); changed {
			ae.Expr, ae.As = e, sqlparser.NewColIdent(name)
		}
		if !ae.As.IsEmpty() {
			aliases[ae.As.Lowered()] = ae.Expr
		}
	}
	if sel.Where != nil {
		sel.Where.Expr, _ = p.replaceAliases(sel.Where.Expr, aliases, sc)
	}
	return sel
}

// usesLateralAliases reports, without changing anything, whether
// lateralAliases has names to replace in sel.
func (p *planner) usesLateralAliases(sel *sqlparser.Select, sc *scope) bool {
	aliases := map[string]sqlparser.Expr{}
	for _, it := range sel.SelectExprs {
		ae, ok := it.(*sqlparser.AliasedExpr)
		if !ok {
			continue
		}
		if len(p.aliasRefs(ae.Expr, aliases, sc)) > 0 {
			return true
		}
		if !ae.As.IsEmpty() {
			aliases[ae.As.Lowered()] = ae.Expr
		}
	}
	return sel.Where != nil && len(p.aliasRefs(sel.Where.Expr, aliases, sc)) > 0
}

// itemName is the name of a select item's output column: its alias, the
// column it names, or its SQL text (as written, rewrites undone).
func itemName(x *sqlparser.AliasedExpr) string {
	if name := x.As.String(); name != "" {
		return name
	}
	if c, ok := x.Expr.(*sqlparser.ColName); ok {
		return c.Name.String()
	}
	return parse.Unmark(unmarkCasts(sqlparser.String(x.Expr)))
}

// starMarker returns the marker call that follows a star for EXCLUDE or
// REPLACE (parse/rewrite.go), nil for any other select item.
func starMarker(se sqlparser.SelectExpr) *sqlparser.FuncExpr {
	if ae, ok := se.(*sqlparser.AliasedExpr); ok {
		if f, ok := ae.Expr.(*sqlparser.FuncExpr); ok && (f.Name.Lowered() == parse.ExcludeMarker || f.Name.Lowered() == parse.ReplaceMarker) {
			return f
		}
	}
	return nil
}

// starChanges reads a star's marker: the names EXCLUDE leaves out, or the
// expressions REPLACE puts in the place of columns, by lower-case name
// (its arguments are expression, name pairs).
func starChanges(f *sqlparser.FuncExpr) (exclude map[string]bool, replace map[string]sqlparser.Expr, err error) {
	name := func(a sqlparser.SelectExpr) (string, bool) {
		if c, ok := a.(*sqlparser.AliasedExpr); ok {
			if cn, ok := c.Expr.(*sqlparser.ColName); ok && cn.Qualifier.IsEmpty() {
				return strings.ToLower(cn.Name.String()), true
			}
		}
		return "", false
	}
	if f.Name.Lowered() == parse.ExcludeMarker {
		exclude = map[string]bool{}
		for _, a := range f.Exprs {
			n, ok := name(a)
			if !ok {
				return nil, nil, errorf("EXCLUDE takes column names")
			}
			exclude[n] = true
		}
		return exclude, nil, nil
	}
	if len(f.Exprs)%2 != 0 {
		return nil, nil, errorf("REPLACE takes expression AS column pairs")
	}
	replace = map[string]sqlparser.Expr{}
	for i := 0; i < len(f.Exprs); i += 2 {
		e, ok := f.Exprs[i].(*sqlparser.AliasedExpr)
		n, okName := name(f.Exprs[i+1])
		if !ok || !okName {
			return nil, nil, errorf("REPLACE takes expression AS column pairs")
		}
		replace[n] = e.Expr
	}
	return nil, replace, nil
}

// ownRelation reports whether r is one of the FROM's steps (not a
// relation of an enclosing query).
func ownRelation(steps []joinStep, r *relation) bool {
	for _, st := range steps {
		if st.rel == r {
			return true
		}
	}
	return false
}

// runsSubquery reports whether e holds a correlated subquery: a test that
// costs a lookup or a run per row, better made on the rows that are left
// after the joins' filters than before them.
func runsSubquery(e expr) bool {
	if _, ok := e.(*corrExpr); ok {
		return true
	}
	for _, ch := range children(e) {
		if runsSubquery(ch) {
			return true
		}
	}
	return false
}

// joinKeeps marks, for each join step, the joined columns that something
// after it reads: the joins after it (keys, conditions), the WHERE left
// after the joins, and the aggregation or the select list and windows. A
// join gathers only those (a fact table's foreign key is not copied past
// its join). nil for a step that keeps all (and for FROMs with lateral
// subqueries, whose outer references read the joined rows).
func joinKeeps(steps []joinStep, joins []joinKeys, residual []expr, agg *aggCtx, outExprs []expr, win *winCtx) [][]bool {
	keeps := make([][]bool, len(steps))
	for _, st := range steps {
		if st.rel.lateral != nil {
			return keeps
		}
	}
	read := map[*scopeCol]bool{}
	for _, c := range residual {
		columnsOf(c, read)
	}
	if agg != nil {
		for _, k := range agg.keys {
			columnsOf(k, read)
		}
		for _, a := range agg.aggs {
			for _, e := range append([]expr{a.arg, a.arg2}, a.order...) {
				if e != nil {
					columnsOf(e, read)
				}
			}
		}
	} else {
		for _, e := range outExprs {
			columnsOf(e, read)
		}
		if win != nil {
			for _, w := range win.specs {
				for _, es := range [][]expr{w.args, w.part, w.order} {
					for _, e := range es {
						columnsOf(e, read)
					}
				}
			}
		}
	}
	// From the last step back: a step keeps what is read after it.
	for i := len(steps) - 1; i >= 1; i-- {
		r := steps[i].rel
		keep := make([]bool, r.offset+r.width())
		all := true
		for _, st := range steps[:i+1] {
			for k, c := range st.rel.outputCols() {
				keep[st.rel.offset+k] = read[c]
				all = all && read[c]
			}
		}
		if !all {
			keeps[i] = keep
		}
		for _, es := range [][]expr{joins[i].lkeys, joins[i].rkeys, joins[i].cond, {joins[i].asofL, joins[i].asofR}} {
			for _, e := range es {
				if e != nil {
					columnsOf(e, read)
				}
			}
		}
	}
	return keeps
}

// filterOnly lists the columns (by place in the relation) of a join's
// build side that only its own filter reads (not in later), to drop after
// the filter; none for the first relation, derived or lateral ones.
func filterOnly(r *relation, later map[*scopeCol]bool, i int, steps []joinStep) []int {
	if i == 0 || r.derived() || r.table == nil {
		return nil
	}
	for _, st := range steps {
		if st.rel.lateral != nil {
			return nil
		}
	}
	var drop []int
	for k, c := range r.used {
		if !later[c] {
			drop = append(drop, k)
		}
	}
	return drop
}
