package sqlplan

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestAsofPlan(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE l (k VARCHAR, t BIGINT, x BIGINT)")
	exec(t, e, "CREATE TABLE r (k VARCHAR, t BIGINT, v BIGINT)")
	exec(t, e, "INSERT INTO l VALUES ('a', 5, 1), ('a', 10, 2), ('b', 3, 3)")
	exec(t, e, "INSERT INTO r VALUES ('a', 4, 10), ('a', 9, 20), ('b', 1, 30), ('b', 2, 40)")
	// A WHERE on the right side filters the joined rows, after the match
	// is chosen: it is not pushed into the right scan.
	pl := planOf(t, e, "SELECT l.x, r.v FROM l ASOF JOIN r ON l.k = r.k AND l.t >= r.t WHERE r.v > 15 AND l.x < 3")
	if !strings.Contains(pl, "ASOF JOIN INNER on l.k = r.k and l.t >= r.t") {
		t.Errorf("plan:\n%s", pl)
	}
	if !strings.Contains(pl, "r.v > 15") || strings.Contains(pl, "pushed: r.v") {
		t.Errorf("the right side's WHERE was pushed below the ASOF join:\n%s", pl)
	}
	got := fmt.Sprint(queryAll(t, e, "SELECT l.x, r.v FROM l ASOF JOIN r ON l.k = r.k AND l.t >= r.t WHERE r.v > 15 ORDER BY l.x"))
	if got != "[[2 20] [3 40]]" {
		t.Errorf("got %s", got)
	}
	pl = planOf(t, e, "SELECT * FROM l POSITIONAL JOIN r WHERE r.v > 15")
	if !strings.Contains(pl, "POSITIONAL JOIN") {
		t.Errorf("plan:\n%s", pl)
	}
	got = fmt.Sprint(queryAll(t, e, "SELECT l.x, r.v FROM l POSITIONAL JOIN r WHERE r.v > 15"))
	if got != "[[2 20] [3 30] [<nil> 40]]" {
		t.Errorf("got %s", got)
	}
	// A placeholder in the inequality, run twice with other values.
	s, err := e.Prepare("SELECT l.x, r.v FROM l ASOF LEFT JOIN r ON l.k = r.k AND l.t >= r.t + ? ORDER BY l.x")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		d    int64
		want string
	}{{0, "[[1 10] [2 20] [3 40]]"}, {1, "[[1 10] [2 20] [3 40]]"}, {2, "[[1 <nil>] [2 10] [3 30]]"}} {
		rows, err := s.Query(context.Background(), []Arg{{Ordinal: 1, Value: c.d}})
		if err != nil {
			t.Fatal(err)
		}
		var out [][]any
		for {
			b, err := rows.Next()
			if err == io.EOF {
				break
			} else if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < b.N; i++ {
				out = append(out, []any{b.Cols[0].Value(i), b.Cols[1].Value(i)})
			}
		}
		rows.Close()
		if got := fmt.Sprint(out); got != c.want {
			t.Errorf("+ %d: got %s, want %s", c.d, got, c.want)
		}
	}
	// The words keep their meaning in strings and quoted names.
	got = fmt.Sprint(queryAll(t, e, `SELECT 'a ASOF JOIN b ON x', "asof" FROM (SELECT 1 AS "asof") s`))
	if got != "[[a ASOF JOIN b ON x 1]]" {
		t.Errorf("got %s", got)
	}
}

func TestAsofErrors(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE l (k VARCHAR, t BIGINT)")
	exec(t, e, "CREATE TABLE r (k VARCHAR, t BIGINT)")
	for q, msg := range map[string]string{
		"SELECT * FROM l ASOF JOIN r ON l.k = r.k":                 "needs an inequality",
		"SELECT * FROM l ASOF JOIN r":                              "needs an ON or USING",
		"SELECT * FROM l ASOF JOIN r ON l.t >= r.t AND l.t <= r.t": "one inequality",
		"SELECT * FROM l ASOF JOIN r ON l.k = r.k OR l.t >= r.t":   "equalities and one inequality",
		"SELECT * FROM l ASOF JOIN r ON l.k = r.k AND r.t >= 3":    "compare the two sides",
		"SELECT * FROM l ASOF CROSS JOIN r":                        "not supported",
	} {
		s, err := e.Prepare(q)
		if err == nil {
			var rows *Rows
			if rows, err = s.Query(context.Background(), nil); err == nil {
				_, err = rows.Next()
				rows.Close()
				if err == io.EOF {
					err = nil
				}
			}
		}
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: got %v, want %q", q, err, msg)
		}
	}
}

// BenchmarkAsofJoin joins 1M left rows with 100K right rows in 100 key
// groups: the right side is sorted once and each left row searched,
// O((n + m) log m).
func BenchmarkAsofJoin(b *testing.B) {
	e, err := Open(b.TempDir(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	q := `SELECT count(*), count(r.y), sum(l.x - r.y) FROM range(1000000) l(x)
		ASOF LEFT JOIN (SELECT y * 10 AS y, y % 100 AS g FROM range(100000) b(y)) r ON l.x % 100 = r.g AND l.x >= r.y`
	s, err := e.Prepare(q)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		rows, err := s.Query(context.Background(), nil)
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, err := rows.Next(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
		rows.Close()
	}
}
