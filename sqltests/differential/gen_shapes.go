package differential

import (
	"fmt"
	"strings"
)

// Query shapes beyond gen.go's selects: correlated subqueries, window
// frames, grouping sets and ordered or filtered aggregates, join forms,
// common table expressions (recursive ones too), set operations in
// parentheses and subqueries with ORDER BY ... LIMIT. Every third
// statement of a seed is one of them (isShaped), so the statements of
// gen.go keep their numbers' random streams.

// onlyShapes makes every statement a query shape (the test's -shapes
// flag, for exploring).
var onlyShapes bool

// isShaped says whether statement number i is a query shape.
func isShaped(i int) bool { return onlyShapes || i%3 == 2 }

func (g *Generator) shapeQuery() *query {
	var q *query
	switch g.intn(6) {
	case 0:
		q = g.correlatedQuery()
	case 1:
		q = g.windowQuery()
	case 2:
		q = g.groupingQuery()
	case 3:
		q = g.joinQuery()
	case 4:
		q = g.cteQuery()
	default:
		q = g.setOpQuery()
	}
	return q
}

// newQuery is a statement of one select; ordered by positions (made
// total) with probability pOrder.
func (g *Generator) newQuery(s *selectStmt, pOrder float64) *query {
	q := &query{limit: -1, sels: []*selectStmt{s}}
	if g.chance(pOrder) {
		g.orderQuery(q)
	}
	return q
}

func (g *Generator) newAlias(prefix string) string {
	g.aliases++
	return fmt.Sprintf("%s%d", prefix, g.aliases)
}

// tableScope is the scope of table t, its columns qualified by alias
// (unqualified when alias is empty).
func tableScope(t *Table, alias string) *scope {
	sc := &scope{}
	for _, c := range t.Cols {
		text := c.Name
		if alias != "" {
			text = alias + "." + c.Name
		}
		sc.cols = append(sc.cols, colRef{text: text, typ: c.Type})
	}
	return sc
}

func joinScopes(a, b *scope) *scope {
	return &scope{cols: append(append([]colRef(nil), a.cols...), b.cols...)}
}

func colLeaf(t Type, text string) *node {
	n := leaf(t, text)
	n.col = true
	return n
}

// named returns the column of sc called name (after its qualifier), or
// nil.
func (sc *scope) named(name string) *node {
	for _, c := range sc.cols {
		if c.text == name || strings.HasSuffix(c.text, "."+name) {
			return colLeaf(c.typ, c.text)
		}
	}
	return nil
}

// smallTable picks t2 or t3, so that products and self-joins stay small.
func (g *Generator) smallTable() *Table { return g.tables[1+g.intn(len(g.tables)-1)] }

// keyColumn picks the join key k of sc (most often) or another integer
// column.
func (g *Generator) keyColumn(sc *scope) *node {
	if k := sc.named(keyInt); k != nil && g.chance(0.8) {
		return k
	}
	return g.column(sc, TInt)
}

// totalOrder is an ORDER BY of a subquery over sc that ties cannot
// reorder: a column, then the unique id (named idText).
func (g *Generator) totalOrder(sc *scope, idText string) []*node {
	c := g.column(sc, g.anyType(sc))
	key := pin(mk(c.typ, "$"+pick(g.r, []string{"", "", " DESC"}), c))
	return []*node{key, pin(leaf(TInt, idText))}
}

// oneTable is a select over one table (t1 with probability pFirst), its
// columns unqualified, with a WHERE at times.
func (g *Generator) oneTable(pFirst float64) (*selectStmt, *scope) {
	t := g.pickTable(pFirst)
	sc := tableScope(t, "")
	s := &selectStmt{from: tableRef{name: t.Name}}
	if g.chance(0.3) {
		s.where = append(s.where, g.boolExpr(sc, 1, false))
	}
	return s, sc
}

// ---- correlated subqueries ----

// correlatedQuery is a select over one table (or two joined) whose
// items, WHERE or HAVING hold subqueries correlated with it.
func (g *Generator) correlatedQuery() *query {
	s := &selectStmt{}
	t := g.pickTable(0.35)
	s.from = tableRef{name: t.Name, alias: "o"}
	sc := tableScope(t, "o")
	if t != g.tables[0] && g.chance(0.25) {
		u := g.smallTable()
		s.joins = []join{{kind: pick(g.r, []string{"JOIN", "LEFT JOIN"}), ref: tableRef{name: u.Name, alias: "p"},
			on: []*node{mk(TBool, "o.k = p.k")}}}
		sc = joinScopes(sc, tableScope(u, "p"))
	}
	if g.chance(0.4) {
		s.where = append(s.where, g.boolExpr(sc, 1, false))
	}
	if g.chance(0.6) {
		s.where = append(s.where, g.corrPredicate(sc, 2))
	}
	if g.chance(0.3) {
		// Grouped: the subqueries may name the group keys only.
		key := g.keyColumn(sc)
		s.groupBy = []*node{key}
		keys := &scope{cols: []colRef{{text: key.String(), typ: key.typ}}}
		s.items = []*node{key.clone(), g.aggCall(sc, g.aggType())}
		if g.chance(0.6) {
			s.items = append(s.items, g.corrScalar(keys, g.itemType(), 1))
		}
		if g.chance(0.6) {
			agg := g.aggCall(sc, TInt)
			s.having = mk(TBool, "($ "+pick(g.r, []string{">", "<=", "<>"})+" $)", agg, g.corrScalar(keys, TInt, 1))
		}
		return g.newQuery(s, 0.4)
	}
	for range 1 + g.intn(3) {
		t := g.itemType()
		switch g.intn(5) {
		case 0:
			s.items = append(s.items, g.expr(sc, t, 1, false))
		case 1:
			s.items = append(s.items, g.corrPredicate(sc, 2))
		case 2:
			if t == TDec {
				// DuckDB types CASE over a SUM of DECIMALs and another
				// DECIMAL by dropping fractional digits (case
				// duckdb-case-decimal-cap).
				t = TInt
			}
			s.items = append(s.items, mk(t, "CASE WHEN $ THEN $ ELSE $ END", g.boolExpr(sc, 1, false), g.corrScalar(sc, t, 1), g.expr(sc, t, 1, false)))
		default:
			s.items = append(s.items, g.corrScalar(sc, t, 2))
		}
	}
	return g.newQuery(s, 0.4)
}

