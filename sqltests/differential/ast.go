package differential

import (
	"fmt"
	"strings"
)

// node is an expression: text pieces around its arguments, so that the
// minimizer can replace any node by one of its arguments of the same type.
// A node with a subquery renders it after its last argument:
// parts[0] args[0] parts[1] ... args[n-1] parts[n] sub parts[n+1].
type node struct {
	typ Type
	agg bool // holds an aggregate call (outside subqueries)
	lit bool // a constant
	col bool // a column reference
	// pinned nodes are never replaced by an argument when minimizing:
	// they keep a statement inside the dialect both engines share.
	pinned bool
	parts  []string
	args   []*node
	sub    *selectStmt
}

func leaf(t Type, text string) *node { return &node{typ: t, parts: []string{text}} }

// mk builds a node from a template where each "$" stands for the next
// argument, e.g. mk(TInt, "($ + $)", a, b).
func mk(t Type, tmpl string, args ...*node) *node {
	parts := strings.Split(tmpl, "$")
	if len(parts) != len(args)+1 {
		panic(fmt.Sprintf("template %q takes %d arguments, got %d", tmpl, len(parts)-1, len(args)))
	}
	n := &node{typ: t, parts: parts, args: args}
	for _, a := range args {
		n.agg = n.agg || a.agg
	}
	return n
}

// hasColumn reports whether n reads a column (outside subqueries).
func (n *node) hasColumn() bool {
	if n.col {
		return true
	}
	for _, a := range n.args {
		if a.hasColumn() {
			return true
		}
	}
	return false
}

func (n *node) write(b *strings.Builder) {
	for i, p := range n.parts {
		b.WriteString(p)
		switch {
		case i < len(n.args):
			n.args[i].write(b)
		case i == len(n.args) && n.sub != nil:
			n.sub.write(b)
		}
	}
}

func (n *node) String() string {
	var b strings.Builder
	n.write(&b)
	return b.String()
}

func (n *node) clone() *node {
	if n == nil {
		return nil
	}
	c := *n
	c.parts = append([]string(nil), n.parts...)
	c.args = make([]*node, len(n.args))
	for i, a := range n.args {
		c.args[i] = a.clone()
	}
	c.sub = n.sub.clone()
	return &c
}

// tableRef is a table in FROM: a stored table or a derived table.
type tableRef struct {
	name  string
	alias string
	sub   *selectStmt
	// lateral writes LATERAL before a derived table (ast_shapes.go).
	lateral bool
}

type join struct {
	kind string // "JOIN", "LEFT JOIN", "RIGHT JOIN" or "CROSS JOIN" (no ON)
	ref  tableRef
	on   []*node
	// using, when set, is the join's USING list instead of ON.
	using []string
}

type selectStmt struct {
	distinct bool
	items    []*node
	from     tableRef
	joins    []join
	where    []*node
	groupBy  []*node
	having   *node
	// order and limit belong to a select that is a subquery (a top-level
	// query keeps them in query).
	shape
}

type orderKey struct {
	pos  int // 0-based position in the select list
	desc bool
}

// query is a statement: one or more selects joined by UNION [ALL], then
// ORDER BY (made total: every select-list position not among the keys is
// appended as a tie-breaker), LIMIT and OFFSET.
type query struct {
	sels   []*selectStmt
	unions []string // "UNION ALL", "UNION", "INTERSECT [ALL]", "EXCEPT [ALL]"; len(sels)-1
	// with writes the first select's derived table as a WITH.
	with    bool
	ordered bool
	// byName writes ORDER BY keys as the select-list aliases (c0, c1,
	// ...) instead of positions.
	byName bool
	order  []orderKey
	limit  int // -1 for none
	offset int // 0 for none
	queryShape
}

func (s *selectStmt) clone() *selectStmt {
	if s == nil {
		return nil
	}
	c := *s
	c.items = cloneNodes(s.items)
	c.from = s.from.clone()
	c.joins = make([]join, len(s.joins))
	for i, j := range s.joins {
		c.joins[i] = join{kind: j.kind, ref: j.ref.clone(), on: cloneNodes(j.on), using: j.using}
	}
	c.where = cloneNodes(s.where)
	c.groupBy = cloneNodes(s.groupBy)
	c.having = s.having.clone()
	c.shape = s.shape.clone()
	return &c
}

func (t tableRef) clone() tableRef {
	t.sub = t.sub.clone()
	return t
}

func cloneNodes(ns []*node) []*node {
	if ns == nil {
		return nil
	}
	out := make([]*node, len(ns))
	for i, n := range ns {
		out[i] = n.clone()
	}
	return out
}

func (q *query) clone() *query {
	c := *q
	c.sels = make([]*selectStmt, len(q.sels))
	for i, s := range q.sels {
		c.sels[i] = s.clone()
	}
	c.unions = append([]string(nil), q.unions...)
	c.order = append([]orderKey(nil), q.order...)
	c.queryShape = q.queryShape.clone()
	return &c
}

func (t tableRef) write(b *strings.Builder) {
	if t.sub != nil {
		if t.lateral {
			b.WriteString("LATERAL ")
		}
		b.WriteString("(")
		t.sub.write(b)
		b.WriteString(")")
	} else {
		b.WriteString(t.name)
	}
	if t.alias != "" {
		b.WriteString(" " + t.alias)
	}
}

