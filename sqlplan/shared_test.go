package sqlplan

import (
	"strings"
	"testing"
)

func TestDerivedTableNamedTwiceRunsOnce(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE s AS SELECT i % 10 AS g, i AS v FROM range(1000) t(i)")
	q := "WITH tot AS (SELECT g, sum(v) AS total FROM s GROUP BY g) SELECT g FROM tot WHERE total = (SELECT max(total) FROM tot)"
	if pl := analyzed(t, e, q); !strings.Contains(pl, "DERIVED TABLE computed once for 2 references (10 rows)") {
		t.Errorf("the CTE should be computed once:\n%s", pl)
	}
	if got := queryAll(t, e, q); len(got) != 1 || got[0][0] != int64(9) {
		t.Errorf("got %v, want [[9]]", got)
	}
	// Named once: planned as usual (its filters reach its scan).
	if pl := analyzed(t, e, "WITH tot AS (SELECT g, sum(v) AS total FROM s GROUP BY g) SELECT g FROM tot"); strings.Contains(pl, "computed once") {
		t.Errorf("a CTE named once should not be materialized:\n%s", pl)
	}
	// A volatile one runs per reference.
	if pl := analyzed(t, e, "WITH r AS (SELECT random() AS x FROM s) SELECT count(*) FROM r a, (SELECT count(*) FROM r) b"); strings.Contains(pl, "computed once") {
		t.Errorf("a CTE calling random() should not be shared:\n%s", pl)
	}
	// A correlated derived table runs per reference (and per outer row).
	q = "SELECT g, (SELECT count(*) FROM (SELECT * FROM s i WHERE i.g = o.g) x) + (SELECT count(*) FROM (SELECT * FROM s i WHERE i.g = o.g) x) FROM (SELECT DISTINCT g FROM s) o ORDER BY g LIMIT 1"
	if got := queryAll(t, e, q); len(got) != 1 || got[0][1] != int64(200) {
		t.Errorf("got %v, want [[0 200]]", got)
	}
}