// corrSelect draws the select of a subquery over one table, correlated
// with outer on one or two columns; at depth > 1 its WHERE may hold a
// subquery correlated with both.
func (g *Generator) corrSelect(outer *scope, depth int) (*selectStmt, *scope) {
	t := g.pickTable(0.25)
	if g.nested {
		t = g.smallTable()
	}
	alias := g.newAlias("x")
	s := &selectStmt{from: tableRef{name: t.Name, alias: alias}}
	in := tableScope(t, alias)
	if g.nested {
		s.where = g.keyCorrelation(in, outer)
	} else {
		s.where = g.correlation(in, outer)
	}
	if g.chance(0.4) {
		s.where = append(s.where, g.boolExpr(in, 1, false))
	}
	if depth > 1 && g.chance(0.3) {
		g.nested = true
		s.where = append(s.where, g.corrPredicate(joinScopes(in, outer), depth-1))
		g.nested = false
	}
	return s, in
}

// keyCorrelation ties a subquery nested in another correlated one to
// the key columns (k, g) of either level around it: carquet runs such a
// subquery once per distinct combination of the outer values it names,
// and keys keep those few (ids would make the run take minutes).
func (g *Generator) keyCorrelation(in, outer *scope) []*node {
	var keys []colRef
	for _, c := range outer.cols {
		if strings.HasSuffix(c.text, "."+keyInt) || strings.HasSuffix(c.text, "."+keyStr) {
			keys = append(keys, c)
		}
	}
	var out []*node
	for range 1 + g.intn(2) {
		c := keys[g.intn(len(keys))]
		own := in.named(c.text[strings.LastIndex(c.text, ".")+1:])
		if own == nil {
			own = in.named(keyInt)
			c = keys[0]
			for _, k := range keys {
				if k.typ == TInt {
					c = k
				}
			}
		}
		// No <>: see correlation.
		out = append(out, mk(TBool, "($ "+pick(g.r, []string{"=", "=", "<", ">="})+" $)", own, colLeaf(c.typ, c.text)))
	}
	return out
}

// correlation is the WHERE that ties a subquery over in to outer: the
// join key or another column of the same type, equal or not, and
// sometimes a second condition.
func (g *Generator) correlation(in, outer *scope) []*node {
	var out []*node
	for i := range 1 + g.intn(2) {
		if i == 0 && g.chance(0.8) {
			out = append(out, mk(TBool, "($ = $)", g.keyColumn(in), g.keyColumn(outer)))
			continue
		}
		t := g.anyType(outer)
		// No <>: DuckDB answers a subquery correlated by x <> o.c wrongly
		// (EXISTS true for a NULL o.c, rows missed or counted twice:
		// the duckdb-*-inequality cases), so it is no oracle there.
		op := pick(g.r, []string{"=", "<", ">=", ">"})
		if t == TBool {
			op = "="
		}
		out = append(out, mk(TBool, "($ "+op+" $)", g.column(in, g.comparable(t)), g.column(outer, t)))
	}
	return out
}

// corrScalar is a correlated subquery of one value of type t: an
// aggregate of the rows it finds, or the first of them by a total order.
func (g *Generator) corrScalar(outer *scope, t Type, depth int) *node {
	s, in := g.corrSelect(outer, depth)
	if g.chance(0.65) {
		s.items = []*node{g.aggCall(in, t)}
	} else {
		s.items = []*node{g.column(in, t)}
		s.orderBy = g.totalOrder(in, s.from.alias+".id")
		s.limit = 1
		if g.chance(0.2) {
			s.offset = 1
		}
	}
	return &node{typ: t, parts: []string{"(", ")"}, sub: s}
}

// corrPredicate is a correlated [NOT] EXISTS, [NOT] IN (with NULLs on
// either side: columns with NULLs, or a NULL) or a comparison with a
// correlated scalar subquery.
func (g *Generator) corrPredicate(outer *scope, depth int) *node {
	switch g.intn(5) {
	case 0, 1:
		s, in := g.corrSelect(outer, depth)
		s.items = []*node{leaf(TInt, in.cols[0].text)}
		return &node{typ: TBool, parts: []string{pick(g.r, []string{"(EXISTS (", "(NOT EXISTS ("}), "))"}, sub: s}
	case 2, 3:
		t := g.anyType(outer)
		if t == TFloat || t == TBool {
			t = TInt
		}
		s, in := g.corrSelect(outer, depth)
		s.items = []*node{g.column(in, t)}
		lhs := g.column(outer, t)
		if g.chance(0.1) {
			lhs = leaf(t, "CAST(NULL AS "+castName(t)+")")
		}
		return &node{typ: TBool, parts: []string{"(", pick(g.r, []string{" IN (", " NOT IN ("}), "))"}, args: []*node{lhs}, sub: s}
	default:
		t := g.anyType(outer)
		if t == TBool {
			t = TInt
		}
		return mk(TBool, "($ "+pick(g.r, []string{"=", "<", ">=", "<>"})+" $)", g.column(outer, t), g.corrScalar(outer, g.comparable(t), depth))
	}
}

// ---- window frames ----

// windowQuery is a select over one table with one to three window
// functions, with frames, named windows and QUALIFY; or window functions
// over the groups of a GROUP BY.
func (g *Generator) windowQuery() *query {
	s, sc := g.oneTable(0.4)
	if g.chance(0.3) {
		g.groupedWindows(s, sc)
		return g.newQuery(s, 0.3)
	}
	for range g.intn(3) {
		s.items = append(s.items, g.expr(sc, g.itemType(), 1, false))
	}
	var named string
	if g.chance(0.3) {
		// A named window, used alone or with a frame of its own.
		named = "w"
		part := g.column(sc, pick(g.r, []Type{TInt, TStr, TBool, TDate}))
		order := g.column(sc, g.anyType(sc))
		s.windows = []*node{pin(mk(TInt, "w AS (PARTITION BY $ ORDER BY $, id)", part, order))}
	}
	for range 1 + g.intn(3) {
		s.items = append(s.items, g.framedWindow(sc, named))
	}
	if g.chance(0.3) {
		s.qualify = g.qualify(s, sc)
	}
	return g.newQuery(s, 0.4)
}

