package differential

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// colRef is a column a select can read: its text (qualified in joins)
// and its type.
type colRef struct {
	text string
	typ  Type
}

type scope struct {
	cols []colRef
}

func (s *scope) ofType(t Type) []colRef {
	var out []colRef
	for _, c := range s.cols {
		if c.typ == t {
			out = append(out, c)
		}
	}
	return out
}

// Generator draws random queries over a set of tables.
type Generator struct {
	r      *rand.Rand
	tables []*Table
	// aliases counts derived-table aliases so that nested ones differ.
	aliases int
	// shaped draws one of the query shapes of gen_shapes.go; nested is
	// set while it draws a subquery inside a correlated one.
	shaped, nested bool
}

// querySeedStream separates each query's random stream from the others.
const querySeedStream = 0x9e3779b97f4a7c15

// NewGenerator returns the generator of query number i of seed: every
// query has its own random stream, so one can be drawn again alone.
func NewGenerator(seed int64, i int, tables []*Table) *Generator {
	return &Generator{r: rand.New(rand.NewPCG(uint64(seed), querySeedStream^uint64(i))), tables: tables, shaped: isShaped(i)}
}

func (g *Generator) chance(p float64) bool { return g.r.Float64() < p }
func (g *Generator) intn(n int) int        { return g.r.IntN(n) }

// Query draws one statement.
func (g *Generator) Query() *query {
	if g.shaped {
		return g.shapeQuery()
	}
	q := &query{limit: -1}
	s, sc := g.selectStmt(3, true)
	q.sels = []*selectStmt{s}
	if g.chance(0.12) {
		// UNION [ALL] of a second select with the same number of columns
		// and compatible types.
		s2 := g.selectLike(s, sc)
		if s2 != nil {
			q.sels = append(q.sels, s2)
			q.unions = append(q.unions, pick(g.r, []string{"UNION ALL", "UNION ALL", "UNION ALL", "UNION", "UNION",
				"INTERSECT", "INTERSECT ALL", "EXCEPT", "EXCEPT ALL"}))
		}
	}
	q.with = s.from.sub != nil && g.chance(0.5)
	if g.chance(0.45) {
		g.orderQuery(q)
	}
	return q
}

// orderQuery gives q an ORDER BY of one or two positions (made total
// when written) and maybe LIMIT and OFFSET.
func (g *Generator) orderQuery(q *query) {
	q.ordered = true
	q.byName = g.chance(0.3)
	n := len(q.sels[0].items)
	for range 1 + g.intn(2) {
		q.order = append(q.order, orderKey{pos: g.intn(n), desc: g.chance(0.4)})
	}
	if g.chance(0.6) {
		q.limit = pick(g.r, []int{0, 1, 3, 10, 50})
		if g.chance(0.4) {
			q.offset = pick(g.r, []int{1, 2, 5, 20})
		}
	}
}

