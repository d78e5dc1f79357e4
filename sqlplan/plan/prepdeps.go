package plan

import (
	"slices"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// Which builds of a pipeline's joins may run at once (exec.Pipeline's
// PrepAfter). Run serially, top down, each join's table is built before
// the joins below it build theirs, so that its keys can filter the scans
// below (keyfilter.go). A lower join must still wait for an upper one
// whose key filter may reach its build side, or the same scan as its own
// filter (the filters then keep their serial order); the other builds
// read scans no other build touches, and run at once.

// prepAfter returns for each join of owners (a pipeline's PrepOwners,
// bottom up) the indexes of the joins whose builds must finish before
// its own starts; nil (all serial) unless every build side is made of
// operators that hold no shared state (those a pipeline runs: scans,
// filters, projections and joins of expressions safe on any goroutine).
func prepAfter(owners []Node) [][]int {
	if len(owners) < 2 {
		return nil
	}
	joins := make([]*kernels.HashJoin, len(owners))
	builds := make([][]*kernels.Scan, len(owners))
	for i, o := range owners {
		j, ok := o.(*kernels.HashJoin)
		if !ok || !joinExprsSafe(j) {
			return nil
		}
		if builds[i], ok = safeScans(j.Right); !ok {
			return nil
		}
		joins[i] = j
	}
	targets := make([][]*kernels.Scan, len(joins))
	for i, j := range joins {
		targets[i] = keyFilterTargets(j)
	}
	for i, j := range joins {
		// A build side that reads a whole table filters nothing
		// (filterProbe), unless another join's keys filter it first.
		if wholeTable(j.Right) && !targeted(builds[i], targets) {
			targets[i] = nil
		}
	}
	after := make([][]int, len(joins))
	for i := range joins {
		for k := i + 1; k < len(joins); k++ { // the joins above i
			if shareScan(targets[k], builds[i]) || shareScan(targets[k], targets[i]) {
				after[i] = append(after[i], k)
			}
		}
	}
	return after
}

// keyFilterTargets are the scans join j's key filters may reach.
func keyFilterTargets(j *kernels.HashJoin) []*kernels.Scan {
	if j.FilterProbe == nil {
		return nil
	}
	var out []*kernels.Scan
	for k := range j.LKeys {
		if src, _ := probeKeyScan(j, k); src != nil {
			out = append(out, src)
		}
	}
	return out
}

// targeted reports whether a scan of scans is among targets.
func targeted(scans []*kernels.Scan, targets [][]*kernels.Scan) bool {
	for _, t := range targets {
		if shareScan(t, scans) {
			return true
		}
	}
	return false
}

// shareScan reports whether a and b have a scan in common.
func shareScan(a, b []*kernels.Scan) bool {
	for _, s := range a {
		if slices.Contains(b, s) {
			return true
		}
	}
	return false
}

// joinExprsSafe reports whether join j's keys and condition may be
// evaluated while other joins build their tables on other goroutines.
func joinExprsSafe(j *kernels.HashJoin) bool {
	if j.Cond != nil && !concurrentSafe(j.Cond.(Expr)) {
		return false
	}
	for _, k := range slices.Concat(j.LKeys, j.RKeys) {
		if !concurrentSafe(k.(Expr)) {
			return false
		}
	}
	return true
}

// safeScans returns the scans of n, ok false when n has an operator that
// may not run beside other builds (one with state of its own, or
// expressions that are not concurrentSafe).
func safeScans(n Node) (scans []*kernels.Scan, ok bool) {
	switch x := kernels.Bare(n).(type) {
	case *kernels.Scan:
		return []*kernels.Scan{x}, true
	case *kernels.Filter:
		if !concurrentSafe(predExpr(&x.Pred)) {
			return nil, false
		}
		return safeScans(x.In)
	case *kernels.RelFilter:
		if !concurrentSafe(predExpr(&x.Pred)) {
			return nil, false
		}
		return safeScans(x.In)
	case *kernels.Project:
		for _, e := range x.Exprs {
			if !concurrentSafe(e.(Expr)) {
				return nil, false
			}
		}
		return safeScans(x.In)
	case *kernels.Pipeline:
		if x.Started() {
			return nil, false
		}
		return safeScans(x.Shown)
	case *kernels.HashJoin:
		if !joinExprsSafe(x) {
			return nil, false
		}
		l, lok := safeScans(x.Left)
		r, rok := safeScans(x.Right)
		return append(l, r...), lok && rok
	}
	return nil, false
}