// qualify filters on a window function: an item by its alias, or a
// ROW_NUMBER of its own.
func (g *Generator) qualify(s *selectStmt, sc *scope) *node {
	for i, it := range s.items {
		if it.pinned && it.typ == TInt && g.chance(0.5) {
			return mk(TBool, fmt.Sprintf("(c%d %s %s)", i, pick(g.r, []string{"<=", ">", "="}), pick(g.r, []string{"1", "2", "5"})))
		}
	}
	return mk(TBool, "(ROW_NUMBER() OVER (PARTITION BY $ ORDER BY $ DESC, id) <= "+pick(g.r, []string{"1", "2", "3"})+")",
		g.column(sc, pick(g.r, []Type{TInt, TStr})), g.column(sc, g.anyType(sc)))
}

// frame kinds: ROWS over a total order, GROUPS over the peers of a
// column, RANGE over a numeric or date key (value offsets).
const (
	frameRows = iota
	frameGroups
	frameRange
)

// framedWindow draws an aggregate or value function over a frame.
// ROWS frames order by a column and the unique id, so that ties cannot
// change them; GROUPS and RANGE frames hold whole peer groups and carry
// order-insensitive aggregates only.
func (g *Generator) framedWindow(sc *scope, named string) *node {
	kind := g.intn(3)
	var args []*node
	over := "OVER ("
	if named != "" && kind == frameRows && g.chance(0.6) {
		over += "w "
		if g.chance(0.3) {
			return pin(mk(TInt, pick(g.r, []string{"ROW_NUMBER() OVER w", "RANK() OVER w", "COUNT(*) OVER w"})))
		}
	} else {
		if g.chance(0.6) {
			args = append(args, g.column(sc, pick(g.r, []Type{TInt, TStr, TBool, TDate})))
			over += "PARTITION BY $ "
		}
		switch kind {
		case frameRows:
			args = append(args, g.column(sc, g.anyType(sc)))
			over += "ORDER BY $" + pick(g.r, []string{"", " DESC"}) + ", id "
		case frameGroups:
			args = append(args, g.column(sc, g.anyType(sc)))
			over += "ORDER BY $" + pick(g.r, []string{"", " DESC"}) + " "
		}
	}
	var offsets []string
	switch kind {
	case frameRange:
		key, offs := g.rangeKey(sc)
		args = append(args, key)
		over += "ORDER BY $" + pick(g.r, []string{"", " DESC"}) + " "
		offsets = offs
	default:
		offsets = []string{"0", "1", "2", "3"}
	}
	over += pick(g.r, []string{"ROWS", "GROUPS", "RANGE"}[kind:kind+1]) + " " + g.frameBounds(offsets)
	if g.chance(0.3) {
		over += " EXCLUDE " + pick(g.r, []string{"CURRENT ROW", "GROUP", "TIES", "NO OTHERS"})
	}
	over += ")"
	x := g.anyType(sc)
	var fn string
	var fargs []*node
	switch g.intn(6) {
	case 0:
		fn, x = "COUNT(*) ", TInt
	case 1:
		fn, fargs = "COUNT($) ", []*node{g.column(sc, x)}
		x = TInt
	case 2:
		// Sums of id and k, floats and decimals: a sum of BIGINT
		// extremes would only show SUM's known overflow.
		x = pick(g.r, []Type{TInt, TFloat, TDec})
		arg := leaf(TInt, pick(g.r, []string{"id", "k"}))
		if x != TInt {
			arg = g.column(sc, x)
		}
		fn, fargs = pick(g.r, []string{"SUM($) ", "AVG($) "}), []*node{arg}
		if strings.HasPrefix(fn, "AVG") {
			x = TFloat
		}
	case 3:
		if kind == frameRows {
			fn, fargs = pick(g.r, []string{"FIRST_VALUE($) ", "LAST_VALUE($) ", "NTH_VALUE($, 2) "}), []*node{g.column(sc, x)}
			break
		}
		fallthrough
	default:
		fn, fargs = pick(g.r, []string{"MIN($) ", "MAX($) "}), []*node{g.column(sc, x)}
	}
	return pin(mk(x, fn+over, append(fargs, args...)...))
}

// rangeKey picks the ORDER BY key of a RANGE frame and offsets of its
// type, in ascending order: id and k (k has NULLs) with integers,
// doubles with fractions, dates and timestamps with intervals.
func (g *Generator) rangeKey(sc *scope) (*node, []string) {
	if g.chance(0.3) {
		for _, t := range []Type{TDate, TTS} {
			if cs := sc.ofType(t); len(cs) > 0 {
				return colLeaf(t, cs[g.intn(len(cs))].text), []string{"INTERVAL 2 HOUR", "INTERVAL 1 DAY", "INTERVAL 30 DAY", "INTERVAL 365 DAY"}
			}
		}
	}
	if cs := sc.ofType(TFloat); len(cs) > 0 && g.chance(0.25) {
		// Doubles (±Inf among them) with fractional offsets; not
		// decimals, whose largest values plus an offset overflow in
		// DuckDB.
		return colLeaf(TFloat, cs[g.intn(len(cs))].text), []string{"0.5", "1", "2.5", "100"}
	}
	return colLeaf(TInt, pick(g.r, []string{"id", "k"})), []string{"0", "1", "2", "5"}
}

