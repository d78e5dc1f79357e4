package sqlplan

import (
	"fmt"
	"strings"
	"testing"
)

// Filters and column pruning reach the scan through derived tables, CTEs
// named once and views (select_derived.go).

func pushdownTables(t *testing.T) *Engine {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE s AS SELECT i AS id, i % 10 AS g, i % 7 AS v, 'n' || i AS name FROM range(1000) t(i)")
	exec(t, e, "CREATE VIEW sv AS SELECT * FROM s")
	return e
}

func TestDerivedFilterReachesScan(t *testing.T) {
	e := pushdownTables(t)
	for _, c := range []struct{ q, pushed string }{
		{"SELECT count(*) FROM s WHERE id = 5", "id = 5"},
		{"SELECT count(*) FROM (SELECT * FROM s) t WHERE id = 5", "id = 5"},
		{"SELECT count(*) FROM (SELECT * FROM s) t WHERE t.id = 5", "id = 5"},
		{"WITH x AS (SELECT * FROM s) SELECT count(*) FROM x WHERE id = 5", "id = 5"},
		{"SELECT count(*) FROM sv WHERE id = 5", "id = 5"},
		{"SELECT count(*) FROM (SELECT * FROM (SELECT * FROM s) a) b WHERE id = 5", "id = 5"},
		{"SELECT count(*) FROM (SELECT id AS k, name FROM s WHERE g = 5) t WHERE k = 5", "(g = 5) AND (id = 5)"},
	} {
		plan := analyzed(t, e, c.q)
		if !strings.Contains(plan, "pushed filter: "+c.pushed+"\n") || !strings.Contains(plan, "columns: (no columns)") {
			t.Errorf("%s: the filter should reach the scan, which reads no column:\n%s", c.q, plan)
		}
		if strings.Contains(plan, "FILTER") {
			t.Errorf("%s: no filter should be left above the scan:\n%s", c.q, plan)
		}
		if got := queryAll(t, e, c.q); got[0][0] != int64(1) {
			t.Errorf("%s: got %v, want 1", c.q, got)
		}
	}
}

func TestDerivedFilterThroughExpressions(t *testing.T) {
	e := pushdownTables(t)
	// A filter on a computed column is computed inside, before the
	// derived table's other columns.
	q := "SELECT x, name FROM (SELECT id + 1 AS x, name FROM s) t WHERE x = 6"
	if got := fmt.Sprint(queryAll(t, e, q)); got != "[[6 n5]]" {
		t.Errorf("%s: got %s", q, got)
	}
	if plan := analyzed(t, e, q); strings.Contains(plan, "FILTER WHERE") || !strings.Contains(plan, "id + 1") {
		t.Errorf("%s: the filter should run inside the derived table:\n%s", q, plan)
	}
	// An ON condition on the derived table alone filters it in its scan.
	q = "SELECT count(*) FROM s a JOIN (SELECT * FROM s) b ON a.id = b.id AND b.g = 3"
	if got := queryAll(t, e, q); got[0][0] != int64(100) {
		t.Errorf("%s: got %v, want 100", q, got)
	}
	if plan := analyzed(t, e, q); !strings.Contains(plan, "pushed filter: g = 3") {
		t.Errorf("%s: the ON condition should reach the scan:\n%s", q, plan)
	}
	// Only the columns read above are read.
	q = "SELECT sum(v) FROM (SELECT * FROM s) t WHERE g = 2"
	if plan := analyzed(t, e, q); !strings.Contains(plan, "columns: v") || strings.Contains(plan, "name") {
		t.Errorf("%s: the scan should read v alone:\n%s", q, plan)
	}
	if got := queryAll(t, e, q); fmt.Sprint(got) != fmt.Sprint(queryAll(t, e, "SELECT sum(v) FROM s WHERE g = 2")) {
		t.Errorf("%s: got %v", q, got)
	}
}