// fromClause picks the tables of a select and returns the scope they make.
func (g *Generator) fromClause(s *selectStmt, depth int) *scope {
	sc := &scope{}
	addTable := func(t *Table, alias string) {
		for _, c := range t.Cols {
			text := c.Name
			if alias != "" {
				text = alias + "." + c.Name
			}
			sc.cols = append(sc.cols, colRef{text: text, typ: c.Type})
		}
	}
	nJoins := 0
	switch x := g.r.Float64(); {
	case x < 0.25:
		nJoins = 1
	case x < 0.3:
		nJoins = 2
	}
	if depth > 1 && g.chance(0.08) {
		// A derived table: its columns are c0, c1, ... of its select.
		sub, _ := g.selectStmt(depth-1, false)
		g.aliases++
		alias := fmt.Sprintf("sq%d", g.aliases)
		s.from = tableRef{sub: sub, alias: alias}
		for i, it := range sub.items {
			sc.cols = append(sc.cols, colRef{text: fmt.Sprintf("%s.c%d", alias, i), typ: it.typ})
		}
		return sc
	}
	if nJoins == 0 {
		t := g.pickTable(0.6)
		s.from = tableRef{name: t.Name}
		addTable(t, "")
		return sc
	}
	// Joins stay small enough to compare quickly: t1 (the big table)
	// appears at most once, and never in a join of three.
	aliases := []string{"a", "b", "c"}
	t := g.pickTable(0.6)
	if nJoins == 2 && t == g.tables[0] {
		nJoins = 1
	}
	s.from = tableRef{name: t.Name, alias: aliases[0]}
	addTable(t, aliases[0])
	prev := []*Table{t}
	for j := 1; j <= nJoins; j++ {
		t2 := g.pickTable(0.2)
		if t2 == g.tables[0] && (t == g.tables[0] || nJoins == 2) {
			t2 = g.tables[1+g.intn(len(g.tables)-1)]
		}
		kind := pick(g.r, []string{"JOIN", "JOIN", "JOIN", "LEFT JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"})
		if nJoins == 1 && t != g.tables[0] && t2 != g.tables[0] && g.chance(0.15) {
			// A cross product of two small tables.
			s.joins = append(s.joins, join{kind: "CROSS JOIN", ref: tableRef{name: t2.Name, alias: aliases[j]}})
			addTable(t2, aliases[j])
			prev = append(prev, t2)
			continue
		}
		// Join on the shared keys of a previous table: k always, g too
		// when both have it.
		other := g.intn(len(prev))
		oa := aliases[other]
		on := []*node{mk(TBool, "$ = $", leaf(TInt, oa+"."+keyInt), leaf(TInt, aliases[j]+"."+keyInt))}
		if prev[other].Col(keyStr) != nil && t2.Col(keyStr) != nil && g.chance(0.3) {
			on = append(on, mk(TBool, "$ = $", leaf(TStr, oa+"."+keyStr), leaf(TStr, aliases[j]+"."+keyStr)))
		}
		if g.chance(0.2) {
			on = []*node{mk(TBool, "$ = $", leaf(TStr, oa+"."+keyStr), leaf(TStr, aliases[j]+"."+keyStr))}
			if prev[other].Col(keyStr) == nil || t2.Col(keyStr) == nil {
				on[0] = mk(TBool, "$ = $", leaf(TInt, oa+"."+keyInt), leaf(TInt, aliases[j]+"."+keyInt))
			}
		}
		js := join{kind: kind, ref: tableRef{name: t2.Name, alias: aliases[j]}, on: on}
		// The ON of a join must only name tables already joined; a filter
		// on the right table in the ON of a LEFT JOIN is a classic trap.
		if g.chance(0.15) {
			inner := &scope{}
			for _, c := range t2.Cols {
				inner.cols = append(inner.cols, colRef{text: aliases[j] + "." + c.Name, typ: c.Type})
			}
			js.on = append(js.on, g.boolExpr(inner, 1, false))
		}
		s.joins = append(s.joins, js)
		addTable(t2, aliases[j])
		prev = append(prev, t2)
	}
	return sc
}

// pickTable picks a table, t1 with probability pFirst.
func (g *Generator) pickTable(pFirst float64) *Table {
	if g.chance(pFirst) {
		return g.tables[0]
	}
	return g.tables[1+g.intn(len(g.tables)-1)]
}

// selectStmt draws a select; top says whether it is the statement itself
// (a subquery in FROM gets no DISTINCT and no set operations).
func (g *Generator) selectStmt(depth int, top bool) (*selectStmt, *scope) {
	s := &selectStmt{}
	sc := g.fromClause(s, depth)
	for range g.intn(3) {
		s.where = append(s.where, g.boolExpr(sc, 2, depth > 1))
	}
	if g.chance(0.4) {
		g.aggregate(s, sc, depth)
		return s, sc
	}
	n := 1 + g.intn(4)
	for range n {
		s.items = append(s.items, g.expr(sc, g.itemType(), 2, depth > 1))
	}
	if s.from.name != "" && len(s.joins) == 0 && g.chance(0.2) {
		s.items[g.intn(len(s.items))] = g.window(sc)
	}
	if g.chance(0.15) {
		s.distinct = true
	}
	return s, sc
}

func (g *Generator) itemType() Type {
	return pick(g.r, []Type{TInt, TInt, TInt, TFloat, TDec, TStr, TStr, TBool, TDate, TTS})
}

// aggregate fills s with GROUP BY keys, aggregates over them and maybe
// HAVING.
func (g *Generator) aggregate(s *selectStmt, sc *scope, depth int) {
	nKeys := g.intn(3)
	for range nKeys {
		var k *node
		if g.chance(0.7) {
			k = g.column(sc, g.groupKeyType(sc))
		} else {
			k = g.expr(sc, g.groupKeyType(sc), 1, false)
		}
		if !k.hasColumn() {
			// A constant key such as GROUP BY 2 or GROUP BY (- 2) would
			// name a position in DuckDB.
			k = g.column(sc, TInt)
		}
		if !k.hasColumn() {
			continue
		}
		s.groupBy = append(s.groupBy, k)
	}
	for _, k := range s.groupBy {
		if g.chance(0.8) {
			s.items = append(s.items, k.clone())
		}
	}
	for range 1 + g.intn(3) {
		s.items = append(s.items, g.aggExpr(sc, s.groupBy, g.aggType(), 2))
	}
	if g.chance(0.3) {
		s.having = g.havingExpr(sc, s.groupBy)
	}
}