// frameBounds draws BETWEEN start AND end (or start alone), start never
// after end in the order UNBOUNDED PRECEDING, n PRECEDING, CURRENT ROW,
// n FOLLOWING, UNBOUNDED FOLLOWING, and with two offsets of one side,
// start not past end (offsets ascend): DuckDB counts such an empty frame
// negative (COUNT(*) OVER (ORDER BY k, id ROWS BETWEEN 1 PRECEDING AND
// 3 PRECEDING) is -1; case duckdb-inverted-frame-count).
func (g *Generator) frameBounds(offsets []string) string {
	i, j := g.intn(len(offsets)), g.intn(len(offsets))
	lo, hi := offsets[min(i, j)], offsets[max(i, j)]
	bound := func(rank int, start bool) string {
		switch rank {
		case 0:
			return "UNBOUNDED PRECEDING"
		case 1:
			if start {
				return hi + " PRECEDING"
			}
			return lo + " PRECEDING"
		case 2:
			return "CURRENT ROW"
		case 3:
			if start {
				return lo + " FOLLOWING"
			}
			return hi + " FOLLOWING"
		}
		return "UNBOUNDED FOLLOWING"
	}
	start := g.intn(4)
	if start < 3 && g.chance(0.15) {
		return bound(start, true)
	}
	end := max(start, 1) + g.intn(5-max(start, 1))
	return "BETWEEN " + bound(start, true) + " AND " + bound(end, false)
}

// groupedWindows fills s with GROUP BY one or two keys, aggregates, and
// window functions over the groups ordered by the keys (a total order:
// each group is one row).
func (g *Generator) groupedWindows(s *selectStmt, sc *scope) {
	nk := 1 + g.intn(2)
	for range nk {
		s.groupBy = append(s.groupBy, g.column(sc, g.groupKeyType(sc)))
	}
	for _, k := range s.groupBy {
		s.items = append(s.items, k.clone())
	}
	agg := g.aggCall(sc, pick(g.r, []Type{TInt, TFloat, TDec}))
	s.items = append(s.items, agg)
	keys := cloneNodes(s.groupBy)
	order := "ORDER BY " + strings.Repeat("$, ", len(keys)-1) + "$"
	var w *node
	switch g.intn(4) {
	case 0:
		w = mk(agg.typ, "SUM($) OVER ("+order+" ROWS BETWEEN "+pick(g.r, []string{"1", "2"})+" PRECEDING AND CURRENT ROW)", append([]*node{agg.clone()}, keys...)...)
	case 1:
		w = mk(TInt, "RANK() OVER (ORDER BY $ DESC)", agg.clone())
	case 2:
		w = mk(agg.typ, "LAG($) OVER ("+order+")", append([]*node{agg.clone()}, keys...)...)
	default:
		w = mk(TInt, "COUNT(*) OVER ()")
	}
	s.items = append(s.items, pin(w))
}

// ---- grouping sets, DISTINCT ON, ordered and filtered aggregates ----

func (g *Generator) groupingQuery() *query {
	switch g.intn(3) {
	case 0:
		return g.groupingSetsQuery()
	case 1:
		return g.distinctOnQuery()
	default:
		return g.orderedAggQuery()
	}
}

// groupingSetsQuery groups by ROLLUP, CUBE or GROUPING SETS of one to
// three keys, with GROUPING() items and maybe HAVING.
func (g *Generator) groupingSetsQuery() *query {
	s := &selectStmt{}
	sc := g.fromClause(s, 1)
	if g.chance(0.3) {
		s.where = append(s.where, g.boolExpr(sc, 1, false))
	}
	nk := 1 + g.intn(3)
	for range nk {
		k := g.column(sc, g.groupKeyType(sc))
		if k.hasColumn() {
			s.groupBy = append(s.groupBy, k)
		}
	}
	if len(s.groupBy) == 0 {
		s.groupBy = []*node{g.column(sc, TInt)}
	}
	s.grouping = pick(g.r, []string{"ROLLUP", "CUBE", "GROUPING SETS"})
	if s.grouping == "GROUPING SETS" {
		for range 1 + g.intn(3) {
			var set []int
			for p := range s.groupBy {
				if g.chance(0.5) {
					set = append(set, p)
				}
			}
			s.sets = append(s.sets, set)
		}
		// Every key is in some set: the select list and GROUPING() name
		// them all, which both engines refuse otherwise.
		covered := map[int]bool{}
		for _, set := range s.sets {
			for _, p := range set {
				covered[p] = true
			}
		}
		for p := range s.groupBy {
			if !covered[p] {
				i := g.intn(len(s.sets))
				s.sets[i] = append(s.sets[i], p)
			}
		}
	}
	for _, k := range s.groupBy {
		if g.chance(0.8) {
			s.items = append(s.items, k.clone())
		}
	}
	if g.chance(0.6) {
		s.items = append(s.items, mk(TInt, "GROUPING("+strings.Repeat("$, ", len(s.groupBy)-1)+"$)", cloneNodes(s.groupBy)...))
	}
	for range 1 + g.intn(2) {
		s.items = append(s.items, g.aggExpr(sc, s.groupBy, g.aggType(), 1))
	}
	if g.chance(0.25) {
		s.having = g.havingExpr(sc, s.groupBy)
	}
	return g.newQuery(s, 0.4)
}

// distinctOnQuery keeps the first row of each DISTINCT ON group by a
// total ORDER BY (the keys, a column, the id): at the top level, or in a
// derived table whose rows the outer query reads.
func (g *Generator) distinctOnQuery() *query {
	s, sc := g.oneTable(0.5)
	for range 1 + g.intn(2) {
		s.distinctOn = append(s.distinctOn, g.column(sc, g.groupKeyType(sc)))
	}
	s.items = cloneNodes(s.distinctOn)
	// Columns, not expressions: carquet computes the select list of rows
	// that DISTINCT ON (or a LIMIT) drops, and fails where one overflows;
	// DuckDB computes it after (case limit-subquery-item-error-on-dropped-row).
	for range 1 + g.intn(2) {
		s.items = append(s.items, g.column(sc, g.itemType()))
	}
	order := append(cloneNodes(s.distinctOn), g.totalOrder(sc, "id")...)
	if g.chance(0.5) {
		q := &query{limit: -1, sels: []*selectStmt{s}, ordered: true}
		q.orderExprs = order
		if g.chance(0.4) {
			q.limit = pick(g.r, []int{1, 3, 10})
		}
		return q
	}
	s.orderBy = order
	if g.chance(0.3) {
		s.limit = pick(g.r, []int{2, 5, 20})
	}
	alias := g.newAlias("sq")
	outer := &selectStmt{from: tableRef{sub: s, alias: alias}}
	for i, it := range s.items {
		outer.items = append(outer.items, leaf(it.typ, fmt.Sprintf("%s.c%d", alias, i)))
	}
	return g.newQuery(outer, 0.3)
}

