package differential

// Minimize shrinks q while fails says the smaller statement still fails
// the same way, trying at most budget candidates. It is greedy and
// deterministic: the first candidate that still fails is kept and the
// search starts again from it, so the same failure always minimizes to
// the same statement. Candidates drop whole parts (a UNION branch,
// ORDER BY, LIMIT, OFFSET, DISTINCT, HAVING, a WHERE conjunct, a join, a
// GROUP BY key, a select-list position) or replace an expression by one of
// its arguments of the same type (everywhere the same text appears, so
// that a GROUP BY key and its copy in the select list shrink together).
func Minimize(q *query, fails func(*query) bool, budget int) *query {
	tried := map[string]bool{q.SQL(): true}
	for budget > 0 {
		progress := false
		for _, c := range candidates(q) {
			s := c.SQL()
			if tried[s] {
				continue
			}
			tried[s] = true
			if hasPositionalGroupBy(c) {
				continue
			}
			budget--
			if fails(c) {
				q, progress = c, true
				break
			}
			if budget == 0 {
				break
			}
		}
		if !progress {
			break
		}
	}
	return q
}

// hasPositionalGroupBy reports a GROUP BY key that became a constant,
// which DuckDB may read as a select-list position.
func hasPositionalGroupBy(q *query) bool {
	for _, s := range q.selects() {
		for _, k := range s.groupBy {
			if !k.hasColumn() {
				return true
			}
		}
	}
	return false
}

// candidates lists the statements one step smaller than q, the biggest
// cuts first.
func candidates(q *query) []*query {
	var out []*query
	edit := func(f func(c *query) bool) {
		c := q.clone()
		if f(c) {
			out = append(out, c)
		}
	}
	// A single branch of a UNION.
	if len(q.sels) > 1 {
		for i := range q.sels {
			edit(func(c *query) bool {
				c.sels = []*selectStmt{c.sels[i]}
				c.unions = nil
				return true
			})
		}
		for i := range q.unions {
			if q.unions[i] != "UNION ALL" {
				edit(func(c *query) bool { c.unions[i] = "UNION ALL"; return true })
			}
		}
	}
	if q.with {
		edit(func(c *query) bool { c.with = false; return true })
	}
	if q.ordered {
		edit(func(c *query) bool { c.ordered, c.order, c.limit, c.offset = false, nil, -1, 0; return true })
		if q.limit >= 0 {
			edit(func(c *query) bool { c.limit, c.offset = -1, 0; return true })
		}
		if q.offset > 0 {
			edit(func(c *query) bool { c.offset = 0; return true })
		}
		for i := range q.order {
			edit(func(c *query) bool { c.order = append(c.order[:i:i], c.order[i+1:]...); return true })
		}
	}
	// Select-list positions of the statement (every UNION branch at once).
	if n := len(q.sels[0].items); n > 1 {
		for p := range n {
			edit(func(c *query) bool { return dropPosition(c, p) })
		}
	}
	sels := q.selects()
	for si, s := range sels {
		at := func(f func(s *selectStmt) bool) {
			edit(func(c *query) bool { return f(c.selects()[si]) })
		}
		if len(s.joins) > 0 {
			for j := range s.joins {
				at(func(s *selectStmt) bool { s.joins = append(s.joins[:j:j], s.joins[j+1:]...); return true })
			}
		}
		for i := range s.where {
			at(func(s *selectStmt) bool { s.where = append(s.where[:i:i], s.where[i+1:]...); return true })
		}
		if s.having != nil {
			at(func(s *selectStmt) bool { s.having = nil; return true })
		}
		if s.distinct {
			at(func(s *selectStmt) bool { s.distinct = false; return true })
		}
		for i := range s.groupBy {
			at(func(s *selectStmt) bool { s.groupBy = append(s.groupBy[:i:i], s.groupBy[i+1:]...); return true })
		}
		for j, jn := range s.joins {
			if jn.kind != "JOIN" && jn.kind != "CROSS JOIN" {
				at(func(s *selectStmt) bool { s.joins[j].kind = "JOIN"; return true })
			}
			for i := 1; i < len(jn.on); i++ {
				at(func(s *selectStmt) bool {
					s.joins[j].on = append(s.joins[j].on[:i:i], s.joins[j].on[i+1:]...)
					return true
				})
			}
		}
	}
	// Replace an expression by one of its arguments.
	slots := q.slots()
	for i, p := range slots {
		n := *p
		if n.pinned {
			continue
		}
		for j, a := range n.args {
			if a.typ != n.typ {
				continue
			}
			// Everywhere the same text appears, then here only.
			edit(func(c *query) bool { return replaceAll(c, i, j) })
			edit(func(c *query) bool {
				cs := c.slots()
				*cs[i] = (*cs[i]).args[j]
				return true
			})
		}
	}
	return out
}

// replaceAll replaces every expression with the text of slot i by the
// argument j of slot i.
func replaceAll(c *query, i, j int) bool {
	cs := c.slots()
	target := (*cs[i]).String()
	repl := (*cs[i]).args[j]
	texts := make([]string, len(cs))
	for k, p := range cs {
		texts[k] = (*p).String()
	}
	n := 0
	for k, p := range cs {
		if texts[k] == target {
			*p = repl.clone()
			n++
		}
	}
	return n > 1
}

// dropPosition removes select-list position p from every branch of the
// statement and renumbers ORDER BY.
func dropPosition(c *query, p int) bool {
	for _, s := range c.sels {
		if p >= len(s.items) {
			return false
		}
		s.items = append(s.items[:p:p], s.items[p+1:]...)
	}
	var order []orderKey
	for _, k := range c.order {
		switch {
		case k.pos == p:
		case k.pos > p:
			order = append(order, orderKey{pos: k.pos - 1, desc: k.desc})
		default:
			order = append(order, k)
		}
	}
	c.order = order
	return true
}
