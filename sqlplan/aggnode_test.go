package sqlplan

import (
	"testing"

	"github.com/carquet-go/carquet/sqlplan/plan"
)

// An aggregation of a whole table by a key with a wide footer range
// reserves its groups up front; the answers are those of any other run.
func TestAggregationReservesGroupsFromFooters(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE w AS SELECT i % 100000 AS k, i AS v, i * 0.5 AS d FROM range(200000) t(i)")
	got := queryAll(t, e, "SELECT count(*), sum(n), sum(s), min(m), max(x) FROM (SELECT k, count(*) AS n, sum(v) AS s, min(d) AS m, max(v) AS x, avg(d) AS a FROM w GROUP BY k)")
	want := []string{"100000", "200000", "19999900000", "0.0", "199999"}
	for i, w := range want {
		if g := fmtAny(got[0][i]); g != w {
			t.Errorf("column %d: got %s, want %s", i, g, w)
		}
	}
	if g, d := plan.GroupsHint(nil, nil); g != 0 || d != -1 {
		t.Errorf("no keys: hint %d %d", g, d)
	}
}
