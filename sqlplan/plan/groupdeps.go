package plan

import (
	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// Group keys that other group keys determine. Below an aggregation, an
// inner hash join whose build side has unique keys (a primary key: each
// key value is one build row) pairs every probe row with the one build
// row of its key, so every build column is a function of the join key:
// GROUP BY c_custkey, c_name, c_address, ... over orders joined to
// customer groups exactly as GROUP BY c_custkey does, the other keys
// following from it (TPC-H Q10, Q03, Q18). The aggregation then hashes
// the determining keys alone and takes the others from each group's
// first row. Uniqueness is known only once the join has built its table,
// so the keys are chosen when the first batch arrives.

// colOrigin names where a column of the aggregation's input comes from:
// build column col of join owner, or column col of another node (the
// leftmost input, an opaque projection). Two columns of one origin hold
// the same value in every row.
type colOrigin struct {
	owner Node
	col   int
}

// traceColumn follows column slot of n's batches down through the nodes
// that pass columns on unchanged, to its origin.
func traceColumn(n Node, slot int) colOrigin {
	n = kernels.Bare(n) // the origin is the operator, wrapped for EXPLAIN ANALYZE or not
	switch x := n.(type) {
	case *kernels.Pipeline:
		return traceColumn(x.Shown, slot)
	case *kernels.Filter:
		return traceColumn(x.In, slot)
	case *kernels.Project:
		if slot < len(x.Exprs) {
			if c, ok := x.Exprs[slot].(*ColExpr); ok {
				return traceColumn(x.In, c.S.Idx)
			}
		}
	case *kernels.HashJoin:
		if slot >= x.LeftWidth {
			return colOrigin{x, slot - x.LeftWidth}
		}
		return traceColumn(x.Left, slot)
	}
	return colOrigin{n, slot}
}

// uniqueJoin is an inner join with unique build keys: its build row, and
// so every build column, follows from the values of its probe keys
// (lkeys) or, equal to them, of its build keys (rkeys).
type uniqueJoin struct {
	j            *kernels.HashJoin
	lkeys, rkeys []colOrigin // nil when a key is not a plain column
}

// uniqueJoins lists the unique inner joins on the probe spine of n (the
// chain of left inputs), which have built their tables.
func uniqueJoins(n Node) []uniqueJoin {
	var out []uniqueJoin
	for n != nil {
		switch x := kernels.Bare(n).(type) {
		case *kernels.Pipeline:
			n = x.Shown
		case *kernels.Filter:
			n = x.In
		case *kernels.Project:
			n = x.In
		case *kernels.HashJoin:
			if x.UniqueBuilt() && x.Cond == nil && !x.LeftOuter && !x.RightOuter {
				u := uniqueJoin{j: x}
				lok, rok := true, true
				for k := range x.LKeys {
					if l, ok := x.LKeys[k].(*ColExpr); ok {
						u.lkeys = append(u.lkeys, traceColumn(x.Left, l.S.Idx))
					} else {
						lok = false
					}
					if r, ok := x.RKeys[k].(*ColExpr); ok && r.S.Idx >= x.LeftWidth {
						u.rkeys = append(u.rkeys, colOrigin{x, r.S.Idx - x.LeftWidth})
					} else {
						rok = false
					}
				}
				if !lok {
					u.lkeys = nil
				}
				if !rok {
					u.rkeys = nil
				}
				out = append(out, u)
			}
			n = x.Left
		default:
			n = nil
		}
	}
	return out
}

// closure reports whether origin o follows from the origins known, given
// the unique joins.
func closure(known []colOrigin, joins []uniqueJoin, o colOrigin) bool {
	have := map[colOrigin]bool{}
	for _, k := range known {
		have[k] = true
	}
	rows := map[Node]bool{} // joins whose build row is known
	all := func(os []colOrigin) bool {
		if len(os) == 0 {
			return false
		}
		for _, x := range os {
			if !have[x] && !rows[x.owner] {
				return false
			}
		}
		return true
	}
	for changed := true; changed; {
		changed = false
		for _, u := range joins {
			if !rows[u.j] && (all(u.lkeys) || all(u.rkeys)) {
				rows[u.j] = true
				for _, x := range u.lkeys {
					have[x] = true
				}
				changed = true
			}
		}
	}
	return have[o] || rows[o.owner]
}

// determinedKeys marks the keys (of a plain GROUP BY over in, whose first
// batch has arrived) that the unmarked keys determine; nil when none is.
// Keys of other storages than integers go first, as they cost the most
// to hash.
func determinedKeys(in Node, keys []Expr) []bool {
	if len(keys) < 2 {
		return nil
	}
	joins := uniqueJoins(in)
	if len(joins) == 0 {
		return nil
	}
	origins := make([]colOrigin, len(keys))
	plain := make([]bool, len(keys))
	for i, k := range keys {
		if c, ok := k.(*ColExpr); ok {
			origins[i], plain[i] = traceColumn(in, c.S.Idx), true
		}
	}
	var det []bool
	drop := func(i int) {
		if !plain[i] {
			return
		}
		var rest []colOrigin
		for k := range keys {
			if k != i && plain[k] && (det == nil || !det[k]) {
				rest = append(rest, origins[k])
			}
		}
		if closure(rest, joins, origins[i]) {
			if det == nil {
				det = make([]bool, len(keys))
			}
			det[i] = true
		}
	}
	for i, k := range keys {
		if Storage(k.Type()) != stInt {
			drop(i)
		}
	}
	for i, k := range keys {
		if Storage(k.Type()) == stInt {
			drop(i)
		}
	}
	return det
}
