package plan

import (
	"slices"
	"strings"

	"github.com/carquet-go/carquet/internal/intset"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/scan"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// Join key filters. Once an inner hash join on one integer key has built
// its table, a probe row whose key is not among the build side's keys can
// only be dropped. When the probe key is a column of a scan below that
// has not started, the scan gets the filter key IN (the build keys): it
// then skips row groups and pages whose statistics hold none of the keys
// and drops the other rows before decoding the rest of their columns
// (TPC-H Q17 probes 6M lineitem rows for the 204 parts of one brand and
// container). The rows the join sees are the ones it would have kept.

const (
	// maxSparseKeyFilter bounds the keys of a filter that is a hash set;
	// a bitmap (dense keys) is bounded by intset's rules alone.
	maxSparseKeyFilter = 1 << 16
	// keyFilterMaxPass: a filter expected to keep more than this share
	// of the column's distinct values is not worth evaluating.
	keyFilterMaxPass = 0.9
)

// filterProbe gives the probe side's scan the build side's values of key
// j as a filter, when the join and the key allow it: the join's
// FilterProbe hook, which runs once its table is built.
// Each key of a join on several filters alone: a probe row whose value of
// one key no build row has matches nothing (TPC-H Q02's partsupp rows of
// parts other than the 3,907 of the size and type asked for).
func filterProbe(n *kernels.HashJoin, j int, keys *Col, rows int) {
	if keys == nil || keys.I == nil || keys.Dict != nil || keys.T.Kind != KInt {
		return
	}
	if wholeTable(n.Right) {
		return // a foreign key's target, all of it: every key is there
	}
	src, col := probeKeyScan(n, j)
	if src == nil {
		return
	}
	vals := make([]int64, 0, rows)
	for i := range rows {
		if !keys.IsNull(i) {
			vals = append(vals, keys.I[i])
		}
	}
	set, ok := intset.NewBounded(vals, maxSparseKeyFilter)
	if !ok {
		return
	}
	if passesMost(scanRelation(src).used[col], set) {
		return
	}
	src.AddFilter(scan.In{Column: src.Req.Columns[col], Ints: set})
}

// probeKeyScan is the scan (and its column) that join n's probe key j
// reads as it is, which the build side's values of the key may filter;
// nil when there is none.
func probeKeyScan(n *kernels.HashJoin, j int) (*kernels.Scan, int) {
	if n.LeftOuter {
		return nil, 0
	}
	lk, ok := n.LKeys[j].(*ColExpr)
	if !ok || lk.T.Kind != KInt {
		return nil, 0
	}
	return scanColumn(n.Left, lk.S.Idx)
}

// wholeTable reports whether n reads a table's rows without filtering
// them (through projections), so that the keys it yields are all of them.
func wholeTable(n Node) bool {
	switch x := kernels.Bare(n).(type) {
	case *kernels.Scan:
		return x.Req.Filter == nil
	case *kernels.Project:
		return wholeTable(x.In)
	case *kernels.Pipeline:
		return wholeTable(x.Shown)
	}
	return false
}

// passesMost reports whether the keys in set cover nearly every value the
// column holds, by its footer range.
func passesMost(c *ScopeCol, set *intset.Set) bool {
	lo, hi, ok := footerRange(c)
	return ok && float64(set.Len()) >= keyFilterMaxPass*(hi-lo+1)
}

// scanColumn finds the scan, not yet started, whose column (at index col
// of its request) becomes column slot of n's batches with the same values,
// through operators that only drop rows or place the column among others:
// filters, projections of the column, and joins (a row of a join's output
// that a key filter on one of its columns drops would have been dropped
// by the join above anyway, NULL-extended or not). src is nil when there
// is none or the column is not a plain integer column the scan can test.
func scanColumn(n Node, slot int) (src *kernels.Scan, col int) {
	switch x := kernels.Bare(n).(type) {
	case *kernels.Scan:
		if x.Started() || slot >= len(x.Req.Columns) || len(x.Req.Columns) != len(x.Types) {
			return nil, 0
		}
		t := x.Types[slot]
		if t.Kind != KInt || strings.Contains(x.Req.Columns[slot], ".") || t.Field != nil && t.Field.Kind != schema.Primitive {
			return nil, 0
		}
		return x, slot
	case *kernels.Filter:
		return scanColumn(x.In, slot)
	case *kernels.RelFilter:
		if slices.Contains(x.Drop, slot) {
			return nil, 0
		}
		return scanColumn(x.In, slot)
	case *kernels.Pipeline:
		if x.Started() {
			return nil, 0
		}
		return scanColumn(x.Shown, slot)
	case *kernels.Project:
		if slot >= len(x.Exprs) {
			return nil, 0
		}
		c, ok := x.Exprs[slot].(*ColExpr)
		if !ok {
			return nil, 0
		}
		return scanColumn(x.In, c.S.Idx)
	case *kernels.HashJoin:
		if slot < x.LeftWidth {
			return scanColumn(x.Left, slot)
		}
		return scanColumn(x.Right, slot-x.LeftWidth)
	}
	return nil, 0
}
