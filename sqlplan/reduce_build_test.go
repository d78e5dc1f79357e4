package sqlplan

import (
	"slices"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/sqlplan/plan"
)

// TestReduceOnBuild: a correlated subquery that is a hash join's build key
// (WHERE probe.v = (SELECT min(...) WHERE inner.k = build.k)) is run for
// the build rows' keys only, and answers as when run once per outer value.
func TestReduceOnBuild(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE part AS SELECT i AS pk, i % 9 AS size FROM range(2000) t(i)")
	exec(t, e, "CREATE TABLE ps AS SELECT i % 2000 AS pk, i AS sk, (i * 37) % 101 AS cost FROM range(8000) t(i)")
	q := "SELECT p.pk, ps.sk, ps.cost FROM ps, part p WHERE p.pk = ps.pk AND p.size = 4 AND ps.cost = (SELECT min(x.cost) FROM ps x WHERE x.pk = p.pk AND x.sk % 3 <> 0)"
	pl := analyzed(t, e, q)
	if !strings.Contains(pl, "correlated subquery of the build keys restricted to 222 outer keys") {
		t.Errorf("the subquery should be restricted to the 222 parts of size 4:\n%s", pl)
	}
	got := sortedRows(queryAll(t, e, q))
	plan.NoGroupedCorrelation = true
	want := sortedRows(queryAll(t, e, q))
	plan.NoGroupedCorrelation = false
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("restricted run gives %d rows %v, per-value runs %d %v", len(got), got[:min(len(got), 5)], len(want), want[:min(len(want), 5)])
	}
}
