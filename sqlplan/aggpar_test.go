package sqlplan

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// The parallel hash aggregation (exec's aggparallel.go): with threads > 1
// the scan's workers group the rows into partial states that are merged
// at the end. Every query here must give the rows a serial run gives
// (sorted: a scan on several threads may hand its row groups on in
// another order, and the groups come out in the order of their first
// rows).

// aggParTables makes t: many row groups, NULL keys and values, integer,
// decimal, huge, string and boolean columns.
func aggParTables(t *testing.T) *Engine {
	t.Helper()
	e := newEngine(t)
	exec(t, e, `CREATE TABLE t (k INTEGER, g BIGINT, s VARCHAR, v BIGINT, d DECIMAL(12,2), w DECIMAL(38,0), h HUGEINT, b BOOLEAN, u UBIGINT) row_group_rows = 7000`)
	exec(t, e, `INSERT INTO t SELECT
		CASE WHEN i % 13 = 0 THEN NULL ELSE i % 7 END,
		i // 3,
		CASE WHEN i % 11 = 0 THEN NULL ELSE 's' || (i % 17) END,
		CASE WHEN i % 5 = 0 THEN NULL ELSE i * 7919 % 100003 - 50000 END,
		(i % 1000) / 8.0,
		CAST(i AS DECIMAL(38,0)) * 1000000000000000000000000000,
		CAST(i AS HUGEINT) * 100000000000000000,
		i % 3 <> 0,
		CAST(i AS UBIGINT) * 1000
		FROM range(60000) r(i)`)
	return e
}

var aggParQueries = []string{
	"SELECT k, count(*), count(v), sum(v), min(v), max(v), sum(d), avg(d), avg(v) FROM t GROUP BY k",
	"SELECT s, count(*), sum(d), min(s), max(s), bool_and(b), bool_or(b), count_if(b) FROM t GROUP BY s",
	"SELECT k, s, count(*), sum(v), min(u), max(u) FROM t GROUP BY k, s",
	"SELECT k, s, b, g % 4, count(*), sum(h) FROM t GROUP BY k, s, b, g % 4",
	"SELECT k, s, b, g % 4, v % 3, count(*), sum(d) FROM t GROUP BY ALL",
	"SELECT g, count(*), sum(v), min(d) FROM t GROUP BY g",               // 20,000 groups
	"SELECT v, count(*) FROM t GROUP BY v",                               // many groups and a NULL one
	"SELECT k, sum(w), sum(h), avg(w), min(w), max(h) FROM t GROUP BY k", // sums past int64
	"SELECT k, count(*), sum(v) FROM t WHERE v > 1000000 GROUP BY k",     // empty input
	"SELECT count(*), sum(v), min(s) FROM t WHERE v > 1000000",           // empty, no keys
	"SELECT k, count(DISTINCT v), count(DISTINCT s), sum(DISTINCT v % 10) FROM t GROUP BY k",
	"SELECT count(DISTINCT g), count(DISTINCT s), min(DISTINCT v) FROM t",
	"SELECT s, count(DISTINCT k), count(*) FROM t WHERE v > 0 GROUP BY s",
	"SELECT k, s, count(*), sum(d), grouping(k, s) FROM t GROUP BY GROUPING SETS ((k), (s), (k, s), ())",
	"SELECT k, b, count(v), sum(v), grouping(k) FROM t GROUP BY ROLLUP (k, b)",
	"SELECT k, s, count(DISTINCT v) FROM t GROUP BY CUBE (k, s)",
	"SELECT k % 2 AS p, sum(v * 2), max(d + 1) FROM t WHERE d > 10 GROUP BY p HAVING count(*) > 5",
	// Aggregates that stay serial, beside combining ones.
	"SELECT k, string_agg(s, ',' ORDER BY g), sum(v) FROM t WHERE g < 300 GROUP BY k",
	"SELECT k, sum(v::DOUBLE), min(d::DOUBLE), count(*) FROM t GROUP BY k",
}

