package sqlplan

import (
	"strings"
	"testing"

	"github.com/carquet-go/carquet/sqlplan/plan"
)

// analyzed runs EXPLAIN ANALYZE and returns its lines.
func analyzed(t *testing.T, e *Engine, q string) string {
	t.Helper()
	var b strings.Builder
	for _, r := range queryAll(t, e, "EXPLAIN ANALYZE "+q) {
		b.WriteString(r[0].(string) + "\n")
	}
	return b.String()
}

func keyFilterTables(t *testing.T) *Engine {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE fact AS SELECT i AS id, i % 1000 AS k, i % 7 AS v FROM range(20000) t(i)")
	exec(t, e, "CREATE TABLE dim AS SELECT i AS k, i % 10 AS grp FROM range(1000) t(i)")
	return e
}

func TestJoinKeysFilterTheProbeScan(t *testing.T) {
	e := keyFilterTables(t)
	q := "SELECT count(*), sum(f.v) FROM fact f JOIN dim d ON f.k = d.k WHERE d.grp = 3"
	pl := analyzed(t, e, q)
	if !strings.Contains(pl, "pushed filter: k IN (100 integers from 3 to 993)") || !strings.Contains(pl, "rows returned 2000") {
		t.Errorf("the probe scan should be filtered by the 100 build keys:\n%s", pl)
	}
	got := queryAll(t, e, q)
	if len(got) != 1 || got[0][0] != int64(2000) {
		t.Errorf("got %v, want 2000 rows", got)
	}
	// A LEFT JOIN keeps every probe row.
	pl = analyzed(t, e, "SELECT count(*) FROM fact f LEFT JOIN (SELECT * FROM dim WHERE grp = 3) d ON f.k = d.k")
	if strings.Contains(pl, "integers from") {
		t.Errorf("a LEFT JOIN's probe side must not be filtered:\n%s", pl)
	}
	// Keys covering the whole column filter nothing: no filter.
	pl = analyzed(t, e, "SELECT count(*) FROM fact f JOIN dim d ON f.k = d.k")
	if strings.Contains(pl, "integers from") {
		t.Errorf("build keys that cover the column should not become a filter:\n%s", pl)
	}
	// Through an inner join below: the filter reaches the first scan.
	pl = analyzed(t, e, "SELECT count(*) FROM fact f JOIN fact g ON f.id = g.id JOIN dim d ON f.k = d.k WHERE d.grp = 3")
	if !strings.Contains(pl, "pushed filter: k IN (100 integers") {
		t.Errorf("the filter should pass the join below:\n%s", pl)
	}
}