// The cases where a filter must stay above the derived table, each with
// a query whose answer would change if it did not.
func TestDerivedFilterNotPushed(t *testing.T) {
	e := pushdownTables(t)
	for _, c := range []struct{ q, want, notInPlan string }{
		// LIMIT picks the rows before the filter.
		{"SELECT id FROM (SELECT * FROM s ORDER BY id LIMIT 10) t WHERE id >= 8", "[[8] [9]]", "pushed filter: id >= 8"},
		{"SELECT id FROM (SELECT * FROM s ORDER BY id OFFSET 998) t WHERE id >= 8", "[[998] [999]]", "pushed filter: id >= 8"},
		// A volatile value is computed once per row, so both conjuncts
		// see the same one.
		{"SELECT count(*) FROM (SELECT random() AS r FROM s) t WHERE r < 0.5 AND r >= 0.5", "[[0]]", ""},
		// A window function numbers the rows before the filter.
		{"SELECT id, rn FROM (SELECT id, row_number() OVER (ORDER BY id) AS rn FROM s) t WHERE id >= 998", "[[998 999] [999 1000]]", "pushed filter: id >= 998"},
		// The WHERE sees the NULLs of the outer join's unmatched rows.
		{"SELECT count(*) FROM s a LEFT JOIN (SELECT * FROM s) b ON a.id = b.id WHERE b.v IS NULL", "[[0]]", "pushed filter: v IS NULL"},
		// A filter on an aggregate's value runs after the aggregate.
		{"SELECT g, total FROM (SELECT g, sum(v) AS total FROM s GROUP BY g) t WHERE total > 300 ORDER BY g", "[[2 301] [3 303] [6 302] [9 301]]", ""},
		// Grouping sets give NULL keys to the rows they roll up.
		{"SELECT count(*) FROM (SELECT g, sum(v) AS total FROM s GROUP BY ROLLUP (g)) t WHERE g IS NULL", "[[1]]", "pushed filter: g IS NULL"},
		// DISTINCT ON keeps one row per key before the filter.
		{"SELECT count(*) FROM (SELECT DISTINCT ON (g) g, id FROM s ORDER BY g, id) t WHERE id > 5", "[[4]]", "pushed filter: id > 5"},
	} {
		if got := fmt.Sprint(queryAll(t, e, c.q)); got != c.want {
			t.Errorf("%s: got %s, want %s", c.q, got, c.want)
		}
		if plan := analyzed(t, e, c.q); c.notInPlan != "" && strings.Contains(plan, c.notInPlan) {
			t.Errorf("%s: the filter should not be pushed:\n%s", c.q, plan)
		}
	}
}

// Through GROUP BY, a filter on the group keys goes below the aggregate;
// one on an aggregate's value stays above it.
func TestDerivedFilterOnGroupKeys(t *testing.T) {
	e := pushdownTables(t)
	q := "SELECT g, total FROM (SELECT g, sum(v) AS total FROM s GROUP BY g) t WHERE g = 3 AND total > 0"
	if got := fmt.Sprint(queryAll(t, e, q)); got != "[[3 303]]" {
		t.Errorf("%s: got %s", q, got)
	}
	plan := analyzed(t, e, q)
	if !strings.Contains(plan, "pushed filter: g = 3\n") || !strings.Contains(plan, "FILTER (residual) total > 0") {
		t.Errorf("%s: the key filter should reach the scan, the other stay above:\n%s", q, plan)
	}
	q = "WITH x AS (SELECT g AS k, count(*) AS n FROM s GROUP BY g HAVING count(*) > 0) SELECT k, n FROM x WHERE k IN (1, 2) ORDER BY k"
	if got := fmt.Sprint(queryAll(t, e, q)); got != "[[1 100] [2 100]]" {
		t.Errorf("%s: got %s", q, got)
	}
	if plan := analyzed(t, e, q); !strings.Contains(plan, "pushed filter: g IN") {
		t.Errorf("%s: the key filter should reach the scan:\n%s", q, plan)
	}
}

// The outputs of a derived table that its parent never reads are neither
// read nor computed, wherever the derived table sits in the FROM.
func TestDerivedOutputsUnread(t *testing.T) {
	e := pushdownTables(t)
	q := "SELECT count(*) FROM (SELECT * FROM s) t"
	if plan := analyzed(t, e, q); !strings.Contains(plan, "COUNT(*) FROM FOOTERS") {
		t.Errorf("%s: the count should come from the footers:\n%s", q, plan)
	}
	for q, want := range map[string]string{
		q: "[[1000]]",
		// The derived table on a join's build side, and on its probe side.
		"SELECT count(*), sum(b.v) FROM s a JOIN (SELECT * FROM s) b ON a.id = b.id WHERE a.g = 1":             "[[100 299]]",
		"SELECT count(*), sum(a.v) FROM (SELECT * FROM s) a JOIN s b ON a.id = b.id WHERE b.g = 1":             "[[100 299]]",
		"SELECT count(*), max(b.name) FROM s a LEFT JOIN (SELECT * FROM s) b ON a.id = b.id + 990 AND b.g = 1": "[[1000 n1]]",
	} {
		if got := fmt.Sprint(queryAll(t, e, q)); got != want {
			t.Errorf("%s: got %s, want %s", q, got, want)
		}
	}
}
