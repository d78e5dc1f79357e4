package sqlplan

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// TestOuterJoinNullable: the columns of a null-extended side of an outer
// join are reported nullable even when the file declares them required.
func TestOuterJoinNullable(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE a (id BIGINT NOT NULL)")
	exec(t, e, "CREATE TABLE b (id BIGINT NOT NULL)")
	for q, want := range map[string][2]bool{
		"SELECT a.id, b.id FROM a JOIN b ON a.id = b.id":       {false, false},
		"SELECT a.id, b.id FROM a LEFT JOIN b ON a.id = b.id":  {false, true},
		"SELECT a.id, b.id FROM a RIGHT JOIN b ON a.id = b.id": {true, false},
		"SELECT a.id, b.id FROM a FULL JOIN b ON a.id = b.id":  {true, true},
	} {
		s, err := e.Prepare(q)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := s.Query(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		cols := rows.Columns()
		rows.Close()
		if cols[0].Nullable != want[0] || cols[1].Nullable != want[1] {
			t.Errorf("%s: nullable %v %v, want %v", q, cols[0].Nullable, cols[1].Nullable, want)
		}
	}
}

// TestLargeCrossJoin: a nested-loop join whose left batches times the
// right side exceed crossChunk pairs is probed in slices (it was refused),
// and a FROM list's WHERE equality is a hash join; both counted against a
// direct computation.
func TestLargeCrossJoin(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE a AS SELECT range AS x, range % 7 AS k FROM range(3000)")
	exec(t, e, "CREATE TABLE b AS SELECT range * 2 AS y, range % 5 AS k FROM range(1500)")
	less, same := int64(0), int64(0)
	for x := int64(0); x < 3000; x++ {
		for r := int64(0); r < 1500; r++ {
			if x < 2*r {
				less++
			}
			if x%7 == r%5 {
				same++
			}
		}
	}
	if 3000*1500 <= kernels.CrossChunk {
		t.Fatalf("the tables are too small to test slicing (%d pairs, CrossChunk %d)", 3000*1500, kernels.CrossChunk)
	}
	for q, want := range map[string]int64{
		"SELECT count(*) FROM a, b WHERE a.x < b.y":           less,
		"SELECT count(*) FROM a CROSS JOIN b WHERE a.x < b.y": less,
		"SELECT count(*) FROM a LEFT JOIN b ON a.x < b.y":     less + 2, // x = 2998 and 2999 find no larger y (at most 2998)
		"SELECT count(*) FROM a, b WHERE a.k = b.k":           same,
	} {
		got := queryAll(t, e, q)
		if len(got) != 1 || got[0][0] != want {
			t.Errorf("%s: %v, want %d", q, got, want)
		}
	}
	if pl := planOf(t, e, "SELECT count(*) FROM a, b WHERE a.k = b.k"); !strings.Contains(pl, "HASH JOIN") {
		t.Errorf("FROM a, b WHERE a.k = b.k is not a hash join:\n%s", pl)
	}
}

// TestLateralAliasesReplanned: a statement whose select items use earlier
// aliases gives the same rows each time it runs, also from several
// goroutines at once (it is planned at every execution; the alias
// replacement works on a copy of the statement's tree).
func TestLateralAliasesReplanned(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE a AS SELECT range AS x FROM range(3)")
	s, err := e.Prepare("SELECT x * 2 AS d, d + 1 AS e, e * d AS f FROM a WHERE f > 0 ORDER BY x")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 3; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for run := 0; run < 3; run++ {
				if err := checkAliasRows(s); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// checkAliasRows runs the statement of TestLateralAliasesReplanned once.
func checkAliasRows(s *Stmt) error {
	rows, err := s.Query(context.Background(), nil)
	if err != nil {
		return err
	}
	defer rows.Close()
	var got []any
	for {
		b, err := rows.Next()
		if err != nil {
			break
		}
		for i := 0; i < b.N; i++ {
			got = append(got, []any{b.Cols[0].Get(i), b.Cols[1].Get(i), b.Cols[2].Get(i)})
		}
	}
	if fmt.Sprint(got) != "[[2 3 6] [4 5 20]]" {
		return fmt.Errorf("rows %v", got)
	}
	return nil
}

// A lateral subquery runs per distinct outer values across several left
// batches (the table spans row groups), keeps the left rows of a LEFT
// JOIN without partners, and is refused where it cannot be lateral.
func TestLateral(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE big AS SELECT range AS id, CASE WHEN range % 10 = 0 THEN [] ELSE [range, range % 3] END AS l FROM range(20000)")
	var n, sum, nulls int64
	for id := int64(0); id < 20000; id++ {
		if id%10 == 0 {
			nulls++
			continue
		}
		n += 2
		sum += id + id%3
	}
	for q, want := range map[string][]any{
		"SELECT count(*), sum(x) FROM big, unnest(big.l) AS u(x)":                        {n, sum},
		"SELECT count(*), sum(x) FROM big, LATERAL (SELECT unnest(big.l) AS x) u":        {n, sum},
		"SELECT count(*), count(x) FROM big LEFT JOIN LATERAL unnest(l) AS u(x) ON true": {n + nulls, n},
	} {
		got := queryAll(t, e, q)
		if len(got) != 1 || fmt.Sprint(got[0][0]) != fmt.Sprint(want[0]) || fmt.Sprint(got[0][1]) != fmt.Sprint(want[1]) {
			t.Errorf("%s: %v, want %v", q, got, want)
		}
	}
	if pl := planOf(t, e, "SELECT id, x FROM big, unnest(l) AS u(x)"); !strings.Contains(pl, "LATERAL JOIN INNER") {
		t.Errorf("no lateral join in the plan:\n%s", pl)
	}
	for q, msg := range map[string]string{
		"SELECT * FROM big b FULL JOIN LATERAL (SELECT b.id AS z) s ON true": "RIGHT or FULL JOIN",
		"SELECT * FROM big, (SELECT nosuch) s":                               `"nosuch" does not exist`,
		"SELECT * FROM (SELECT b.id) s, big b":                               `"b" does not exist`,
	} {
		if err := queryErr(t, e, q); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: error %v, want one saying %q", q, err, msg)
		}
	}
}
