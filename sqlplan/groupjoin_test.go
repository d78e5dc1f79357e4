package sqlplan

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/sqlplan/plan"
)

// TestGroupCountJoin: counts per probe-side key over a join are answered
// without the joined rows (groupCountJoin), and give what the hash join
// and aggregation give, with duplicate and NULL keys on both sides, NULLs
// in the counted column, keys on one side only, and inner and LEFT joins.
func TestGroupCountJoin(t *testing.T) {
	e := newEngine(t)
	// a: keys 0..49 twice for even keys, NULL for one row in 13; b: keys
	// 0..79 (30..79 with no a row), NULL one row in 11, v NULL one in 5.
	exec(t, e, "CREATE TABLE a AS SELECT CASE WHEN i % 13 = 5 THEN NULL ELSE i % 50 END AS k, i AS x FROM range(75) t(i)")
	exec(t, e, "CREATE TABLE b AS SELECT CASE WHEN i % 11 = 3 THEN NULL ELSE (i * 7) % 80 END AS k, CASE WHEN i % 5 = 0 THEN NULL ELSE i END AS v, i AS w FROM range(400) t(i)")
	exec(t, e, "CREATE TABLE u AS SELECT i AS k FROM range(60) t(i)")
	queries := []string{
		"SELECT a.k, count(b.v) FROM a LEFT JOIN b ON a.k = b.k GROUP BY a.k",
		"SELECT a.k, count(*), count(b.v), count(b.w) FROM a LEFT JOIN b ON a.k = b.k GROUP BY a.k",
		"SELECT a.k, count(*), count(b.v) FROM a JOIN b ON a.k = b.k GROUP BY a.k",
		"SELECT u.k, count(b.v) AS c FROM u LEFT JOIN b ON u.k = b.k AND b.w % 3 <> 1 GROUP BY u.k",
		"SELECT c, count(*) FROM (SELECT u.k, count(b.v) AS c FROM u LEFT JOIN b ON u.k = b.k AND b.w % 3 <> 1 GROUP BY u.k) GROUP BY c",
		"SELECT u.k, count(*) FROM u LEFT JOIN b ON u.k = b.k WHERE u.k < 40 GROUP BY u.k HAVING count(*) > 1",
		"SELECT u.k, count(*) FROM u JOIN b ON u.k = b.k WHERE b.k > 1000 GROUP BY u.k",
	}
	for _, q := range queries {
		if pl := analyzed(t, e, q); !strings.Contains(pl, "GROUP COUNT JOIN") {
			t.Errorf("%s: no group count join:\n%s", q, pl)
		}
		got := sortedRows(queryAll(t, e, q))
		plan.NoGroupCountJoin = true
		want := sortedRows(queryAll(t, e, q))
		plan.NoGroupCountJoin = false
		if !slices.Equal(got, want) {
			t.Errorf("%s:\n got %v\nwant %v", q, got, want)
		}
		if len(want) == 0 && !strings.Contains(q, "1000") {
			t.Errorf("%s: no rows, the test data misses the case", q)
		}
	}
	// Shapes it must leave to the hash join: a key of the right side, an
	// aggregate other than COUNT, COUNT DISTINCT, a condition on both sides.
	for _, q := range []string{
		"SELECT b.k, count(*) FROM a LEFT JOIN b ON a.k = b.k GROUP BY b.k",
		"SELECT a.k, sum(b.v) FROM a LEFT JOIN b ON a.k = b.k GROUP BY a.k",
		"SELECT a.k, count(DISTINCT b.v) FROM a LEFT JOIN b ON a.k = b.k GROUP BY a.k",
		"SELECT a.k, count(b.v) FROM a LEFT JOIN b ON a.k = b.k AND a.x < b.w GROUP BY a.k",
		"SELECT a.k, count(a.x) FROM a LEFT JOIN b ON a.k = b.k GROUP BY a.k",
	} {
		if pl := analyzed(t, e, q); strings.Contains(pl, "GROUP COUNT JOIN") {
			t.Errorf("%s: should not be a group count join:\n%s", q, pl)
		}
	}
}

// sortedRows formats rows and sorts them, for comparing unordered answers.
func sortedRows(rows [][]any) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = fmt.Sprint(r...)
	}
	slices.Sort(out)
	return out
}