// orderedAggQuery groups by zero to two keys with aggregates that take
// ORDER BY (string_agg, list: ordered by a column and the id, so
// deterministic), FILTER (WHERE ...), DISTINCT, and arg_min/arg_max by
// the id.
func (g *Generator) orderedAggQuery() *query {
	s, sc := g.oneTable(0.5)
	for range g.intn(3) {
		s.groupBy = append(s.groupBy, g.column(sc, g.groupKeyType(sc)))
	}
	s.items = cloneNodes(s.groupBy)
	for range 1 + g.intn(3) {
		s.items = append(s.items, g.orderedAgg(sc))
	}
	if g.chance(0.2) {
		s.having = g.havingExpr(sc, s.groupBy)
	}
	return g.newQuery(s, 0.4)
}

func (g *Generator) orderedAgg(sc *scope) *node {
	var n *node
	switch g.intn(6) {
	case 0:
		sep := pick(g.r, []string{"','", "''", "' | '"})
		key := g.column(sc, g.anyType(sc))
		n = mk(TStr, "string_agg($, "+sep+" ORDER BY $"+pick(g.r, []string{"", " DESC"})+", id)", g.column(sc, TStr), key)
	case 1:
		n = mk(TStr, "CAST(list($ ORDER BY $"+pick(g.r, []string{"", " DESC"})+", id) AS VARCHAR)", g.column(sc, pick(g.r, []Type{TInt, TStr, TDate})), g.column(sc, g.anyType(sc)))
	case 2:
		x := g.anyType(sc)
		n = mk(x, pick(g.r, []string{"arg_min($, id)", "arg_max($, id)"}), g.column(sc, x))
	case 3:
		x := g.anyType(sc)
		if x == TFloat || x == TBool {
			x = TInt
		}
		n = mk(TInt, "COUNT(DISTINCT $)", g.column(sc, x))
	default:
		// Not pinned: the minimizer may drop the FILTER.
		a := g.aggCall(sc, g.aggType())
		return mk(a.typ, "$ FILTER (WHERE $)", a, g.boolExpr(sc, 1, false))
	}
	n.agg = true
	return pin(n)
}

// ---- join forms ----

// joinQuery draws one of the join forms, then items (or an aggregate)
// over its scope.
func (g *Generator) joinQuery() *query {
	s := &selectStmt{}
	var sc *scope
	star := false
	switch g.intn(7) {
	case 0:
		sc, star = g.usingJoin(s)
	case 1:
		sc, star = g.naturalJoin(s)
	case 2:
		sc = g.semiJoin(s)
	case 3:
		sc = g.lateralJoin(s)
	case 4:
		sc = g.threeWayJoin(s)
	case 5:
		sc = g.groupedDerivedJoin(s)
	default:
		sc = g.thetaJoin(s)
	}
	if g.chance(0.3) {
		s.where = append(s.where, g.boolExpr(sc, 1, false))
	}
	if star {
		s.items = []*node{pin(leaf(TInt, "*"))}
		return &query{limit: -1, sels: []*selectStmt{s}}
	}
	if g.chance(0.3) {
		g.aggregate(s, sc, 1)
		return g.newQuery(s, 0.4)
	}
	for range 1 + g.intn(4) {
		s.items = append(s.items, g.expr(sc, g.itemType(), 1, false))
	}
	return g.newQuery(s, 0.4)
}

func (g *Generator) joinKind() string {
	return pick(g.r, []string{"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"})
}

// usingJoin: JOIN ... USING (k [, g]); the unqualified key is the
// merged column (COALESCE of both sides in a FULL JOIN).
func (g *Generator) usingJoin(s *selectStmt) (*scope, bool) {
	t := g.pickTable(0.3)
	u := g.smallTable()
	s.from = tableRef{name: t.Name, alias: "a"}
	using := []string{keyInt}
	if t.Col(keyStr) != nil && u.Col(keyStr) != nil && g.chance(0.4) {
		using = append(using, keyStr)
	}
	s.joins = []join{{kind: g.joinKind(), ref: tableRef{name: u.Name, alias: "b"}, using: using}}
	sc := joinScopes(tableScope(t, "a"), tableScope(u, "b"))
	for _, k := range using {
		sc.cols = append(sc.cols, colRef{text: k, typ: t.Col(k).Type})
	}
	return sc, g.chance(0.2)
}

// naturalJoin: NATURAL [LEFT|FULL] JOIN of two small tables (a table
// with itself too), on every column name they share (id and k at least).
func (g *Generator) naturalJoin(s *selectStmt) (*scope, bool) {
	t, u := g.smallTable(), g.smallTable()
	s.from = tableRef{name: t.Name, alias: "a"}
	s.joins = []join{{kind: "NATURAL " + pick(g.r, []string{"JOIN", "LEFT JOIN", "FULL JOIN"}), ref: tableRef{name: u.Name, alias: "b"}}}
	return joinScopes(tableScope(t, "a"), tableScope(u, "b")), g.chance(0.4)
}

// semiJoin: SEMI or ANTI JOIN on the key and maybe a condition across
// both sides; only the left side is in scope.
func (g *Generator) semiJoin(s *selectStmt) *scope {
	t := g.pickTable(0.4)
	u := g.pickTable(0.2)
	s.from = tableRef{name: t.Name, alias: "a"}
	left, right := tableScope(t, "a"), tableScope(u, "b")
	on := []*node{mk(TBool, "$ = $", g.keyColumn(left), g.keyColumn(right))}
	if g.chance(0.4) {
		on = append(on, g.crossCondition(left, right))
	}
	if g.chance(0.3) {
		on = append(on, g.boolExpr(right, 1, false))
	}
	s.joins = []join{{kind: pick(g.r, []string{"SEMI JOIN", "ANTI JOIN"}), ref: tableRef{name: u.Name, alias: "b"}, on: on}}
	return left
}