func (g *Generator) groupKeyType(sc *scope) Type {
	for range 10 {
		t := pick(g.r, []Type{TInt, TInt, TStr, TStr, TBool, TDate, TTS, TDec, TFloat})
		if len(sc.ofType(t)) > 0 {
			return t
		}
	}
	return TInt
}

func (g *Generator) aggType() Type {
	return pick(g.r, []Type{TInt, TInt, TInt, TFloat, TDec, TStr, TDate, TTS, TBool})
}

// aggExpr draws an expression of type t over aggregates and group keys.
func (g *Generator) aggExpr(sc *scope, keys []*node, t Type, depth int) *node {
	if depth > 0 && g.chance(0.25) {
		switch t {
		case TInt, TFloat, TDec:
			a := g.aggExpr(sc, keys, t, depth-1)
			b := g.aggExpr(sc, keys, pick(g.r, []Type{TInt, t}), depth-1)
			return mk(t, "($ "+pick(g.r, []string{"+", "-", "*"})+" $)", a, b)
		case TBool:
			return g.aggCompare(sc, keys, depth-1)
		case TStr:
			return mk(TStr, "coalesce($, $)", g.aggExpr(sc, keys, TStr, depth-1), g.literal(TStr))
		}
	}
	if len(keys) > 0 && g.chance(0.15) {
		for _, k := range keys {
			if k.typ == t {
				return k.clone()
			}
		}
	}
	return g.aggCall(sc, t)
}

// aggCall draws one aggregate call of result type t.
func (g *Generator) aggCall(sc *scope, t Type) *node {
	arg := func(at Type) *node {
		if g.chance(0.7) {
			return g.column(sc, at)
		}
		return g.expr(sc, at, 1, false)
	}
	var n *node
	switch t {
	case TInt:
		switch g.intn(6) {
		case 0:
			n = leaf(TInt, "COUNT(*)")
		case 1:
			n = mk(TInt, "COUNT($)", arg(g.anyType(sc)))
		case 2:
			n = mk(TInt, "COUNT(DISTINCT $)", arg(g.anyType(sc)))
		case 3:
			n = mk(TInt, pick(g.r, []string{"SUM($)", "SUM($)", "SUM(DISTINCT $)"}), arg(TInt))
		default:
			n = mk(TInt, pick(g.r, []string{"MIN($)", "MAX($)"}), arg(TInt))
		}
	case TFloat:
		switch g.intn(4) {
		case 0:
			n = mk(TFloat, pick(g.r, []string{"AVG($)", "AVG($)", "AVG(DISTINCT $)"}), arg(pick(g.r, []Type{TInt, TFloat, TDec})))
		case 1:
			n = mk(TFloat, "SUM($)", arg(TFloat))
		default:
			n = mk(TFloat, pick(g.r, []string{"MIN($)", "MAX($)", "AVG($)"}), arg(TFloat))
		}
	case TDec:
		n = mk(TDec, pick(g.r, []string{"SUM($)", "MIN($)", "MAX($)"}), arg(TDec))
	default:
		n = mk(t, pick(g.r, []string{"MIN($)", "MAX($)"}), arg(t))
	}
	n.agg = true
	return n
}

// anyType picks the type of some column in scope.
func (g *Generator) anyType(sc *scope) Type {
	return sc.cols[g.intn(len(sc.cols))].typ
}

func (g *Generator) aggCompare(sc *scope, keys []*node, depth int) *node {
	t := pick(g.r, []Type{TInt, TInt, TFloat, TDec, TStr, TDate})
	a := g.aggExpr(sc, keys, t, depth)
	var b *node
	if g.chance(0.6) {
		b = g.literal(t)
	} else {
		b = g.aggExpr(sc, keys, t, depth)
	}
	return mk(TBool, "($ "+pick(g.r, []string{"=", "<>", "<", "<=", ">", ">="})+" $)", a, b)
}

func (g *Generator) havingExpr(sc *scope, keys []*node) *node {
	c := g.aggCompare(sc, keys, 1)
	if g.chance(0.25) {
		return mk(TBool, "($ "+pick(g.r, []string{"AND", "OR"})+" $)", c, g.aggCompare(sc, keys, 0))
	}
	return c
}

