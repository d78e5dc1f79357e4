package differential

import (
	"fmt"
	"strings"
)

// shape holds the parts of a select that only the query shapes of
// gen_shapes.go draw; the zero shape writes nothing.
type shape struct {
	distinctOn []*node
	// grouping is "", "ROLLUP", "CUBE" or "GROUPING SETS"; sets lists
	// the GROUP BY positions of each grouping set.
	grouping string
	sets     [][]int
	windows  []*node // WINDOW definitions, "wN AS (...)"
	qualify  *node
	// orderBy (each key carries its direction), limit and offset of a
	// subquery; the ORDER BY is total. limit 0 means none.
	orderBy []*node
	limit   int
	offset  int
}

func (sh shape) clone() shape {
	c := sh
	c.distinctOn = cloneNodes(sh.distinctOn)
	c.sets = append([][]int(nil), sh.sets...)
	c.windows = cloneNodes(sh.windows)
	c.qualify = sh.qualify.clone()
	c.orderBy = cloneNodes(sh.orderBy)
	return c
}

// nodes lists the shape's expressions, for visiting their subqueries.
func (sh *shape) nodes() []*node {
	out := append(append(append([]*node(nil), sh.distinctOn...), sh.windows...), sh.orderBy...)
	if sh.qualify != nil {
		out = append(out, sh.qualify)
	}
	return out
}

// slots lists the shape's expression slots, for the minimizer.
func (sh *shape) slots() []**node {
	var out []**node
	for _, ns := range [][]*node{sh.distinctOn, sh.windows, sh.orderBy} {
		for i := range ns {
			out = append(out, &ns[i])
		}
	}
	if sh.qualify != nil {
		out = append(out, &sh.qualify)
	}
	return out
}

func (s *selectStmt) writeDistinctOn(b *strings.Builder) {
	if len(s.distinctOn) > 0 {
		b.WriteString("DISTINCT ON (")
		writeList(b, s.distinctOn)
		b.WriteString(") ")
	}
}

func writeList(b *strings.Builder, ns []*node) {
	for i, n := range ns {
		if i > 0 {
			b.WriteString(", ")
		}
		n.write(b)
	}
}

// writeGroupBy writes the keys, as a list or as ROLLUP, CUBE or
// GROUPING SETS of them. A set naming a key the minimizer dropped loses
// that key.
func (s *selectStmt) writeGroupBy(b *strings.Builder) {
	switch s.grouping {
	case "":
		writeList(b, s.groupBy)
	case "GROUPING SETS":
		b.WriteString("GROUPING SETS (")
		for i, set := range s.sets {
			if i > 0 {
				b.WriteString(", ")
			}
			var keys []*node
			for _, p := range set {
				if p < len(s.groupBy) {
					keys = append(keys, s.groupBy[p])
				}
			}
			b.WriteString("(")
			writeList(b, keys)
			b.WriteString(")")
		}
		b.WriteString(")")
	default:
		b.WriteString(s.grouping + " (")
		writeList(b, s.groupBy)
		b.WriteString(")")
	}
}

// writeTail writes what follows HAVING: WINDOW, QUALIFY, and a
// subquery's ORDER BY, LIMIT and OFFSET.
func (s *selectStmt) writeTail(b *strings.Builder) {
	if len(s.windows) > 0 {
		b.WriteString(" WINDOW ")
		writeList(b, s.windows)
	}
	if s.qualify != nil {
		b.WriteString(" QUALIFY ")
		s.qualify.write(b)
	}
	if len(s.orderBy) > 0 {
		b.WriteString(" ORDER BY ")
		writeList(b, s.orderBy)
		if s.limit > 0 {
			fmt.Fprintf(b, " LIMIT %d", s.limit)
			if s.offset > 0 {
				fmt.Fprintf(b, " OFFSET %d", s.offset)
			}
		}
	}
}

// queryShape holds the parts of a statement that only the query shapes
// draw: common table expressions, parentheses around some of the set
// operations' branches, and ORDER BY expressions before the positions.
type queryShape struct {
	ctes []cte
	// parenFrom and parenTo: sels[parenFrom..parenTo] are written in
	// parentheses when parenTo > parenFrom.
	parenFrom, parenTo int
	orderExprs         []*node
}

// cte is a common table expression: a select the minimizer may shrink,
// or fixed text (a recursive one, whose stop condition must stay).
type cte struct {
	name      string // with its column list, if any: r(n, x)
	body      *selectStmt
	text      string
	recursive bool
}

func (qs queryShape) clone() queryShape {
	c := qs
	c.ctes = make([]cte, len(qs.ctes))
	for i, x := range qs.ctes {
		c.ctes[i] = x
		c.ctes[i].body = x.body.clone()
	}
	c.orderExprs = cloneNodes(qs.orderExprs)
	return c
}

func (q *query) writeCTEs(b *strings.Builder) {
	if len(q.ctes) == 0 {
		return
	}
	b.WriteString("WITH ")
	for _, c := range q.ctes {
		if c.recursive {
			b.WriteString("RECURSIVE ")
			break
		}
	}
	for i, c := range q.ctes {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c.name + " AS (")
		if c.body != nil {
			c.body.write(b)
		} else {
			b.WriteString(c.text)
		}
		b.WriteString(")")
	}
	b.WriteString(" ")
}

func (q *query) parenthesized() bool {
	return q.parenTo > q.parenFrom && q.parenTo < len(q.sels)
}

func (q *query) openParen(b *strings.Builder, i int) {
	if q.parenthesized() && i == q.parenFrom {
		b.WriteString("(")
	}
}

func (q *query) closeParen(b *strings.Builder, i int) {
	if q.parenthesized() && i == q.parenTo {
		b.WriteString(")")
	}
}

func (q *query) writeOrderExprs(b *strings.Builder) {
	writeList(b, q.orderExprs)
}
