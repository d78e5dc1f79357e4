package sqlplan

import (
	"fmt"
	"strings"
	"testing"
)

// A fact table joined with a filtered and a whole dimension: the two
// builds run at once at 2 threads; the answer is the serial one, and the
// filtered dimension's keys still filter the fact table's scan.
func TestJoinBuildsAtOnce(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "COPY (SELECT i AS v, i % 1000 AS fk1, i % 777 AS fk2 FROM range(200000) t(i)) TO 'f.parquet' (FORMAT PARQUET, ROW_GROUP_SIZE 50000)")
	exec(t, e, "COPY (SELECT i AS k, (i * 7) % 1000 AS x FROM range(1000) t(i)) TO 'd1.parquet' (FORMAT PARQUET)")
	exec(t, e, "COPY (SELECT i AS k, 'n' || (i % 5) AS name FROM range(777) t(i)) TO 'd2.parquet' (FORMAT PARQUET)")
	sums := map[string]int64{}
	counts := map[string]int64{}
	for i := int64(0); i < 200000; i++ {
		if (i%1000)*7%1000 < 100 {
			name := fmt.Sprintf("n%d", i%777%5)
			sums[name] += i
			counts[name]++
		}
	}
	var want [][]any
	for k := range 5 {
		name := fmt.Sprintf("n%d", k)
		want = append(want, []any{name, sums[name], counts[name]})
	}
	q := "SELECT name, sum(v), count(*) FROM 'f.parquet' f, 'd1.parquet' d1, 'd2.parquet' d2 WHERE f.fk1 = d1.k AND f.fk2 = d2.k AND d1.x < 100 GROUP BY name ORDER BY name"
	for _, threads := range []int{2, 1} {
		exec(t, e, fmt.Sprintf("SET threads = %d", threads))
		if got := queryAll(t, e, q); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("threads %d: %v, want %v", threads, got, want)
		}
	}
	exec(t, e, "SET threads = 2")
	pl := fmt.Sprint(queryAll(t, e, "EXPLAIN ANALYZE "+q))
	if !strings.Contains(pl, "PARALLEL x2") || !strings.Contains(pl, "fk1 IN (100 integers") {
		t.Errorf("EXPLAIN ANALYZE: no pipeline or no key filter from d1:\n%s", pl)
	}
}
