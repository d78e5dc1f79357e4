package plan

import (
	"slices"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// The planning of a hash aggregation (exec.HashAggregate): its keys and
// aggregates, the pipeline that evaluates them in parallel, and what the
// files and the joins below tell it (groups to reserve, keys that others
// determine, string keys read as dictionary codes).

// newAggregate is the hash aggregation of root's rows by agg's keys and
// aggregates, its inputs evaluated on up to threads threads.
func newAggregate(root Node, agg *aggCtx, threads int) Node {
	keys := make([]kernels.Expr, len(agg.keys))
	for i, k := range agg.keys {
		keys[i] = k
	}
	an := &kernels.HashAggregate{In: root, Keys: keys, Aggs: agg.aggs, Sets: agg.sets,
		Determine: func(in Node) []bool { return determinedKeys(in, agg.keys) },
		Hint:      func(in Node) (int, int64) { return GroupsHint(in, agg.keys) },
	}
	parallelAggregate(an, threads)
	return an
}

// parallelAggregate makes n's input a pipeline that also evaluates n's keys
// and arguments, when n's input is a scan with filters (or the workers
// can group the rows themselves, n.Combines) and every expression can
// run concurrently; it reports whether it did.
func parallelAggregate(n *kernels.HashAggregate, workers int) bool {
	if n.Evaluated {
		return false
	}
	// Plain columns need no evaluation: over a bare scan there would be
	// nothing to run in parallel.
	_, computes := n.In.(*kernels.Scan)
	computes = !computes
	for _, k := range n.Keys {
		if !concurrentSafe(k.(Expr)) {
			return false
		}
		computes = computes || !isColumn(k.(Expr))
	}
	for _, a := range n.Aggs {
		if a.Order != nil || a.Arg != nil && !concurrentSafe(a.Arg.(Expr)) || a.Arg2 != nil && !concurrentSafe(a.Arg2.(Expr)) {
			return false
		}
		computes = computes || a.Arg != nil && !isColumn(a.Arg.(Expr)) || a.Arg2 != nil && !isColumn(a.Arg2.(Expr))
	}
	// Workers that group the rows themselves (exec's aggparallel.go)
	// have work to share even over plain columns; not when the footers
	// expect many groups, whose partial tables cost more to merge than
	// grouping once does.
	n.SerialGroups = n.Hint != nil && hintsGroups(n.Hint(n.In))
	if !computes && (n.SerialGroups || !n.GroupsInParallel()) {
		return false
	}
	p := parallel(n.In, workers, n.Inputs)
	if p == nil {
		return false
	}
	_, n.OverScan = n.In.(*kernels.Scan)
	n.In, n.Evaluated = p, true
	return true
}

// GroupsHint estimates the groups of an aggregation of a whole table by
// one integer column, from the footers: at most the rows, and at most the
// width of the column's range (denseHi is the range's top when the values
// are small non-negative integers, else -1). 0 when not known or small.
func GroupsHint(in Node, keys []Expr) (groups int, denseHi int64) {
	if len(keys) != 1 || !wholeTable(in) {
		return 0, -1
	}
	k, ok := keys[0].(*ColExpr)
	if !ok || k.col == nil || k.col.Rel == nil || k.col.Rel.table == nil || k.col.T.Kind != KInt {
		return 0, -1
	}
	rows, err := k.col.Rel.table.NumRows()
	lo, hi, ok := footerRange(k.col)
	if err != nil || !ok || rows <= 0 {
		return 0, -1
	}
	est := min(float64(rows), hi-lo+1)
	if est < 1<<16 || est > 1<<26 {
		return 0, -1
	}
	denseHi = -1
	if lo >= 0 && hi < 1<<26 && hi < 8*est {
		denseHi = int64(hi)
	}
	return int(est), denseHi
}

// hintsGroups reports whether groupsHint expects groups.
func hintsGroups(groups int, _ int64) bool { return groups > 0 }

// useCodes asks the scan below an aggregation for its GROUP BY keys that
// are string columns as dictionary codes, when neither the aggregates nor
// the other keys read them: grouping then looks each dictionary entry up once instead of
// copying and hashing every row's bytes (assignCodes, assignMulti).
func useCodes(sn *kernels.Scan, keys []Expr, aggs []*aggSpec) {
	if len(keys) > 1 && !kernels.MultiKeyTypes(exprTypes(keys)) {
		return // grouped by byte keys: decoded anyway
	}
	read := map[*ScopeCol]bool{}
	for _, a := range aggs {
		for _, e := range append([]kernels.Expr{a.Arg, a.Arg2}, a.Order...) {
			if e != nil {
				columnsOf(e.(Expr), read)
			}
		}
	}
	// A key computed from a column (GROUP BY g, left(g, 1)) reads its
	// values too: a coded column has none.
	for _, key := range keys {
		if _, ok := key.(*ColExpr); !ok {
			columnsOf(key, read)
		}
	}
	for _, key := range keys {
		k, ok := key.(*ColExpr)
		if !ok || k.col == nil || Storage(k.T) != stBytes || read[k.col] {
			continue
		}
		for i, c := range scanRelation(sn).used {
			if c == k.col && k.S.Idx == i && !slices.Contains(sn.Req.Codes, sn.Req.Columns[i]) {
				sn.Req.Codes = append(sn.Req.Codes, sn.Req.Columns[i])
			}
		}
	}
}