// selectLike draws a select that can follow s in a UNION: as many items,
// each of a type the engines unify with s's.
func (g *Generator) selectLike(s *selectStmt, _ *scope) *selectStmt {
	s2 := &selectStmt{}
	sc := g.fromClause(s2, 1)
	for range g.intn(2) {
		s2.where = append(s2.where, g.boolExpr(sc, 2, false))
	}
	for i, it := range s.items {
		t := it.typ
		if t == TInt && g.chance(0.2) {
			t = TFloat
		}
		it2 := g.expr(sc, t, 1, false)
		if t == TDec {
			// DuckDB caps the union of two decimals at 38 digits by
			// dropping fractional digits (DECIMAL(37,0) with
			// DECIMAL(22,2) gives DECIMAL(38,1) and rounds 0.25 to 0.3);
			// carquet keeps them. Both branches get one type instead.
			s.items[i] = pin(mk(TDec, "CAST($ AS DECIMAL(38,6))", it))
			it2 = pin(mk(TDec, "CAST($ AS DECIMAL(38,6))", it2))
		}
		s2.items = append(s2.items, it2)
	}
	return s2
}

func pin(n *node) *node { n.pinned = true; return n }

// column picks a column of type t; when there is none, an expression of
// type t over a column of another type (so that fewer expressions are
// constant), or a literal as a last resort.
func (g *Generator) column(sc *scope, t Type) *node {
	if cs := sc.ofType(t); len(cs) > 0 {
		n := leaf(t, cs[g.intn(len(cs))].text)
		n.col = true
		return n
	}
	has := func(t Type) bool { return len(sc.ofType(t)) > 0 }
	if t == TInt || !has(TInt) && !(t == TDate && has(TTS)) && !(t == TTS && has(TDate)) {
		return g.literal(t)
	}
	i := func() *node { return g.column(sc, TInt) }
	switch t {
	case TFloat:
		return mk(t, "($ / 8)", i())
	case TDec:
		return pick(g.r, []func() *node{
			func() *node { return mk(t, "($ * 0.25)", i()) },
			func() *node { return mk(t, "CAST($ AS DECIMAL(18,3))", i()) },
		})()
	case TStr:
		return mk(t, "CAST($ AS VARCHAR)", i())
	case TBool:
		return mk(t, "($ % 2 = 0)", i())
	case TDate:
		if has(TTS) {
			return mk(t, "CAST($ AS DATE)", g.column(sc, TTS))
		}
		// The CAST: DuckDB has no make_date for a HUGEINT (its SUM of
		// a BIGINT).
		return mk(t, "make_date(2024, 1, CAST(1 + abs($ % 28) AS BIGINT))", i())
	case TTS:
		if has(TDate) {
			return mk(t, "CAST($ AS TIMESTAMP)", g.column(sc, TDate))
		}
		return mk(t, "make_timestamp(2024, 1, 1, CAST(abs($ % 24) AS BIGINT), 30, 0)", i())
	}
	return g.literal(t)
}

// literal draws a constant of type t (sometimes NULL, typed).
func (g *Generator) literal(t Type) *node {
	n := g.constant(t)
	n.lit = true
	return n
}

func (g *Generator) constant(t Type) *node {
	if g.chance(0.03) {
		return leaf(t, "CAST(NULL AS "+castName(t)+")")
	}
	switch t {
	case TInt:
		return leaf(t, pick(g.r, []string{"0", "1", "2", "3", "-1", "5", "-7", "10", "20", "1000", "1000000"}))
	case TFloat:
		return leaf(t, "CAST("+pick(g.r, []string{"0.5", "1.5", "-2.25", "0", "100.125", "1e10", "0.1"})+" AS DOUBLE)")
	case TDec:
		return leaf(t, pick(g.r, []string{"1.25", "-3.5", "0.01", "10.00", "0.0", "12.345"}))
	case TStr:
		return leaf(t, quote(pick(g.r, []string{"", "a", "b", "ab", "abc", "ba", "B", "é", "c", "a b"})))
	case TBool:
		return leaf(t, pick(g.r, []string{"true", "false"}))
	case TDate:
		return leaf(t, "DATE '"+pick(g.r, []string{"2024-01-01", "2023-12-15", "2024-02-29", "1970-01-01", "2024-03-31"})+"'")
	case TTS:
		return leaf(t, "TIMESTAMP '"+pick(g.r, []string{"2024-01-01 00:00:00", "2023-12-15 12:30:00", "2024-02-29 23:59:59", "1970-01-01 00:00:00", "2024-01-10 06:15:00.5"})+"'")
	}
	return leaf(t, "NULL")
}