// crossCondition compares a column of each side, by a type both have.
func (g *Generator) crossCondition(left, right *scope) *node {
	t := g.anyType(left)
	if t == TBool {
		t = TInt
	}
	return mk(TBool, "($ "+pick(g.r, []string{"<", ">=", "<>", "="})+" $)", g.column(left, t), g.column(right, g.comparable(t)))
}

// lateralJoin: a derived table that reads the row before it, as a comma
// join or LEFT JOIN LATERAL ... ON true: an aggregate per row, or the
// first rows by a total order.
func (g *Generator) lateralJoin(s *selectStmt) *scope {
	t := g.smallTable()
	s.from = tableRef{name: t.Name, alias: "a"}
	left := tableScope(t, "a")
	sub, in := g.corrSelect(left, 1)
	if g.chance(0.5) {
		sub.items = []*node{g.aggCall(in, g.aggType()), g.aggCall(in, TInt)}
	} else {
		sub.items = []*node{g.column(in, g.anyType(in)), g.column(in, g.anyType(in))}
		sub.orderBy = g.totalOrder(in, sub.from.alias+".id")
		sub.limit = 1 + g.intn(3)
	}
	alias := g.newAlias("l")
	ref := tableRef{sub: sub, alias: alias, lateral: true}
	if g.chance(0.5) {
		s.joins = []join{{kind: ",", ref: ref}}
	} else {
		s.joins = []join{{kind: "LEFT JOIN", ref: ref, on: []*node{pin(leaf(TBool, "true"))}}}
	}
	sc := &scope{cols: append([]colRef(nil), left.cols...)}
	for i, it := range sub.items {
		sc.cols = append(sc.cols, colRef{text: fmt.Sprintf("%s.c%d", alias, i), typ: it.typ})
	}
	return sc
}

// threeWayJoin joins three small tables in any order of kinds, each ON naming any table before it, with
// an equality, an inequality or conditions on both sides.
func (g *Generator) threeWayJoin(s *selectStmt) *scope {
	aliases := []string{"a", "b", "c"}
	t := g.smallTable()
	s.from = tableRef{name: t.Name, alias: "a"}
	scopes := []*scope{tableScope(t, "a")}
	for j := 1; j < 3; j++ {
		u := g.smallTable()
		right := tableScope(u, aliases[j])
		prev := scopes[g.intn(len(scopes))]
		on := []*node{mk(TBool, "$ = $", g.keyColumn(prev), g.keyColumn(right))}
		if g.chance(0.3) {
			on = append(on, g.crossCondition(prev, right))
		}
		if g.chance(0.25) {
			on = append(on, g.boolExpr(scopes[g.intn(len(scopes))], 1, false))
		}
		s.joins = append(s.joins, join{kind: g.joinKind(), ref: tableRef{name: u.Name, alias: aliases[j]}, on: on})
		scopes = append(scopes, right)
	}
	return joinScopes(joinScopes(scopes[0], scopes[1]), scopes[2])
}

// groupedDerivedJoin joins two derived tables that aggregate by the key.
func (g *Generator) groupedDerivedJoin(s *selectStmt) *scope {
	derived := func() (*selectStmt, string) {
		t := g.pickTable(0.4)
		tsc := tableScope(t, "")
		d := &selectStmt{from: tableRef{name: t.Name}}
		key := g.keyColumn(tsc)
		d.groupBy = []*node{key}
		d.items = []*node{key.clone(), g.aggCall(tsc, TInt), g.aggCall(tsc, g.aggType())}
		if g.chance(0.3) {
			d.where = append(d.where, g.boolExpr(tsc, 1, false))
		}
		return d, g.newAlias("d")
	}
	d1, a1 := derived()
	d2, a2 := derived()
	s.from = tableRef{sub: d1, alias: a1}
	on := []*node{mk(TBool, fmt.Sprintf("%s.c0 = %s.c0", a1, a2))}
	if g.chance(0.3) {
		on = append(on, mk(TBool, fmt.Sprintf("(%s.c1 %s %s.c1)", a1, pick(g.r, []string{"<", ">=", "<>"}), a2)))
	}
	s.joins = []join{{kind: g.joinKind(), ref: tableRef{sub: d2, alias: a2}, on: on}}
	sc := &scope{}
	for _, d := range []struct {
		s     *selectStmt
		alias string
	}{{d1, a1}, {d2, a2}} {
		for i, it := range d.s.items {
			sc.cols = append(sc.cols, colRef{text: fmt.Sprintf("%s.c%d", d.alias, i), typ: it.typ})
		}
	}
	return sc
}

// thetaJoin: a self-join of t2 or t3, or a join of two small tables, on
// an inequality, on conditions over both sides (a LEFT JOIN's filter on
// its left side keeps the rows), or on an OR.
func (g *Generator) thetaJoin(s *selectStmt) *scope {
	t := g.smallTable()
	u := t
	if g.chance(0.4) {
		u = g.smallTable()
	}
	s.from = tableRef{name: t.Name, alias: "a"}
	left, right := tableScope(t, "a"), tableScope(u, "b")
	var on []*node
	switch g.intn(4) {
	case 0:
		on = []*node{mk(TBool, "($ "+pick(g.r, []string{"<", "<=", "<>"})+" $)", g.keyColumn(left), g.keyColumn(right))}
	case 1:
		on = []*node{mk(TBool, "$ = $", g.keyColumn(left), g.keyColumn(right)), g.boolExpr(left, 1, false), g.boolExpr(right, 1, false)}
	case 2:
		on = []*node{mk(TBool, "(($ = $) OR ($ = $))", g.keyColumn(left), g.keyColumn(right), leaf(TInt, "a.id"), leaf(TInt, "b.id"))}
	default:
		on = []*node{mk(TBool, "$ = $", g.keyColumn(left), g.keyColumn(right)), mk(TBool, "(a.id "+pick(g.r, []string{"<", "<>", ">"})+" b.id)")}
	}
	s.joins = []join{{kind: g.joinKind(), ref: tableRef{name: u.Name, alias: "b"}, on: on}}
	return joinScopes(left, right)
}