// Each integer key of a join on several keys filters the probe scan by
// the build side's values of that key.
func TestEveryJoinKeyFiltersTheProbeScan(t *testing.T) {
	e := keyFilterTables(t)
	q := "SELECT count(*), sum(f.v) FROM fact f JOIN (SELECT k, k % 7 AS v FROM dim WHERE grp = 3) d ON f.k = d.k AND f.v = d.v"
	planHas(t, e, q, "k IN (100 integers from 3 to 993)", "the probe scan should be filtered by the first key's 100 build values")
	want := queryAll(t, e, "SELECT count(*), sum(f.v) FROM fact f, dim d WHERE f.k = d.k AND d.grp = 3 AND f.v = d.k % 7")
	if got := queryAll(t, e, q); len(got) != 1 || len(want) != 1 || got[0][0] != want[0][0] || got[0][1] != want[0][1] {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestCorrelatedAggregateReadsAheadForItsKeys(t *testing.T) {
	e := keyFilterTables(t)
	q := "SELECT count(*) FROM fact o WHERE o.id < 50 AND o.v >= (SELECT max(i.v) - 3 FROM fact i WHERE i.k = o.k)"
	planHas(t, e, q, "READ AHEAD 50 rows: correlated subqueries restricted to 50 outer keys", "the grouped subquery should be restricted to the 50 outer keys")
	sameAsPerValue(t, e, q)
}

// planHas checks that the EXPLAIN ANALYZE of q holds text.
func planHas(t *testing.T, e *Engine, q, text, why string) {
	t.Helper()
	if pl := analyzed(t, e, q); !strings.Contains(pl, text) {
		t.Errorf("%s:\n%s", why, pl)
	}
}

// sameAsPerValue checks that the one-row answer of q with grouped
// correlated subqueries is that of running them once per outer value.
func sameAsPerValue(t *testing.T, e *Engine, q string) {
	t.Helper()
	want := queryAll(t, e, q)
	plan.NoGroupedCorrelation = true
	defer func() { plan.NoGroupedCorrelation = false }()
	if got := queryAll(t, e, q); len(got) != 1 || got[0][0] != want[0][0] {
		t.Errorf("per-value runs give %v, the grouped run %v", got, want)
	}
}

// The conjuncts without subqueries filter the rows before the correlated
// subquery reads ahead for its keys, on every thread, in a filter of
// their own.
func TestPlainConjunctsFilterBeforeTheSubqueries(t *testing.T) {
	e := keyFilterTables(t)
	q := "SELECT count(*) FROM fact o WHERE o.id % 100 = 0 AND o.v >= (SELECT max(i.v) - 3 FROM fact i WHERE i.k = o.k)"
	pl := analyzed(t, e, q)
	ahead := strings.Index(pl, "READ AHEAD 200 rows")
	if ahead < 0 || !strings.Contains(pl[ahead:], "PARALLEL") || !strings.Contains(pl[ahead:], "FILTER (residual) o.id % 100 = 0") {
		t.Errorf("the plain conjunct should filter (in parallel) below the read-ahead of 200 rows:\n%s", pl)
	}
	sameAsPerValue(t, e, q)
}

// A join's keys filter the build side of the join below it before that
// side is hashed, whose keys then filter the probe scan (TPC-H Q11's
// nation -> supplier -> partsupp), in serial and parallel plans.
func TestJoinKeysCascadeDownTheBuildSides(t *testing.T) {
	dir := t.TempDir()
	setup, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	exec(t, setup, "CREATE TABLE fact AS SELECT i AS id, i % 1000 AS k, i % 7 AS v FROM range(20000) t(i)")
	exec(t, setup, "CREATE TABLE dim AS SELECT i AS k, i % 10 AS grp FROM range(1000) t(i)")
	exec(t, setup, "CREATE TABLE grps AS SELECT i AS grp, 'g' || i AS name FROM range(10) t(i)")
	setup.Close()
	for _, threads := range []int{1, 2} {
		e, err := Open(dir, Options{Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		q := "SELECT count(*), sum(f.v) FROM fact f, dim d, grps g WHERE f.k = d.k AND d.grp = g.grp AND g.name = 'g3'"
		pl := analyzed(t, e, q)
		if !strings.Contains(pl, "pushed filter: grp IN (1 integers from 3 to 3)") || !strings.Contains(pl, "pushed filter: k IN (100 integers from 3 to 993)") {
			t.Errorf("threads %d: the group's key should filter dim, and dim's keys fact:\n%s", threads, pl)
		}
		if got := queryAll(t, e, q); got[0][0] != int64(2000) {
			t.Errorf("threads %d: got %v, want 2000 rows", threads, got)
		}
		e.Close()
	}
}

func TestCorrelatedExistsReadsAheadForItsKeys(t *testing.T) {
	e := keyFilterTables(t)
	for _, q := range []string{
		"SELECT count(*) FROM fact o WHERE o.id < 300 AND EXISTS (SELECT * FROM fact i WHERE i.k = o.k AND i.v > o.v)",
		"SELECT count(*) FROM fact o WHERE o.id < 300 AND NOT EXISTS (SELECT * FROM fact i WHERE i.k = o.k AND i.v > o.v AND i.id <> o.id)",
		"SELECT count(*) FROM fact o WHERE o.id % 100 = 7 AND EXISTS (SELECT * FROM fact i WHERE i.k = o.id AND i.v = 0)",
	} {
		pl := analyzed(t, e, q)
		if !strings.Contains(pl, "correlated subqueries restricted to") {
			t.Errorf("%s: the EXISTS should be restricted to the outer keys:\n%s", q, pl)
		}
		want := queryAll(t, e, q)
		plan.NoGroupedCorrelation = true
		got := queryAll(t, e, q)
		plan.NoGroupedCorrelation = false
		if got[0][0] != want[0][0] {
			t.Errorf("%s: per-value runs give %v, the restricted grouped run %v", q, got, want)
		}
	}
}