func castName(t Type) string {
	return [...]string{"BIGINT", "DOUBLE", "DECIMAL(18,3)", "VARCHAR", "BOOLEAN", "DATE", "TIMESTAMP"}[t]
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// expr draws an expression of type t. sub says whether subqueries may
// appear in it.
func (g *Generator) expr(sc *scope, t Type, depth int, sub bool) *node {
	if depth <= 0 || g.chance(0.35) {
		if g.chance(0.8) {
			return g.column(sc, t)
		}
		return g.literal(t)
	}
	d := depth - 1
	e := func(t Type) *node { return g.expr(sc, t, d, sub) }
	switch t {
	case TBool:
		return g.boolExpr(sc, depth, sub)
	case TInt:
		switch g.intn(16) {
		case 0, 1:
			return mk(t, "($ "+pick(g.r, []string{"+", "-", "*"})+" $)", e(TInt), e(TInt))
		case 2:
			return mk(t, "abs($)", e(TInt))
		case 3:
			return mk(t, "(- $)", e(TInt))
		case 4:
			return mk(t, "($ % "+pick(g.r, []string{"3", "7", "-4", "2"})+")", e(TInt))
		case 5:
			return mk(t, "length($)", e(TStr))
		case 6:
			return mk(t, pick(g.r, []string{"year($)", "month($)", "day($)", "dayofweek($)", "quarter($)", "dayofyear($)"}), e(pick(g.r, []Type{TDate, TTS})))
		case 7:
			return mk(t, pick(g.r, []string{"hour($)", "minute($)"}), e(TTS))
		case 8:
			return mk(t, "date_diff('"+pick(g.r, []string{"day", "month", "year"})+"', $, $)", e(TDate), e(TDate))
		case 9:
			return g.caseExpr(sc, t, d, sub)
		case 10:
			return mk(t, "coalesce($, $)", e(TInt), e(TInt))
		case 11:
			return mk(t, "CAST($ AS BIGINT)", e(pick(g.r, []Type{TFloat, TDec, TBool})))
		case 12:
			return mk(t, pick(g.r, []string{"greatest($, $)", "least($, $)"}), e(TInt), e(TInt))
		case 13:
			return mk(t, "strpos($, "+quote(pick(g.r, []string{"a", "b", "ab"}))+")", e(TStr))
		case 14:
			if sub && g.chance(0.5) {
				return g.scalarSubquery(TInt)
			}
			return mk(t, "nullif($, $)", e(TInt), e(TInt))
		default:
			return mk(t, "sign($)", e(TInt))
		}
	case TFloat:
		switch g.intn(10) {
		case 0, 1:
			return mk(t, "($ "+pick(g.r, []string{"+", "-", "*"})+" $)", e(TFloat), e(pick(g.r, []Type{TFloat, TInt})))
		case 2:
			return mk(t, "($ / $)", e(pick(g.r, []Type{TFloat, TInt, TDec})), e(pick(g.r, []Type{TFloat, TInt, TDec})))
		case 3:
			return mk(t, "sqrt(abs($))", e(TFloat))
		case 4:
			return mk(t, pick(g.r, []string{"floor($)", "ceil($)", "abs($)", "round($)", "round($, 1)"}), e(TFloat))
		case 5:
			return mk(t, "CAST($ AS DOUBLE)", e(pick(g.r, []Type{TInt, TDec})))
		case 6:
			return g.caseExpr(sc, t, d, sub)
		case 7:
			return mk(t, "coalesce($, $)", e(TFloat), e(TFloat))
		case 8:
			return mk(t, "(- $)", e(TFloat))
		default:
			return mk(t, pick(g.r, []string{"greatest($, $)", "least($, $)"}), e(TFloat), e(TFloat))
		}
	case TDec:
		switch g.intn(8) {
		case 0, 1:
			return mk(t, "($ "+pick(g.r, []string{"+", "-"})+" $)", e(TDec), e(pick(g.r, []Type{TDec, TInt})))
		case 2:
			return mk(t, "($ * $)", e(TDec), e(TInt))
		case 3:
			return mk(t, pick(g.r, []string{"abs($)", "round($, 1)", "round($)", "floor($)", "ceil($)", "(- $)"}), e(TDec))
		case 4:
			return mk(t, "CAST($ AS DECIMAL(18,3))", e(pick(g.r, []Type{TInt, TDec})))
		case 5:
			return g.caseExpr(sc, t, d, sub)
		default:
			return mk(t, "coalesce($, $)", e(TDec), e(TDec))
		}
	case TStr:
		switch g.intn(14) {
		case 0:
			return mk(t, pick(g.r, []string{"lower($)", "upper($)", "reverse($)", "trim($)", "ltrim($)", "rtrim($)"}), e(TStr))
		case 1:
			return mk(t, "($ || $)", e(TStr), e(TStr))
		case 2:
			return mk(t, "concat($, $)", e(TStr), e(TStr))
		case 3:
			return mk(t, "substring($, "+pick(g.r, []string{"1", "2", "0", "-1"})+", "+pick(g.r, []string{"1", "2", "3"})+")", e(TStr))
		case 4:
			return mk(t, pick(g.r, []string{"left($, 2)", "right($, 1)", "left($, 0)"}), e(TStr))
		case 5:
			return mk(t, "replace($, 'a', 'xy')", e(TStr))
		case 6:
			return mk(t, pick(g.r, []string{"lpad($, 3, '*')", "rpad($, 2, '-')"}), e(TStr))
		case 7:
			return mk(t, "CAST($ AS VARCHAR)", e(pick(g.r, []Type{TInt, TDate, TBool, TDec})))
		case 8:
			return g.caseExpr(sc, t, d, sub)
		case 9:
			return mk(t, "coalesce($, $)", e(TStr), e(TStr))
		case 10:
			return mk(t, "nullif($, 'a')", e(TStr))
		case 11:
			return mk(t, "repeat($, 2)", e(TStr))
		case 12:
			return mk(t, "split_part($, 'a', "+pick(g.r, []string{"1", "2"})+")", e(TStr))
		default:
			return mk(t, pick(g.r, []string{"greatest($, $)", "least($, $)"}), e(TStr), e(TStr))
		}
	case TDate:
		switch g.intn(6) {
		case 0:
			return mk(t, "CAST($ AS DATE)", e(TTS))
		case 1:
			return mk(t, "last_day($)", e(TDate))
		case 2:
			return g.caseExpr(sc, t, d, sub)
		case 3:
			return mk(t, "coalesce($, $)", e(TDate), e(TDate))
		case 4:
			return mk(t, "make_date($, 2, 28)", mk(TInt, "year($)", e(TDate)))
		default:
			return mk(t, pick(g.r, []string{"greatest($, $)", "least($, $)"}), e(TDate), e(TDate))
		}
	case TTS:
		switch g.intn(6) {
		case 0:
			return mk(t, "date_trunc('"+pick(g.r, []string{"hour", "day", "month", "year", "minute", "week", "quarter"})+"', $)", e(pick(g.r, []Type{TTS, TDate})))
		case 1:
			return mk(t, "CAST($ AS TIMESTAMP)", e(TDate))
		case 2:
			return mk(t, "($ + INTERVAL "+pick(g.r, []string{"1 DAY", "2 HOUR", "1 MONTH", "30 MINUTE"})+")", e(pick(g.r, []Type{TTS, TDate})))
		case 3:
			return g.caseExpr(sc, t, d, sub)
		case 4:
			return mk(t, "coalesce($, $)", e(TTS), e(TTS))
		default:
			return mk(t, pick(g.r, []string{"greatest($, $)", "least($, $)"}), e(TTS), e(TTS))
		}
	}
	return g.literal(t)
}

func (g *Generator) caseExpr(sc *scope, t Type, depth int, sub bool) *node {
	if g.chance(0.5) {
		return mk(t, "CASE WHEN $ THEN $ ELSE $ END", g.boolExpr(sc, depth, sub), g.expr(sc, t, depth, sub), g.expr(sc, t, depth, sub))
	}
	if g.chance(0.5) {
		return mk(t, "CASE WHEN $ THEN $ END", g.boolExpr(sc, depth, sub), g.expr(sc, t, depth, sub))
	}
	// Simple CASE over a column.
	ct := g.anyType(sc)
	if ct == TFloat {
		ct = TInt
	}
	return mk(t, "CASE $ WHEN $ THEN $ WHEN $ THEN $ ELSE $ END",
		g.column(sc, ct), g.literal(ct), g.expr(sc, t, depth, sub), g.literal(ct), g.expr(sc, t, depth, sub), g.expr(sc, t, depth, sub))
}

// comparable picks the type of the right side of a comparison with a left
// side of type t: the same type, or one both engines compare with it.
func (g *Generator) comparable(t Type) Type {
	if g.chance(0.8) {
		return t
	}
	switch t {
	case TInt, TFloat, TDec:
		return pick(g.r, []Type{TInt, TFloat, TDec})
	case TDate:
		return TTS
	case TTS:
		return TDate
	}
	return t
}

// boolExpr draws a predicate. Every predicate but a bare column comes in
// parentheses: the engines' grammars rank IS, LIKE and comparisons
// differently (carquet's MySQL grammar refuses x LIKE 'a%' >= y, which
// DuckDB reads), and the generator only writes what both read the same.
func (g *Generator) boolExpr(sc *scope, depth int, sub bool) *node {
	return parenthesize(g.predicate(sc, depth, sub))
}

// parenthesize puts n in parentheses unless it is a single token or
// already parenthesized as a whole.
func parenthesize(n *node) *node {
	if len(n.args) == 0 && n.sub == nil {
		return n
	}
	if wrapped(n.String()) {
		return n
	}
	n.parts[0] = "(" + n.parts[0]
	n.parts[len(n.parts)-1] += ")"
	return n
}

// wrapped reports whether s is one parenthesized expression: its first
// parenthesis closes at its end.
func wrapped(s string) bool {
	if !strings.HasPrefix(s, "(") {
		return false
	}
	depth, inStr := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case inStr:
			inStr = c != '\''
		case c == '\'':
			inStr = true
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return i == len(s)-1
			}
		}
	}
	return false
}

