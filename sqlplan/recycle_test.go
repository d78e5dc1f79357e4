package sqlplan

import (
	"fmt"
	"math/big"
	"testing"
)

// TestAggregateRecyclesScanBuffers aggregates filtered scans over many
// batches and row groups, where the scan gathers the rows that pass into
// buffers the aggregation gives back batch by batch (scan.Recycle): the
// sums, counts and extremes must equal those computed from the rows the
// same filter returns without an aggregation.
func TestAggregateRecyclesScanBuffers(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE t (k INTEGER, v BIGINT, d DECIMAL(12,2), s VARCHAR) row_group_rows = 30000")
	exec(t, e, "INSERT INTO t SELECT i % 7, i * 3 - 50000, (i % 1000) / 8.0, 's' || (i % 5) FROM range(100000) r(i)")
	exec(t, e, "SET threads = 2")
	for _, where := range []string{
		"s IN ('s1', 's2', 's4')", // about 60% of every batch
		"v >= -100000",            // every row
		"v < 20000 AND s <> 's0'", // a few batches
		"s = 's3' AND d > 60",     // sparse
	} {
		rows := queryAll(t, e, "SELECT k, v, d FROM t WHERE "+where)
		type agg struct {
			n, sumV int64
			minV    int64
			maxV    int64
			sumD    *big.Rat
		}
		want := map[int64]*agg{}
		for _, r := range rows {
			k, v := r[0].(int64), r[1].(int64)
			d, ok := new(big.Rat).SetString(fmt.Sprint(r[2]))
			if !ok {
				t.Fatalf("decimal %v", r[2])
			}
			a := want[k]
			if a == nil {
				a = &agg{minV: v, maxV: v, sumD: new(big.Rat)}
				want[k] = a
			}
			a.n++
			a.sumV += v
			a.minV, a.maxV = min(a.minV, v), max(a.maxV, v)
			a.sumD.Add(a.sumD, d)
		}
		got := queryAll(t, e, "SELECT k, count(*), sum(v), min(v), max(v), sum(d) FROM t WHERE "+where+" GROUP BY k")
		if len(got) != len(want) {
			t.Fatalf("%s: %d groups, want %d", where, len(got), len(want))
		}
		for _, r := range got {
			a := want[r[0].(int64)]
			d, _ := new(big.Rat).SetString(fmt.Sprint(r[5]))
			if a == nil || fmt.Sprintf("%v %v %v %v", r[1:5]...) != fmt.Sprint(a.n, a.sumV, a.minV, a.maxV) || d.Cmp(a.sumD) != 0 {
				t.Fatalf("%s: group %v is %v, want %v %v", where, r[0], r, fmt.Sprint(a.n, a.sumV, a.minV, a.maxV), a.sumD.FloatString(2))
			}
		}
	}
}
