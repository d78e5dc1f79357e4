package sqlplan

import (
	"strings"
	"testing"

	"github.com/carquet-go/carquet/sqlplan/plan"
)

// TestRecursiveLimits: a recursion that never ends stops with an error at
// the round or row limit instead of running forever.
func TestRecursiveLimits(t *testing.T) {
	e := newEngine(t)
	defer func(r, n int) { plan.MaxRecRounds, plan.MaxRecRows = r, n }(plan.MaxRecRounds, plan.MaxRecRows)
	plan.MaxRecRounds, plan.MaxRecRows = 200, 1000
	for q, want := range map[string]string{
		"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r":                       "did not end after 200 rounds",
		"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n FROM r UNION ALL SELECT n FROM r) SELECT count(*) FROM r": "more than 1000 rows",
	} {
		_, err := queryRows(t, e, q)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error containing %q", q, err, want)
		}
	}
	// Under UNION a cycle ends: rows seen before are not added again.
	got := queryAll(t, e, "WITH RECURSIVE r(n) AS (SELECT 1 UNION SELECT (n * 2) % 11 FROM r) SELECT count(*), sum(n) FROM r")
	if g := strings.Join(rowStrings(got), ","); g != "10 55" {
		t.Errorf("cycle under UNION: got %s, want 10 55", g)
	}
}