func (g *Generator) predicate(sc *scope, depth int, sub bool) *node {
	d := max(depth-1, 0)
	if depth > 0 && g.chance(0.25) {
		switch g.intn(3) {
		case 0:
			return mk(TBool, "($ AND $)", g.boolExpr(sc, d, sub), g.boolExpr(sc, d, sub))
		case 1:
			return mk(TBool, "($ OR $)", g.boolExpr(sc, d, sub), g.boolExpr(sc, d, sub))
		default:
			return mk(TBool, "(NOT $)", g.boolExpr(sc, d, sub))
		}
	}
	lhs := func(t Type) *node {
		if g.chance(0.75) {
			return g.column(sc, t)
		}
		return g.expr(sc, t, d, false)
	}
	t := g.anyType(sc)
	switch g.intn(14) {
	case 0, 1, 2, 3:
		rt := g.comparable(t)
		var rhs *node
		if g.chance(0.7) {
			rhs = g.literal(rt)
		} else {
			rhs = g.expr(sc, rt, d, false)
		}
		return mk(TBool, "$ "+pick(g.r, []string{"=", "<>", "<", "<=", ">", ">=", "!="})+" $", lhs(t), rhs)
	case 4:
		return mk(TBool, "$ "+pick(g.r, []string{"IS NULL", "IS NOT NULL"}), lhs(t))
	case 5:
		if t == TBool {
			t = TInt
		}
		n := 1 + g.intn(4)
		parts := []string{"", pick(g.r, []string{" IN (", " NOT IN ("})}
		args := []*node{lhs(t)}
		for i := range n {
			if i > 0 {
				parts = append(parts, ", ")
			}
			switch {
			case g.chance(0.1):
				args = append(args, leaf(t, "NULL"))
			case g.chance(0.15):
				args = append(args, g.literal(g.comparable(t)))
			default:
				args = append(args, g.literal(t))
			}
		}
		parts = append(parts, ")")
		return &node{typ: TBool, parts: parts, args: args}
	case 6:
		if t == TBool {
			t = TInt
		}
		lo, hi := g.literal(t), g.literal(t)
		if g.chance(0.25) {
			lo = g.column(sc, t)
		}
		return mk(TBool, "$"+pick(g.r, []string{" BETWEEN ", " NOT BETWEEN "})+"$ AND $", lhs(t), lo, hi)
	case 7, 8:
		pat := pick(g.r, []string{"a%", "ab%", "%b%", "%a", "a_", "_", "%", "", "b%", "%a%b%", "A%", "a\\_b"})
		if strings.Contains(pat, "\\") {
			return mk(TBool, "$ LIKE "+quote(pat)+" ESCAPE '\\'", lhs(TStr))
		}
		return mk(TBool, "$ "+pick(g.r, []string{"LIKE", "LIKE", "NOT LIKE"})+" "+quote(pat), lhs(TStr))
	case 9:
		if len(sc.ofType(TBool)) > 0 {
			return g.column(sc, TBool)
		}
		return mk(TBool, pick(g.r, []string{"starts_with($, 'a')", "contains($, 'b')", "ends_with($, 'a')"}), lhs(TStr))
	case 10:
		if sub {
			return g.inSubquery(sc, t)
		}
		return mk(TBool, pick(g.r, []string{"starts_with($, 'a')", "contains($, 'b')"}), lhs(TStr))
	case 11:
		if sub {
			ft := t
			if ft == TBool {
				ft = TInt
			}
			return mk(TBool, "$ "+pick(g.r, []string{"=", "<", ">="})+" $", lhs(ft), g.scalarSubquery(ft))
		}
		fallthrough
	case 12:
		if sub && g.chance(0.5) {
			s := g.subSelect(TInt)
			n := &node{typ: TBool, parts: []string{pick(g.r, []string{"EXISTS (", "NOT EXISTS ("}), ")"}, sub: s}
			return n
		}
		return mk(TBool, "$ IS "+pick(g.r, []string{"TRUE", "FALSE", "NOT TRUE"}), g.boolExpr(sc, 0, false))
	default:
		rt := g.comparable(t)
		return mk(TBool, "$ "+pick(g.r, []string{"=", "<>", "<", ">="})+" $", lhs(t), g.column(sc, rt))
	}
}