func (s *selectStmt) write(b *strings.Builder) {
	b.WriteString("SELECT ")
	if s.distinct {
		b.WriteString("DISTINCT ")
	}
	s.writeDistinctOn(b)
	for i, it := range s.items {
		if i > 0 {
			b.WriteString(", ")
		}
		it.write(b)
		if len(it.parts) != 1 || it.parts[0] != "*" {
			fmt.Fprintf(b, " AS c%d", i)
		}
	}
	b.WriteString(" FROM ")
	s.from.write(b)
	for _, j := range s.joins {
		b.WriteString(" " + j.kind + " ")
		j.ref.write(b)
		if len(j.on) > 0 {
			b.WriteString(" ON ")
			writeConj(b, j.on)
		}
		if len(j.using) > 0 {
			b.WriteString(" USING (" + strings.Join(j.using, ", ") + ")")
		}
	}
	if len(s.where) > 0 {
		b.WriteString(" WHERE ")
		writeConj(b, s.where)
	}
	if len(s.groupBy) > 0 {
		b.WriteString(" GROUP BY ")
		s.writeGroupBy(b)
	}
	if s.having != nil {
		b.WriteString(" HAVING ")
		s.having.write(b)
	}
	s.writeTail(b)
}

func writeConj(b *strings.Builder, ns []*node) {
	for i, n := range ns {
		if i > 0 {
			b.WriteString(" AND ")
		}
		n.write(b)
	}
}

// orderPositions is the ORDER BY of q made total: the keys, then every
// other position ascending.
func (q *query) orderPositions() []orderKey {
	if !q.ordered {
		return nil
	}
	n := len(q.sels[0].items)
	seen := make([]bool, n)
	var out []orderKey
	for _, k := range q.order {
		if k.pos < n && !seen[k.pos] {
			seen[k.pos] = true
			out = append(out, k)
		}
	}
	for p := range n {
		if !seen[p] {
			out = append(out, orderKey{pos: p})
		}
	}
	return out
}

// SQL renders the statement.
func (q *query) SQL() string {
	var b strings.Builder
	q.writeCTEs(&b)
	sels := q.sels
	if q.with && sels[0].from.sub != nil {
		// WITH sqN AS (...) SELECT ... FROM sqN: the first select's
		// derived table as a common table expression.
		first := *sels[0]
		fmt.Fprintf(&b, "WITH %s AS (", first.from.alias)
		first.from.sub.write(&b)
		b.WriteString(") ")
		first.from = tableRef{name: first.from.alias}
		sels = append([]*selectStmt{&first}, sels[1:]...)
	}
	for i, s := range sels {
		if i > 0 {
			b.WriteString(" " + q.unions[i-1] + " ")
		}
		q.openParen(&b, i)
		s.write(&b)
		q.closeParen(&b, i)
	}
	if q.ordered {
		b.WriteString(" ORDER BY ")
		q.writeOrderExprs(&b)
		for i, k := range q.orderPositions() {
			if i > 0 || len(q.orderExprs) > 0 {
				b.WriteString(", ")
			}
			if q.byName {
				fmt.Fprintf(&b, "c%d", k.pos)
			} else {
				fmt.Fprintf(&b, "%d", k.pos+1)
			}
			if k.desc {
				b.WriteString(" DESC")
			}
		}
		if q.limit >= 0 {
			fmt.Fprintf(&b, " LIMIT %d", q.limit)
			if q.offset > 0 {
				fmt.Fprintf(&b, " OFFSET %d", q.offset)
			}
		}
	}
	return b.String()
}

// selects lists every select of q, nested ones included, in a fixed
// order, so that an edit found on one copy of q applies to another.
func (q *query) selects() []*selectStmt {
	var out []*selectStmt
	var visitNode func(n *node)
	var visit func(s *selectStmt)
	visitNode = func(n *node) {
		if n == nil {
			return
		}
		for _, a := range n.args {
			visitNode(a)
		}
		if n.sub != nil {
			visit(n.sub)
		}
	}
	visit = func(s *selectStmt) {
		out = append(out, s)
		if s.from.sub != nil {
			visit(s.from.sub)
		}
		for _, j := range s.joins {
			if j.ref.sub != nil {
				visit(j.ref.sub)
			}
			for _, n := range j.on {
				visitNode(n)
			}
		}
		for _, n := range s.items {
			visitNode(n)
		}
		for _, n := range s.where {
			visitNode(n)
		}
		for _, n := range s.groupBy {
			visitNode(n)
		}
		visitNode(s.having)
		for _, n := range s.shape.nodes() {
			visitNode(n)
		}
	}
	for _, s := range q.sels {
		visit(s)
	}
	for _, c := range q.ctes {
		if c.body != nil {
			visit(c.body)
		}
	}
	return out
}

// slots lists a pointer to every expression slot of q (nested ones
// included) in a fixed order.
func (q *query) slots() []**node {
	var out []**node
	var visitNode func(p **node)
	visitNode = func(p **node) {
		if *p == nil {
			return
		}
		out = append(out, p)
		for i := range (*p).args {
			visitNode(&(*p).args[i])
		}
	}
	for _, s := range q.selects() {
		for i := range s.items {
			visitNode(&s.items[i])
		}
		for i := range s.where {
			visitNode(&s.where[i])
		}
		for i := range s.groupBy {
			visitNode(&s.groupBy[i])
		}
		visitNode(&s.having)
		for _, p := range s.shape.slots() {
			visitNode(p)
		}
		for ji := range s.joins {
			for i := range s.joins[ji].on {
				visitNode(&s.joins[ji].on[i])
			}
		}
	}
	for i := range q.orderExprs {
		visitNode(&q.orderExprs[i])
	}
	return out
}
