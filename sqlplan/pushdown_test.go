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
		pl := analyzed(t, e, c.q)
		if !strings.Contains(pl, "pushed filter: "+c.pushed+"\n") || !strings.Contains(pl, "columns: (no columns)") {
			t.Errorf("%s: the filter should reach the scan, which reads no column:\n%s", c.q, pl)
		}
		if strings.Contains(pl, "FILTER") {
			t.Errorf("%s: no filter should be left above the scan:\n%s", c.q, pl)
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
	if pl := analyzed(t, e, q); strings.Contains(pl, "FILTER WHERE") || !strings.Contains(pl, "id + 1") {
		t.Errorf("%s: the filter should run inside the derived table:\n%s", q, pl)
	}
	// An ON condition on the derived table alone filters it in its scan.
	q = "SELECT count(*) FROM s a JOIN (SELECT * FROM s) b ON a.id = b.id AND b.g = 3"
	if got := queryAll(t, e, q); got[0][0] != int64(100) {
		t.Errorf("%s: got %v, want 100", q, got)
	}
	if pl := analyzed(t, e, q); !strings.Contains(pl, "pushed filter: g = 3") {
		t.Errorf("%s: the ON condition should reach the scan:\n%s", q, pl)
	}
	// Only the columns read above are read.
	q = "SELECT sum(v) FROM (SELECT * FROM s) t WHERE g = 2"
	if pl := analyzed(t, e, q); !strings.Contains(pl, "columns: v") || strings.Contains(pl, "name") {
		t.Errorf("%s: the scan should read v alone:\n%s", q, pl)
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
		if pl := analyzed(t, e, c.q); c.notInPlan != "" && strings.Contains(pl, c.notInPlan) {
			t.Errorf("%s: the filter should not be pushed:\n%s", c.q, pl)
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
	pl := analyzed(t, e, q)
	if !strings.Contains(pl, "pushed filter: g = 3\n") || !strings.Contains(pl, "FILTER (residual) total > 0") {
		t.Errorf("%s: the key filter should reach the scan, the other stay above:\n%s", q, pl)
	}
	q = "WITH x AS (SELECT g AS k, count(*) AS n FROM s GROUP BY g HAVING count(*) > 0) SELECT k, n FROM x WHERE k IN (1, 2) ORDER BY k"
	if got := fmt.Sprint(queryAll(t, e, q)); got != "[[1 100] [2 100]]" {
		t.Errorf("%s: got %s", q, got)
	}
	if pl := analyzed(t, e, q); !strings.Contains(pl, "pushed filter: g IN") {
		t.Errorf("%s: the key filter should reach the scan:\n%s", q, pl)
	}
}

// The outputs of a derived table that its parent never reads are neither
// read nor computed, wherever the derived table sits in the FROM.
func TestDerivedOutputsUnread(t *testing.T) {
	e := pushdownTables(t)
	q := "SELECT count(*) FROM (SELECT * FROM s) t"
	if pl := analyzed(t, e, q); !strings.Contains(pl, "COUNT(*) FROM FOOTERS") {
		t.Errorf("%s: the count should come from the footers:\n%s", q, pl)
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

// unionTables adds to pushdownTables a second table of the same columns
// (other ids and names), a view of the union of both, and a REAL column.
func unionTables(t *testing.T) *Engine {
	e := pushdownTables(t)
	exec(t, e, "CREATE TABLE s2 AS SELECT i AS id, i % 10 AS g, i % 7 AS v, 'm' || i AS name FROM range(1000, 2000) t(i)")
	exec(t, e, "CREATE VIEW uv AS SELECT * FROM s UNION ALL SELECT * FROM s2")
	exec(t, e, "CREATE TABLE f AS SELECT CAST(0.1 AS REAL) AS x")
	return e
}

// A filter on a derived UNION goes into each of its SELECTs, by position,
// and on into every scan; under UNION ALL the outputs no one reads are
// not computed.
func TestUnionFilterReachesEveryScan(t *testing.T) {
	e := unionTables(t)
	for _, c := range []struct {
		q, pushed, want string
		scans           int
	}{
		{"SELECT count(*) FROM (SELECT * FROM s UNION ALL SELECT * FROM s2) t WHERE id = 5", "id = 5", "[[1]]", 2},
		{"WITH x AS (SELECT * FROM s UNION ALL SELECT * FROM s2) SELECT count(*) FROM x WHERE id = 5", "id = 5", "[[1]]", 2},
		{"SELECT count(*) FROM uv WHERE id = 5", "id = 5", "[[1]]", 2},
		// Each branch in its own terms: the second names the column k.
		{"SELECT count(*) FROM (SELECT * FROM s UNION ALL SELECT id AS k, g, v, name FROM s2) t WHERE id = 1005", "id = 1005", "[[1]]", 2},
		// A chain of three, and a UNION in parentheses as a part.
		{"SELECT count(*) FROM (SELECT * FROM s UNION ALL SELECT * FROM s2 UNION ALL SELECT * FROM s) t WHERE id = 5", "id = 5", "[[2]]", 3},
		{"SELECT count(*) FROM (SELECT * FROM s UNION ALL (SELECT * FROM s2 UNION ALL SELECT * FROM s)) t WHERE id = 5", "id = 5", "[[2]]", 3},
		// UNION (distinct): equal rows pass the filter or fail it together.
		{"SELECT count(*) FROM (SELECT * FROM s UNION SELECT * FROM s2 UNION SELECT * FROM s) t WHERE id = 5", "id = 5", "[[1]]", 3},
		// A full ORDER BY on the union does not change which rows there are.
		{"SELECT count(*) FROM (SELECT * FROM s UNION ALL SELECT * FROM s2 ORDER BY name) t WHERE id = 5", "id = 5", "[[1]]", 2},
		// An ON condition on the union alone.
		{"SELECT count(*) FROM s a JOIN (SELECT * FROM s UNION ALL SELECT * FROM s2) b ON a.g = b.g AND b.id = 1003", "id = 1003", "[[100]]", 2},
	} {
		if got := fmt.Sprint(queryAll(t, e, c.q)); got != c.want {
			t.Errorf("%s: got %s, want %s", c.q, got, c.want)
		}
		pl := analyzed(t, e, c.q)
		if n := strings.Count(pl, "pushed filter: "+c.pushed+"\n"); n != c.scans {
			t.Errorf("%s: the filter should reach all %d scans of the union (it reaches %d):\n%s", c.q, c.scans, n, pl)
		}
		if strings.Contains(pl, "FILTER (residual) id") {
			t.Errorf("%s: no filter should be left above the union:\n%s", c.q, pl)
		}
		if !strings.Contains(pl, "row groups 1 (pruned 1 by statistics") {
			t.Errorf("%s: a scan should prune its row group:\n%s", c.q, pl)
		}
	}
	// Under UNION ALL the scans read only what is read above.
	q := "SELECT count(*) FROM (SELECT * FROM s UNION ALL SELECT * FROM s2) t"
	if pl := analyzed(t, e, q); strings.Count(pl, "COUNT(*) FROM FOOTERS") != 2 {
		t.Errorf("%s: each branch's count should come from the footers:\n%s", q, pl)
	}
	q = "SELECT sum(v) FROM (SELECT * FROM s UNION ALL SELECT * FROM s2) t WHERE g = 2"
	if pl := analyzed(t, e, q); strings.Count(pl, "columns: v ") != 2 || strings.Contains(pl, "name") {
		t.Errorf("%s: the scans should read v alone:\n%s", q, pl)
	}
	if got := fmt.Sprint(queryAll(t, e, q)); got != "[[600]]" {
		t.Errorf("%s: got %s, want [[600]]", q, got)
	}
}

// The cases where a filter must stay above a derived UNION (or a column
// must still be computed), each with a query whose answer would change
// if it did not.
func TestUnionFilterNotPushed(t *testing.T) {
	e := unionTables(t)
	for _, c := range []struct{ q, want, notInPlan string }{
		// A LIMIT in a branch picks its rows before the filter.
		{"SELECT id FROM ((SELECT * FROM s ORDER BY id LIMIT 10) UNION ALL SELECT * FROM s2) t WHERE id >= 8 AND id < 1002 ORDER BY id", "[[8] [9] [1000] [1001]]", "pushed filter: (id >= 8)"},
		// So does a LIMIT on the union.
		{"SELECT id FROM (SELECT * FROM s UNION ALL SELECT * FROM s2 ORDER BY id LIMIT 5) t WHERE id >= 3 ORDER BY id", "[[3] [4]]", "pushed filter: id >= 3"},
		// A window function numbers the rows of its branch before the filter.
		{"SELECT id, rn FROM (SELECT id, row_number() OVER (ORDER BY id) AS rn FROM s UNION ALL SELECT id, 0 FROM s2) t WHERE id >= 998 AND id < 1001 ORDER BY id", "[[998 999] [999 1000] [1000 0]]", "pushed filter: (id >= 998)"},
		// A volatile value is computed once per row.
		{"SELECT count(*) FROM (SELECT random() AS r FROM s UNION ALL SELECT random() FROM s2) t WHERE r < 0.5 AND r >= 0.5", "[[0]]", ""},
		// The union's column is DOUBLE: the filter was bound for doubles,
		// and the BIGINT branch's values become doubles only after the
		// union (x = 0.5 is no integer's value).
		{"SELECT count(*) FROM (SELECT id AS x FROM s UNION ALL SELECT v / 10 FROM s2) t WHERE x = 0.5", "[[142]]", "pushed filter: id"},
		{"SELECT count(*) FROM (SELECT id AS x FROM s UNION ALL SELECT v / 10 FROM s2) t WHERE x < 1.5", "[[1002]]", "pushed filter: id"},
		// The union's column is a REAL (REAL with a DECIMAL, as in
		// DuckDB): the literal branch's 0.1 is rounded to a REAL, and
		// the filter compares REALs: both rows pass, as in DuckDB.
		{"SELECT count(*) FROM (SELECT x FROM f UNION ALL SELECT 0.1) t WHERE x = 0.1", "[[2]]", ""},
		// The WHERE sees the NULLs of the outer join's unmatched rows.
		{"SELECT count(*) FROM s a LEFT JOIN (SELECT * FROM s WHERE id < 10 UNION ALL SELECT * FROM s2) b ON a.id = b.id WHERE b.v IS NULL", "[[990]]", "pushed filter: v IS NULL"},
		// Under UNION (distinct) every column decides the duplicates:
		// (g, v) has 70 distinct pairs, g alone 10.
		{"SELECT count(g) FROM (SELECT g, v FROM s UNION SELECT g, v FROM s2) t", "[[70]]", ""},
		{"SELECT count(*) FROM (SELECT g, v FROM s UNION ALL SELECT g, v FROM s2 UNION SELECT g, v FROM s) t", "[[70]]", ""},
	} {
		if got := fmt.Sprint(queryAll(t, e, c.q)); got != c.want {
			t.Errorf("%s: got %s, want %s", c.q, got, c.want)
		}
		if pl := analyzed(t, e, c.q); c.notInPlan != "" && strings.Contains(pl, c.notInPlan) {
			t.Errorf("%s: the filter should not be pushed:\n%s", c.q, pl)
		}
	}
}

// A filter on a derived INTERSECT or EXCEPT goes into both sides. For
// EXCEPT that is right because the filter reads only a row's values: a
// left row it keeps is removed by the right rows equal to it, and those
// pass it too; the right rows it drops could remove only left rows it
// drops as well. With ALL the counts of the rows it keeps are unchanged.
func TestSetOpFilterReachesBothSides(t *testing.T) {
	e := unionTables(t)
	for _, c := range []struct{ q, pushed, want string }{
		{"SELECT id FROM (SELECT * FROM s EXCEPT SELECT * FROM s WHERE g = 1) t WHERE id < 13 ORDER BY id", "id < 13", "[[0] [2] [3] [4] [5] [6] [7] [8] [9] [10] [12]]"},
		{"SELECT count(*) FROM (SELECT * FROM s INTERSECT SELECT * FROM s WHERE g = 1) t WHERE id < 20", "id < 20", "[[2]]"},
		{"WITH x AS (SELECT id FROM s INTERSECT SELECT id FROM s2) SELECT count(*) FROM x WHERE id >= 1000", "id >= 1000", "[[0]]"},
		// Duplicates: s has each g 100 times, the right side 99 times
		// for g >= 5.
		{"SELECT g, count(*) FROM (SELECT g FROM s EXCEPT ALL SELECT g FROM s WHERE id < 995) t WHERE g > 2 GROUP BY g ORDER BY g", "g > 2", "[[5 1] [6 1] [7 1] [8 1] [9 1]]"},
		{"SELECT count(*) FROM (SELECT g FROM s INTERSECT ALL SELECT g FROM s WHERE id < 995) t WHERE g = 7", "g = 7", "[[99]]"},
	} {
		if got := fmt.Sprint(queryAll(t, e, c.q)); got != c.want {
			t.Errorf("%s: got %s, want %s", c.q, got, c.want)
		}
		pl := analyzed(t, e, c.q)
		if n := strings.Count(pl, c.pushed+"\n") + strings.Count(pl, "AND ("+c.pushed+")\n"); n != 2 {
			t.Errorf("%s: the filter should reach both scans (it reaches %d):\n%s", c.q, n, pl)
		}
	}
	for _, c := range []struct{ q, want, notInPlan string }{
		// The LIMIT after the last part picks rows before the filter.
		{"SELECT id FROM (SELECT id FROM s EXCEPT SELECT id FROM s WHERE g = 1 ORDER BY id LIMIT 5) t WHERE id > 2 ORDER BY id", "[[3] [4] [5]]", "pushed filter: id > 2"},
		// The EXCEPT's column is a REAL: 0.1 compares as one, as in
		// DuckDB.
		{"SELECT count(*) FROM (SELECT x FROM f EXCEPT SELECT 0.5) t WHERE x = 0.1", "[[1]]", ""},
	} {
		if got := fmt.Sprint(queryAll(t, e, c.q)); got != c.want {
			t.Errorf("%s: got %s, want %s", c.q, got, c.want)
		}
		if pl := analyzed(t, e, c.q); c.notInPlan != "" && strings.Contains(pl, c.notInPlan) {
			t.Errorf("%s: the filter should not be pushed:\n%s", c.q, pl)
		}
	}
}

// Below window functions, a filter on a column every one of them
// partitions by goes into the derived table's scan (a partition's values
// depend on its own rows); a filter on another column, or on the window's
// value, stays above (it would change the rows numbered).
func TestWindowPartitionFilter(t *testing.T) {
	e := pushdownTables(t)
	for _, c := range []struct {
		q, want string
		pushed  bool
	}{
		{"SELECT id, rn FROM (SELECT id, g, row_number() OVER (PARTITION BY g ORDER BY id) AS rn FROM s) t WHERE g = 5 AND rn <= 2 ORDER BY id", "[[5 1] [15 2]]", true},
		{"SELECT id, rn FROM (SELECT id, g, row_number() OVER (PARTITION BY g ORDER BY id) AS rn FROM s QUALIFY rn < 3) t WHERE g = 5 ORDER BY id", "[[5 1] [15 2]]", true},
		{"SELECT id, rn, c FROM (SELECT id, g, v, row_number() OVER (PARTITION BY g ORDER BY id) AS rn, count(*) OVER (PARTITION BY v, g) AS c FROM s) t WHERE g = 5 ORDER BY id LIMIT 2", "[[5 1 15] [15 2 15]]", true},
		// Not a key of the partitions: rn counts the rows of all of g's.
		{"SELECT id, rn FROM (SELECT id, g, row_number() OVER (PARTITION BY g ORDER BY id) AS rn FROM s) t WHERE id = 15", "[[15 2]]", false},
		// v is a key of one window's partitions, not of the other's.
		{"SELECT id, rn, c FROM (SELECT id, g, v, row_number() OVER (PARTITION BY g ORDER BY id) AS rn, count(*) OVER (PARTITION BY v, g) AS c FROM s) t WHERE v = 1 AND g = 5 ORDER BY id LIMIT 2", "[[15 2 15] [85 9 15]]", true},
		// No partitions: one window over all rows.
		{"SELECT id, rn FROM (SELECT id, g, row_number() OVER (ORDER BY id) AS rn FROM s) t WHERE g = 5 ORDER BY id LIMIT 2", "[[5 6] [15 16]]", false},
	} {
		if got := fmt.Sprint(queryAll(t, e, c.q)); got != c.want {
			t.Errorf("%s: got %s, want %s", c.q, got, c.want)
		}
		pl := analyzed(t, e, c.q)
		if pushed := strings.Contains(pl, "pushed filter: g = 5\n"); pushed != c.pushed {
			t.Errorf("%s: g = 5 pushed into the scan: %v, want %v:\n%s", c.q, pushed, c.pushed, pl)
		}
		if strings.Contains(pl, "pushed filter: id") || strings.Contains(pl, "pushed filter: v") {
			t.Errorf("%s: only the filter on the partition key may reach the scan:\n%s", c.q, pl)
		}
	}
}