// ---- common table expressions, set operations, ORDER BY ... LIMIT ----

func (g *Generator) cteQuery() *query {
	switch g.intn(4) {
	case 0:
		return g.cteTwice()
	case 1:
		return g.cteChain()
	case 2:
		return g.recursiveQuery()
	default:
		return g.limitedSubquery()
	}
}

// cteBody is the select of a common table expression over one table:
// the key and one or two more items, or an aggregate by the key. Its
// columns are c0 (the key), c1, ...
func (g *Generator) cteBody(t *Table, alias string) *selectStmt {
	sc := tableScope(t, alias)
	s := &selectStmt{from: tableRef{name: t.Name, alias: alias}}
	key := g.keyColumn(sc)
	if g.chance(0.3) {
		s.where = append(s.where, g.boolExpr(sc, 1, false))
	}
	// Columns and aggregates that cannot fail: carquet computes a CTE
	// named twice once, with every column, and fails on an error in one
	// the statement never reads, which DuckDB may not compute (case
	// cte-twice-unread-column-error).
	if g.chance(0.5) {
		s.groupBy = []*node{key}
		s.items = []*node{key.clone(), g.safeAgg(sc, TInt), g.safeAgg(sc, g.aggType())}
		return s
	}
	s.items = []*node{key, g.anyColumn(sc)}
	if g.chance(0.5) {
		s.items = append(s.items, g.anyColumn(sc))
	}
	return s
}

// anyColumn is a column of sc itself (g.column may compute one of a type
// sc lacks, and a cast can fail).
func (g *Generator) anyColumn(sc *scope) *node {
	c := sc.cols[g.intn(len(sc.cols))]
	return colLeaf(c.typ, c.text)
}

// safeAgg is an aggregate of a column that no value makes fail: MIN or
// MAX of type t, or (when sc has no column of type t) a COUNT.
func (g *Generator) safeAgg(sc *scope, t Type) *node {
	var n *node
	if cs := sc.ofType(t); len(cs) > 0 && (t != TInt || g.chance(0.5)) {
		n = mk(t, pick(g.r, []string{"MIN($)", "MAX($)"}), colLeaf(t, cs[g.intn(len(cs))].text))
	} else {
		n = mk(TInt, pick(g.r, []string{"COUNT($)", "COUNT(DISTINCT $)"}), g.anyColumn(sc))
	}
	n.agg = true
	return n
}

func selectScope(s *selectStmt, alias string) *scope {
	sc := &scope{}
	for i, it := range s.items {
		text := fmt.Sprintf("c%d", i)
		if alias != "" {
			text = alias + "." + text
		}
		sc.cols = append(sc.cols, colRef{text: text, typ: it.typ})
	}
	return sc
}

// cteTwice reads one CTE twice: a self-join, or in FROM and in a
// subquery.
func (g *Generator) cteTwice() *query {
	body := g.cteBody(g.pickTable(0.4), "")
	s := &selectStmt{from: tableRef{name: "w", alias: "a"}}
	var sc *scope
	if g.chance(0.6) {
		s.joins = []join{{kind: g.joinKind(), ref: tableRef{name: "w", alias: "b"},
			on: []*node{mk(TBool, "a.c0 "+pick(g.r, []string{"=", "=", "<"})+" b.c0")}}}
		sc = joinScopes(selectScope(body, "a"), selectScope(body, "b"))
	} else {
		sc = selectScope(body, "a")
		other := selectScope(body, "")
		sub := &selectStmt{from: tableRef{name: "w"}, items: []*node{leaf(TInt, "c0")}}
		if g.chance(0.5) {
			sub.where = []*node{g.boolExpr(other, 1, false)}
		}
		s.where = append(s.where, &node{typ: TBool, parts: []string{"(a.c0 " + pick(g.r, []string{"IN", "NOT IN"}) + " (", "))"}, sub: sub})
	}
	for range 1 + g.intn(3) {
		s.items = append(s.items, g.expr(sc, g.itemType(), 1, false))
	}
	q := g.newQuery(s, 0.4)
	q.ctes = []cte{{name: "w", body: body}}
	return q
}

// cteChain: w2 reads w1, and the statement reads both.
func (g *Generator) cteChain() *query {
	w1 := g.cteBody(g.pickTable(0.4), "")
	in := selectScope(w1, "")
	w2 := &selectStmt{from: tableRef{name: "w1"}}
	w2.groupBy = []*node{colLeaf(TInt, "c0")}
	w2.items = []*node{colLeaf(TInt, "c0"), g.aggCall(in, TInt), g.aggCall(in, g.aggType())}
	if g.chance(0.4) {
		w2.where = []*node{g.boolExpr(in, 1, false)}
	}
	s := &selectStmt{from: tableRef{name: "w2", alias: "b"}}
	s.joins = []join{{kind: pick(g.r, []string{"JOIN", "LEFT JOIN"}), ref: tableRef{name: "w1", alias: "a"}, on: []*node{mk(TBool, "a.c0 = b.c0")}}}
	sc := joinScopes(selectScope(w2, "b"), selectScope(w1, "a"))
	if g.chance(0.5) {
		g.aggregate(s, sc, 1)
	} else {
		for range 1 + g.intn(3) {
			s.items = append(s.items, g.expr(sc, g.itemType(), 1, false))
		}
	}
	q := g.newQuery(s, 0.4)
	q.ctes = []cte{{name: "w1", body: w1}, {name: "w2", body: w2}}
	return q
}