// subSelect draws an uncorrelated select of one column of type t over
// one table.
func (g *Generator) subSelect(t Type) *selectStmt {
	s := &selectStmt{}
	tb := g.pickTable(0.3)
	s.from = tableRef{name: tb.Name}
	sc := &scope{}
	for _, c := range tb.Cols {
		sc.cols = append(sc.cols, colRef{text: c.Name, typ: c.Type})
	}
	if g.chance(0.6) {
		s.where = append(s.where, g.boolExpr(sc, 1, false))
	}
	s.items = []*node{g.column(sc, t)}
	return s
}

func (g *Generator) inSubquery(sc *scope, t Type) *node {
	if t == TBool || t == TFloat {
		t = TInt
	}
	s := g.subSelect(t)
	return &node{typ: TBool, parts: []string{"", pick(g.r, []string{" IN (", " IN (", " NOT IN ("}), ")"}, args: []*node{g.column(sc, t)}, sub: s}
}

// scalarSubquery is an uncorrelated subquery returning one value: an
// aggregate over a table.
func (g *Generator) scalarSubquery(t Type) *node {
	s := g.subSelect(t)
	agg := pick(g.r, []string{"MIN($)", "MAX($)"})
	if t == TInt && g.chance(0.3) {
		agg = "COUNT($)"
	}
	s.items[0] = mk(t, agg, s.items[0])
	s.items[0].agg = true
	return &node{typ: t, parts: []string{"(", ")"}, sub: s}
}

