package sqlplan

import (
	"context"
	"testing"
	"time"

	"github.com/carquet-go/carquet/internal/cputime"
)

// BenchmarkWindow runs representative window queries over 2M rows of an
// in-memory table: 1000 partitions (k) of 2000 rows, an ordering column
// (t), a BIGINT (x) and a DECIMAL(12,2) (d). Each query reduces its window
// column to one row (count, which reads its NULLs) so that the time is the
// window's, not the result's transfer or another aggregate's (max over a
// HUGEINT sum would box every value). It reports CPU time per run beside the wall time:
// on a shared machine the CPU time moves less.
func BenchmarkWindow(b *testing.B) {
	e, err := Open(b.TempDir(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	create, err := e.Prepare("CREATE TABLE wb AS SELECT range % 1000 AS k, (range * 7919) % 2000003 AS t, " +
		"(range * 31) % 1000003 - 500000 AS x, CAST(((range * 17) % 100000) / 100.0 AS DECIMAL(12,2)) AS d FROM range(2000000)")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := create.Exec(context.Background(), nil, nil); err != nil {
		b.Fatal(err)
	}
	queries := []struct{ name, win string }{
		{"row_number", "row_number() OVER (PARTITION BY k ORDER BY x)"},
		{"rank", "rank() OVER (PARTITION BY k ORDER BY x)"},
		{"lag", "lag(x) OVER (PARTITION BY k ORDER BY t)"},
		{"lead", "lead(x, 2, 0) OVER (PARTITION BY k ORDER BY t)"},
		{"sum-partition", "sum(x) OVER (PARTITION BY k)"},
		{"sum-running", "sum(x) OVER (PARTITION BY k ORDER BY t)"},
		{"avg-decimal", "avg(d) OVER (PARTITION BY k ORDER BY t)"},
		{"sum-sliding", "sum(x) OVER (PARTITION BY k ORDER BY t ROWS BETWEEN 5 PRECEDING AND CURRENT ROW)"},
		{"first_value", "first_value(x) OVER (PARTITION BY k ORDER BY t)"},
		{"last_value", "last_value(d) OVER (PARTITION BY k ORDER BY t ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)"},
		{"ntile", "ntile(4) OVER (PARTITION BY k ORDER BY t)"},
		// EXCLUDE: prefix sums over the frame's runs; min from a tree;
		// string_agg over each partition in its own order; fill.
		{"sum-exclude", "sum(x) OVER (PARTITION BY k ORDER BY t ROWS BETWEEN 5 PRECEDING AND 5 FOLLOWING EXCLUDE CURRENT ROW)"},
		{"min-exclude", "min(x) OVER (PARTITION BY k ORDER BY t ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE CURRENT ROW)"},
		{"float-sum-exclude", "sum(x::DOUBLE) OVER (PARTITION BY k ORDER BY t ROWS BETWEEN 50 PRECEDING AND 50 FOLLOWING EXCLUDE CURRENT ROW)"},
		{"string_agg-ordered", "string_agg(x::VARCHAR, ',' ORDER BY x) OVER (PARTITION BY k)"},
		{"fill", "fill(CASE WHEN x % 3 = 0 THEN NULL ELSE x END) OVER (PARTITION BY k ORDER BY t)"},
		// three functions over one window: one sort, where they can share it
		{"three-one-window", "row_number() OVER (PARTITION BY k ORDER BY t) + rank() OVER (PARTITION BY k ORDER BY t) + lag(x, 1, 0) OVER (PARTITION BY k ORDER BY t)"},
	}
	for _, q := range queries {
		b.Run(q.name, func(b *testing.B) {
			sql := "SELECT count(w) FROM (SELECT " + q.win + " AS w FROM wb)"
			b.ReportAllocs()
			cpu0, n := cputime.Process(), 0
			for b.Loop() {
				if got := drainCount(b, e, sql); got != 1 {
					b.Fatalf("%s: %d rows", sql, got)
				}
				n++
			}
			cpu := time.Duration(cputime.Process()-cpu0) / time.Duration(max(n, 1))
			b.ReportMetric(cpu.Seconds()*1e3, "cpu-ms/op")
		})
	}
}
