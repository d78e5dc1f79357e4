package sqlplan

import (
	"fmt"
	"strings"
	"testing"
)

// GROUP BY a join key and columns of a build side with unique keys
// hashes the key alone; a build side with repeated keys, an outer join
// or a join condition keeps every key hashed; the answers are those of
// grouping by every key (a key written as an expression is never left
// out).
func TestGroupKeysDeterminedByUniqueJoinKeys(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE fact AS SELECT i AS id, i % 100 AS k, i % 7 AS v FROM range(5000) t(i)")
	exec(t, e, "CREATE TABLE dim AS SELECT i AS k, 'name' || (i % 10) AS name, i % 3 AS grp FROM range(100) t(i)")
	// Repeated keys: k 0..49 twice, under different names.
	exec(t, e, "CREATE TABLE dup AS SELECT i % 50 AS k, 'dup' || i AS name FROM range(100) t(i)")
	const note = "keys that the others determine"
	cases := []struct {
		q, plain string
		folds    bool
	}{
		{"SELECT f.k, d.name, d.grp, sum(f.v) FROM fact f JOIN dim d ON f.k = d.k GROUP BY f.k, d.name, d.grp",
			"SELECT f.k, d.name || '', d.grp + 0, sum(f.v) FROM fact f JOIN dim d ON f.k = d.k GROUP BY f.k, d.name || '', d.grp + 0", true},
		{"SELECT d.name, d.k, count(*) FROM fact f, dim d WHERE f.k = d.k AND f.v < 3 GROUP BY d.name, d.k",
			"SELECT d.name || '', d.k + 0, count(*) FROM fact f, dim d WHERE f.k = d.k AND f.v < 3 GROUP BY d.name || '', d.k + 0", true},
		{"SELECT f.k, d.name, sum(f.v) FROM fact f JOIN dup d ON f.k = d.k GROUP BY f.k, d.name",
			"SELECT f.k, d.name || '', sum(f.v) FROM fact f JOIN dup d ON f.k = d.k GROUP BY f.k, d.name || ''", false},
		{"SELECT f.k, d.name, sum(f.v) FROM fact f LEFT JOIN dim d ON f.k = d.k AND d.grp = 1 GROUP BY f.k, d.name",
			"SELECT f.k, d.name || '', sum(f.v) FROM fact f LEFT JOIN dim d ON f.k = d.k AND d.grp = 1 GROUP BY f.k, d.name || ''", false},
		{"SELECT f.k, d.name, sum(f.v) FROM fact f JOIN dim d ON f.k = d.k AND f.v > d.grp GROUP BY f.k, d.name",
			"SELECT f.k, d.name || '', sum(f.v) FROM fact f JOIN dim d ON f.k = d.k AND f.v > d.grp GROUP BY f.k, d.name || ''", false},
	}
	for _, c := range cases {
		pl := analyzed(t, e, c.q)
		if strings.Contains(pl, note) != c.folds {
			t.Errorf("%s: keys left out %v, want %v:\n%s", c.q, !c.folds, c.folds, pl)
		}
		if strings.Contains(analyzed(t, e, c.plain), note) {
			t.Errorf("%s: keys that are expressions must stay hashed", c.plain)
		}
		got, want := rowsText(queryAll(t, e, c.q+" ORDER BY ALL")), rowsText(queryAll(t, e, c.plain+" ORDER BY ALL"))
		if got != want || want == "" {
			t.Errorf("%s:\ngot  %s\nwant %s", c.q, got, want)
		}
	}
}

// rowsText is the rows as text, one a line, in their order.
func rowsText(rows [][]any) string {
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintln(&b, r...)
	}
	return b.String()
}