// recursiveQuery counts up to a bound under 20 taken from a column (or
// a constant), then aggregates the rows or joins them to a table.
func (g *Generator) recursiveQuery() *query {
	t := g.smallTable()
	base := fmt.Sprintf("SELECT id, 0, k %% %d FROM %s", 5+g.intn(15), t.Name)
	if g.chance(0.3) {
		base = fmt.Sprintf("SELECT id, 0, %d FROM %s WHERE (k < %d)", g.intn(20), t.Name, g.intn(30))
	}
	step := "SELECT id, n + 1, lim FROM r WHERE (n < lim)"
	union := pick(g.r, []string{"UNION ALL", "UNION ALL", "UNION"})
	rec := cte{name: "r(id, n, lim)", text: base + " " + union + " " + step, recursive: true}
	sc := &scope{cols: []colRef{{"r.id", TInt}, {"r.n", TInt}, {"r.lim", TInt}}}
	s := &selectStmt{from: tableRef{name: "r"}}
	if g.chance(0.5) {
		u := g.tables[2] // t3: at most 20 rows per row of the base
		s.joins = []join{{kind: pick(g.r, []string{"JOIN", "LEFT JOIN"}), ref: tableRef{name: u.Name, alias: "b"}, on: []*node{mk(TBool, "b.k = r.n")}}}
		sc = joinScopes(sc, tableScope(u, "b"))
	}
	if g.chance(0.6) {
		g.aggregate(s, sc, 1)
	} else {
		for range 1 + g.intn(3) {
			s.items = append(s.items, g.expr(sc, g.itemType(), 1, false))
		}
	}
	q := g.newQuery(s, 0.4)
	q.ctes = []cte{rec}
	return q
}

// limitedSubquery: ORDER BY ... LIMIT [OFFSET] inside a derived table,
// an IN subquery or a scalar subquery, the order total; or a statement
// ordered by expressions over its table's columns.
func (g *Generator) limitedSubquery() *query {
	t := g.pickTable(0.5)
	sc := tableScope(t, "")
	limited := func(sub *selectStmt, alias string) {
		id := "id"
		if alias != "" {
			id = alias + ".id"
		}
		sub.orderBy = g.totalOrder(tableScope(t, alias), id)
		sub.limit = pick(g.r, []int{1, 3, 10, 50})
		if g.chance(0.4) {
			sub.offset = pick(g.r, []int{1, 2, 5})
		}
	}
	switch g.intn(3) {
	case 0:
		sub := &selectStmt{from: tableRef{name: t.Name}}
		for range 1 + g.intn(3) {
			// Columns: see distinctOnQuery.
			sub.items = append(sub.items, g.column(sc, g.itemType()))
		}
		if g.chance(0.4) {
			sub.where = []*node{g.boolExpr(sc, 1, false)}
		}
		limited(sub, "")
		alias := g.newAlias("sq")
		s := &selectStmt{from: tableRef{sub: sub, alias: alias}}
		inner := selectScope(sub, alias)
		if g.chance(0.4) {
			g.aggregate(s, inner, 1)
		} else {
			for range 1 + g.intn(2) {
				s.items = append(s.items, g.expr(inner, g.itemType(), 1, false))
			}
		}
		return g.newQuery(s, 0.4)
	case 1:
		u := g.pickTable(0.3)
		s := &selectStmt{from: tableRef{name: u.Name, alias: "o"}}
		outer := tableScope(u, "o")
		sub := &selectStmt{from: tableRef{name: t.Name, alias: "x"}}
		in := tableScope(t, "x")
		ty := pick(g.r, []Type{TInt, TStr, TDate})
		sub.items = []*node{g.column(in, ty)}
		limited(sub, "x")
		s.where = []*node{{typ: TBool, parts: []string{"(", pick(g.r, []string{" IN (", " NOT IN ("}), "))"}, args: []*node{g.column(outer, ty)}, sub: sub}}
		s.items = []*node{leaf(TInt, "o.id"), g.expr(outer, g.itemType(), 1, false)}
		return g.newQuery(s, 0.4)
	default:
		s := &selectStmt{from: tableRef{name: t.Name}}
		for range 1 + g.intn(3) {
			s.items = append(s.items, g.expr(sc, g.itemType(), 1, false))
		}
		q := &query{limit: -1, sels: []*selectStmt{s}, ordered: true}
		for range 1 + g.intn(2) {
			e := g.expr(sc, g.anyType(sc), 1, false)
			if !e.hasColumn() {
				// A constant would be a position (or nothing).
				e = g.column(sc, g.anyType(sc))
			}
			q.orderExprs = append(q.orderExprs, pin(mk(e.typ, "$"+pick(g.r, []string{"", " DESC"}), e)))
		}
		if g.chance(0.6) {
			q.limit = pick(g.r, []int{1, 3, 10})
			if g.chance(0.4) {
				q.offset = pick(g.r, []int{1, 2, 5})
			}
		}
		return q
	}
}

// setOpQuery: three selects joined by UNION [ALL], INTERSECT [ALL] and
// EXCEPT [ALL], two of them in parentheses (or none, which leaves
// INTERSECT's precedence to the engines).
func (g *Generator) setOpQuery() *query {
	s := &selectStmt{}
	sc := g.fromClause(s, 1)
	if g.chance(0.4) {
		s.where = append(s.where, g.boolExpr(sc, 1, false))
	}
	for range 1 + g.intn(2) {
		s.items = append(s.items, g.expr(sc, pick(g.r, []Type{TInt, TInt, TStr, TDate, TDec}), 1, false))
	}
	q := &query{limit: -1, sels: []*selectStmt{s, g.selectLike(s, sc), g.selectLike(s, sc)}}
	ops := []string{"UNION ALL", "UNION", "INTERSECT", "INTERSECT ALL", "EXCEPT", "EXCEPT ALL"}
	q.unions = []string{pick(g.r, ops), pick(g.r, ops)}
	switch g.intn(3) {
	case 0:
		q.parenFrom, q.parenTo = 0, 1
	case 1:
		q.parenFrom, q.parenTo = 1, 2
	}
	if g.chance(0.4) {
		g.orderQuery(q)
	}
	return q
}
