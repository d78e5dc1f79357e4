package sqlplan

// Join order. The FROM list is joined left-deep in its order, each step's
// relation being the hash join's build side. For a FROM of base tables
// joined by WHERE alone (commas or CROSS JOIN, no ON, USING or outer
// join), orderJoins chooses the order instead: the largest relation
// first (streamed, never held), then at each step the smallest relation
// that an equality of the WHERE connects to those already joined (a
// cross product only when none is), so that every hash table is built
// from a small input and no join multiplies rows for nothing.

// orderJoins returns the steps in the order to join them (steps itself
// when the FROM is not of that kind).
func (p *planner) orderJoins(steps []joinStep, where []expr) []joinStep {
	if len(steps) < 2 {
		return steps
	}
	for _, st := range steps {
		if st.left || st.full || st.on != nil || len(st.using) > 0 || st.swapped || st.rel.table == nil || st.rel.lateral != nil {
			return steps
		}
	}
	size := make(map[*relation]float64, len(steps))
	for _, st := range steps {
		n, err := st.rel.table.NumRows()
		if err != nil {
			return steps
		}
		size[st.rel] = float64(n)
	}
	// Conjuncts of one relation filter it: guess what they keep.
	var links []map[*relation]bool
	for _, c := range where {
		rs := relsOf(c)
		switch {
		case len(rs) == 1:
			for r := range rs {
				if _, ok := size[r]; ok {
					size[r] *= selectivity(c)
				}
			}
		case len(rs) > 1:
			if eq, ok := c.(*cmpExpr); ok && eq.op == opEq {
				links = append(links, rs)
			}
		}
	}
	joined := map[*relation]bool{}
	connected := func(r *relation) bool {
		for _, l := range links {
			if !l[r] {
				continue
			}
			touches, within := false, true
			for x := range l {
				if x == r {
					continue
				}
				if joined[x] {
					touches = true
				} else if _, own := size[x]; own {
					within = false
				}
			}
			if touches && within {
				return true
			}
		}
		return false
	}
	out := make([]joinStep, 0, len(steps))
	used := make([]bool, len(steps))
	pick := func(i int) {
		used[i] = true
		joined[steps[i].rel] = true
		out = append(out, steps[i])
	}
	first := 0
	for i, st := range steps {
		if size[st.rel] > size[steps[first].rel] {
			first = i
		}
	}
	pick(first)
	for len(out) < len(steps) {
		best, bestConnected := -1, false
		for i, st := range steps {
			if used[i] {
				continue
			}
			c := connected(st.rel)
			switch {
			case best < 0, c && !bestConnected, c == bestConnected && size[st.rel] < size[steps[best].rel]:
				best, bestConnected = i, c
			}
		}
		pick(best)
	}
	return out
}

// selectivity guesses the share of rows a one-relation conjunct keeps.
func selectivity(c expr) float64 {
	if cmp, ok := c.(*cmpExpr); ok {
		if _, isConst := isConst(cmp.r); isConst && cmp.op == opEq {
			return 0.1
		}
	}
	return 0.3
}
