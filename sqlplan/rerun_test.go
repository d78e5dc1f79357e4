package sqlplan

import (
	"fmt"
	"testing"
)

// A prepared statement runs the same way every time: planning works on a
// copy of the parser's tree (parse.CloneAST), so what one run rewrites (QUALIFY
// taken out of HAVING, ORDER BY ALL, GROUP BY ALL, ROLLUP's sets, lateral
// aliases) is there again for the next.
func TestPreparedStatementsRerun(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE r AS SELECT range AS i, range % 3 AS g, 'x' || (range % 2) AS s FROM range(7)")
	for _, q := range []string{
		"SELECT i FROM r QUALIFY row_number() OVER (ORDER BY i DESC) <= 2",
		"SELECT g, i FROM r ORDER BY ALL",
		"SELECT g, s, count(*) FROM r GROUP BY ROLLUP (g, s) ORDER BY ALL",
		"SELECT g, count(*) FROM r GROUP BY ALL ORDER BY g",
		"SELECT i * 2 AS d, d + 1 FROM r WHERE d > 4 ORDER BY d",
		"SELECT g, sum(i) FROM r GROUP BY g HAVING sum(i) > 5 ORDER BY g",
		"SELECT i FROM r WHERE EXISTS (SELECT 1 FROM r r2 WHERE r2.g = r.g AND r2.i > r.i) ORDER BY i",
		"SELECT COLUMNS('i|g') FROM r ORDER BY i",
		// Paths that change the plan as they run: a CTE named twice and
		// run once, a correlated aggregate restricted to the outer keys
		// read ahead, a join whose keys filter the scan of its probe side.
		"WITH t AS (SELECT g, sum(i) AS s FROM r GROUP BY g) SELECT g FROM t WHERE s = (SELECT max(s) FROM t)",
		"SELECT i FROM r WHERE i > (SELECT avg(r2.i) FROM r r2 WHERE r2.g = r.g) ORDER BY i",
		"SELECT r.i, r2.i FROM r JOIN (SELECT * FROM r WHERE i < 2) r2 ON r.g = r2.g ORDER BY 1, 2",
	} {
		// Prepare keeps the statements it parsed by text: each run is
		// the same Stmt.
		first := fmt.Sprint(queryAll(t, e, q))
		for run := 2; run <= 3; run++ {
			if got := fmt.Sprint(queryAll(t, e, q)); got != first {
				t.Errorf("%s: run %d gave %s, the first %s", q, run, got, first)
			}
		}
	}
}

// A named parameter called v1 is not the first positional one.
func TestNamedAndPositionalParametersApart(t *testing.T) {
	e := newEngine(t)
	got := queryAll(t, e, "SELECT ?, :v1, $1", Arg{Ordinal: 1, Value: int64(7)}, Arg{Name: "v1", Value: int64(9)})
	if fmt.Sprint(got) != "[[7 9 7]]" {
		t.Fatalf("got %v, want [[7 9 7]]", got)
	}
}