// TestParallelAggregateMatchesSerial runs each query with 1, 2 and 4
// threads: the same rows.
func TestParallelAggregateMatchesSerial(t *testing.T) {
	e := aggParTables(t)
	for _, q := range aggParQueries {
		exec(t, e, "SET threads = 1")
		want := strings.Join(sortedRows(queryAll(t, e, q)), "\n")
		for _, threads := range []int{2, 4} {
			exec(t, e, fmt.Sprintf("SET threads = %d", threads))
			if got := strings.Join(sortedRows(queryAll(t, e, q)), "\n"); got != want {
				t.Errorf("%s with %d threads:\n%.600s\nwant (1 thread)\n%.600s", q, threads, got, want)
			}
		}
	}
}

// TestParallelAggregateRuns: the grouping goes to the workers (a
// pipeline below the aggregation), also over plain columns, and EXPLAIN
// ANALYZE still shows the aggregation's rows and memory and the rows the
// pipeline gave it.
func TestParallelAggregateRuns(t *testing.T) {
	e := aggParTables(t)
	exec(t, e, "SET threads = 4")
	for _, q := range []string{
		"SELECT g, count(*), sum(d) FROM t GROUP BY g",
		"SELECT k, count(DISTINCT v) FROM t GROUP BY k",
	} {
		plan := strings.Join(flatRows(queryAll(t, e, "EXPLAIN ANALYZE "+q)), "\n")
		agg := strings.Index(plan, "HASH AGGREGATE")
		par := strings.Index(plan, "PARALLEL x4")
		if agg < 0 || par < agg {
			t.Fatalf("%s: no parallel pipeline below the aggregation:\n%s", q, plan)
		}
		aggLine := plan[agg:]
		aggLine = aggLine[:strings.IndexByte(aggLine, '\n')+1]
		parLine := plan[par:]
		parLine = parLine[:strings.IndexByte(parLine, '\n')+1]
		if !strings.Contains(aggLine, "rows") || !strings.Contains(aggLine, "memory") {
			t.Errorf("%s: the aggregation's figures are missing: %q", q, aggLine)
		}
		if !strings.Contains(parLine, "rows 60000,") {
			t.Errorf("%s: the pipeline's rows are missing: %q", q, parLine)
		}
	}
}

// TestParallelAggregateMemoryLimit: the workers' partial states count
// against memory_limit.
func TestParallelAggregateMemoryLimit(t *testing.T) {
	e := aggParTables(t)
	exec(t, e, "SET threads = 4")
	q := "SELECT count(*) FROM (SELECT g, v, count(*) FROM t GROUP BY g, v)"
	want := queryAll(t, e, q)[0][0]
	exec(t, e, "SET memory_limit = '1MB'")
	err := queryErr(t, e, q)
	if !errors.Is(err, ErrMemoryLimit) || !strings.Contains(err.Error(), "hash aggregate by g, v") {
		t.Fatalf("under 1MB: %v", err)
	}
	exec(t, e, "SET memory_limit = '1GB'")
	if got := queryAll(t, e, q)[0][0]; got != want {
		t.Errorf("under 1GB: %v, want %v", got, want)
	}
}

// flatRows is the first column of each row as text.
func flatRows(rows [][]any) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = fmt.Sprint(r[0])
	}
	return out
}

// TestParallelAggregateError: an argument that fails on the workers
// fails the query (no hang, no partial answer), with 1 and 4 threads.
func TestParallelAggregateError(t *testing.T) {
	e := aggParTables(t)
	for _, threads := range []int{1, 4} {
		exec(t, e, fmt.Sprintf("SET threads = %d", threads))
		for _, q := range []string{
			"SELECT k, sum(CAST(s AS INTEGER)) FROM t GROUP BY k",
			"SELECT k, count(DISTINCT CAST(s AS INTEGER)) FROM t GROUP BY k",
		} {
			err := queryErr(t, e, q)
			if err == nil || !strings.Contains(err.Error(), "cannot cast VARCHAR 's") {
				t.Errorf("%s with %d threads: %v", q, threads, err)
			}
		}
	}
}