// window draws a window function over a single table, whose unique id
// makes every ORDER BY inside OVER total where ties would make the result
// depend on the engine (ROW_NUMBER, LAG, FIRST_VALUE, NTILE). RANK,
// DENSE_RANK and running aggregates (whose default frame takes in the
// peers of the current row) are deterministic with ties, so they order by
// a column alone.
func (g *Generator) window(sc *scope) *node {
	var args []*node
	over := "OVER ("
	if g.chance(0.8) {
		args = append(args, g.column(sc, pick(g.r, []Type{TInt, TStr, TBool, TDate})))
		over += "PARTITION BY $ "
	}
	ordered := func(total bool) (string, []*node) {
		o := g.column(sc, g.anyType(sc))
		dir := pick(g.r, []string{"", "", " DESC"})
		if total {
			return over + "ORDER BY $" + dir + ", id)", append(append([]*node(nil), args...), o)
		}
		return over + "ORDER BY $" + dir + ")", append(append([]*node(nil), args...), o)
	}
	plain := over + ")"
	var n *node
	switch g.intn(9) {
	case 0:
		tmpl, a := ordered(false)
		n = mk(TInt, pick(g.r, []string{"RANK() ", "DENSE_RANK() "})+tmpl, a...)
	case 1:
		tmpl, a := ordered(true)
		n = mk(TInt, "ROW_NUMBER() "+tmpl, a...)
	case 2:
		n = mk(TInt, "COUNT(*) "+plain, args...)
	case 3:
		// Sums of small integers or of floats and decimals: the running
		// sum of BIGINT extremes would only show SUM's known overflow.
		x := pick(g.r, []Type{TInt, TFloat, TDec})
		var arg *node
		if x == TInt {
			arg = leaf(TInt, pick(g.r, []string{"id", "k"}))
		} else {
			arg = g.column(sc, x)
		}
		if g.chance(0.5) {
			tmpl, a := ordered(false)
			n = mk(x, "SUM($) "+tmpl, append([]*node{arg}, a...)...)
		} else {
			n = mk(x, "SUM($) "+plain, append([]*node{arg}, args...)...)
		}
	case 4:
		x := g.anyType(sc)
		n = mk(x, pick(g.r, []string{"MIN($) ", "MAX($) "})+plain, append([]*node{g.column(sc, x)}, args...)...)
	case 5:
		x := g.anyType(sc)
		tmpl, a := ordered(true)
		n = mk(x, pick(g.r, []string{"LAG($) ", "LEAD($) ", "LAG($, 2) ", "FIRST_VALUE($) "})+tmpl, append([]*node{g.column(sc, x)}, a...)...)
	case 6:
		tmpl, a := ordered(true)
		n = mk(TInt, "NTILE(3) "+tmpl, a...)
	case 7:
		tmpl, a := ordered(false)
		n = mk(TInt, "COUNT($) "+tmpl, append([]*node{g.column(sc, g.anyType(sc))}, a...)...)
	default:
		x := pick(g.r, []Type{TFloat, TDec})
		n = mk(TFloat, "AVG($) "+plain, append([]*node{g.column(sc, x)}, args...)...)
	}
	return pin(n)
}
