package sqlplan

import (
	"fmt"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/sqlplan/plan"
)

// TestCorrelatedSubqueries checks correlated scalar, EXISTS and IN
// subqueries against answers computed here, on a table of several row
// groups (read by several threads), including a correlation two levels
// deep.
func TestCorrelatedSubqueries(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE t (id BIGINT NOT NULL, g BIGINT, v BIGINT) WITH (row_group_rows = 50)")
	type row struct{ id, g, v int64 }
	var rows []row
	var vals []string
	for i := int64(0); i < 400; i++ {
		r := row{i, i % 7, (i * 37) % 101}
		rows = append(rows, r)
		vals = append(vals, fmt.Sprintf("(%d, %d, %d)", r.id, r.g, r.v))
	}
	exec(t, e, "INSERT INTO t VALUES "+strings.Join(vals, ", "))

	// v above its group's average, and the count of rows of the group
	// with a larger v.
	sum, n := map[int64]int64{}, map[int64]int64{}
	for _, r := range rows {
		sum[r.g] += r.v
		n[r.g]++
	}
	var want []string
	for _, r := range rows {
		if float64(r.v) <= float64(sum[r.g])/float64(n[r.g]) {
			continue
		}
		larger := 0
		for _, o := range rows {
			if o.g == r.g && o.v > r.v {
				larger++
			}
		}
		want = append(want, fmt.Sprintf("%d %d", r.id, larger))
	}
	got := queryAll(t, e, `SELECT id, (SELECT count(*) FROM t o WHERE o.g = t.g AND o.v > t.v) FROM t
		WHERE v > (SELECT avg(v) FROM t x WHERE x.g = t.g) ORDER BY id`)
	if g := strings.Join(rowStrings(got), ","); g != strings.Join(want, ",") {
		t.Errorf("scalar: got %s\nwant %s", g, strings.Join(want, ","))
	}

	// EXISTS with a non-equality correlation (not decorrelated), NOT IN
	// correlated, and a correlation two levels deep.
	want = want[:0]
	for _, r := range rows {
		exists := false
		for _, o := range rows {
			if o.g == r.g && o.id < r.id && o.v > r.v+90 {
				exists = true
			}
		}
		if exists {
			want = append(want, fmt.Sprint(r.id))
		}
	}
	got = queryAll(t, e, `SELECT id FROM t WHERE EXISTS (SELECT 1 FROM t o WHERE o.g = t.g AND o.id < t.id AND o.v > t.v + 90) ORDER BY id`)
	if g := strings.Join(rowStrings(got), ","); g != strings.Join(want, ",") {
		t.Errorf("exists: got %s\nwant %s", g, strings.Join(want, ","))
	}
	got = queryAll(t, e, `SELECT id FROM t WHERE v NOT IN (SELECT o.v + 90 FROM t o WHERE o.g = t.g AND o.id < t.id) AND
		EXISTS (SELECT 1 FROM t o WHERE o.id = t.id - 1 AND o.g IN (SELECT x.g FROM t x WHERE x.id = t.id - 1)) ORDER BY id`)
	want = want[:0]
	for _, r := range rows {
		in := false
		for _, o := range rows {
			if o.g == r.g && o.id < r.id && o.v+90 == r.v {
				in = true
			}
		}
		if !in && r.id > 0 {
			want = append(want, fmt.Sprint(r.id))
		}
	}
	if g := strings.Join(rowStrings(got), ","); g != strings.Join(want, ",") {
		t.Errorf("not in: got %s\nwant %s", g, strings.Join(want, ","))
	}

	// A name of the outer query that is also a column of the subquery's
	// table means the subquery's own column.
	got = queryAll(t, e, `SELECT count(*) FROM t WHERE (SELECT count(*) FROM t o WHERE o.id = id) = 400`)
	if g := strings.Join(rowStrings(got), ","); g != "400" {
		t.Errorf("shadowing: got %s, want 400", g)
	}
}

func rowStrings(rows [][]any) []string {
	var out []string
	for _, r := range rows {
		var parts []string
		for _, v := range r {
			parts = append(parts, fmt.Sprint(v))
		}
		out = append(out, strings.Join(parts, " "))
	}
	return out
}

// TestGroupedCorrelation: the grouped form of a correlated aggregate (one
// run for every outer value) gives what running it per value gives, with
// NULL keys on both sides, keys of another width, empty groups, count and
// expressions of aggregates.
func TestGroupedCorrelation(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE o (id BIGINT NOT NULL, k INTEGER, s VARCHAR)")
	exec(t, e, "CREATE TABLE i (k BIGINT, v DOUBLE, s VARCHAR)")
	var ov, iv []string
	for n := 0; n < 300; n++ {
		k := fmt.Sprint(n % 17)
		if n%11 == 0 {
			k = "NULL"
		}
		ov = append(ov, fmt.Sprintf("(%d, %s, 's%d')", n, k, n%5))
		ik := fmt.Sprint((n * 7) % 23)
		if n%13 == 0 {
			ik = "NULL"
		}
		iv = append(iv, fmt.Sprintf("(%s, %d.5, 's%d')", ik, n%9, n%3))
	}
	exec(t, e, "INSERT INTO o VALUES "+strings.Join(ov, ", "))
	exec(t, e, "INSERT INTO i VALUES "+strings.Join(iv, ", "))
	queries := []string{
		"SELECT id, (SELECT count(*) FROM i WHERE i.k = o.k) FROM o ORDER BY id",
		"SELECT id, (SELECT sum(v) + count(*) FROM i WHERE o.k = i.k AND i.s <> 's1') FROM o ORDER BY id",
		"SELECT id, (SELECT max(s) FROM i WHERE i.s = o.s) FROM o ORDER BY id",
		"SELECT id FROM o WHERE k > (SELECT avg(v) FROM i WHERE i.k = o.k + 1) ORDER BY id",
	}
	for _, q := range queries {
		grouped := strings.Join(rowStrings(queryAll(t, e, q)), ";")
		plan.NoGroupedCorrelation = true
		clear(e.stmts) // prepared again without the grouped form
		perValue := strings.Join(rowStrings(queryAll(t, e, q)), ";")
		plan.NoGroupedCorrelation = false
		clear(e.stmts)
		if grouped != perValue {
			t.Errorf("%s:\ngrouped   %s\nper value %s", q, grouped, perValue)
		}
	}
}
