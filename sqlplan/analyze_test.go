package sqlplan

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// figuresRe finds the figures EXPLAIN ANALYZE puts on an operator's line.
var figuresRe = regexp.MustCompile(`^\s*(\S+ \S+).*  \[rows (\d+), (.*)\]$`)

// opFigures are one operator's figures as shown.
type opFigures struct {
	op    string // the line's first word(s): SCAN, HASH JOIN, ...
	line  string
	rows  int64
	times []time.Duration // every duration shown
}

var durationRe = regexp.MustCompile(`(?:time|self) ([0-9.]+(?:ns|µs|ms|s|m|h)[0-9.a-zµ]*)`)

// analyzeFigures runs EXPLAIN ANALYZE q and returns its operators'
// figures in plan order, and the plan.
func analyzeFigures(t *testing.T, e *Engine, q string) ([]opFigures, string) {
	t.Helper()
	pl := analyzed(t, e, q)
	return parseFigures(t, pl), pl
}

func parseFigures(t *testing.T, pl string) []opFigures {
	t.Helper()
	var out []opFigures
	for _, l := range strings.Split(pl, "\n") {
		m := figuresRe.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		rows, _ := strconv.ParseInt(m[2], 10, 64)
		op := strings.Fields(m[1]) // HASH JOIN, HASH AGGREGATE, NESTED LOOP: two words
		if op[0] != "HASH" && op[0] != "NESTED" {
			op = op[:1]
		}
		f := opFigures{op: strings.Join(op, " "), line: l, rows: rows}
		for _, d := range durationRe.FindAllStringSubmatch(m[3], -1) {
			v, err := time.ParseDuration(d[1])
			if err != nil {
				t.Fatalf("duration %q of %q: %v", d[1], l, err)
			}
			f.times = append(f.times, v)
		}
		out = append(out, f)
	}
	return out
}

func countOf(t *testing.T, e *Engine, q string) int64 {
	t.Helper()
	return queryAll(t, e, q)[0][0].(int64)
}

func analyzeTables(t *testing.T) *Engine {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE f AS SELECT range AS id, range % 97 AS k, range * 3 AS v FROM range(300000)")
	exec(t, e, "CREATE TABLE d AS SELECT range * 2 AS id, range % 11 AS w FROM range(100000)")
	return e
}

// TestExplainAnalyzeFigures: every operator of a join + aggregate plan
// shows its rows and times; the rows are the real counts of what each
// operator returns, serial and with a pipeline on two threads.
func TestExplainAnalyzeFigures(t *testing.T) {
	e := analyzeTables(t)
	const q = "SELECT f.k, count(*), sum(d.w) FROM f JOIN d ON f.id = d.id WHERE f.v % 3 = 0 AND f.k < 50 GROUP BY f.k ORDER BY f.k"
	joined := countOf(t, e, "SELECT count(*) FROM f JOIN d ON f.id = d.id WHERE f.v % 3 = 0 AND f.k < 50")
	groups := countOf(t, e, "SELECT count(DISTINCT f.k) FROM f JOIN d ON f.id = d.id WHERE f.v % 3 = 0 AND f.k < 50")
	if joined == 0 || groups == 0 {
		t.Fatalf("the test data join to nothing (%d rows, %d groups)", joined, groups)
	}
	for _, threads := range []int{1, 2} {
		t.Run(fmt.Sprintf("threads=%d", threads), func(t *testing.T) {
			exec(t, e, fmt.Sprintf("SET threads = %d", threads))
			ops, pl := analyzeFigures(t, e, q)
			seen := map[string]bool{}
			for _, op := range ops {
				seen[op.op] = true
				if len(op.times) == 0 {
					t.Errorf("no time on %q", op.line)
				}
				for _, d := range op.times {
					if d < 0 {
						t.Errorf("negative time on %q", op.line)
					}
				}
				switch op.op {
				case "HASH JOIN":
					if op.rows != joined {
						t.Errorf("the join shows %d rows, it returns %d:\n%s", op.rows, joined, pl)
					}
					if !strings.Contains(op.line, "peak memory") {
						t.Errorf("the join shows no peak memory: %q", op.line)
					}
				case "HASH AGGREGATE", "SORT", "PROJECT":
					if op.rows != groups {
						t.Errorf("%s shows %d rows, want %d:\n%s", op.op, op.rows, groups, pl)
					}
				}
				if op.op == "SCAN" && strings.Contains(op.line, "SCAN d ") && op.rows > 100000 {
					t.Errorf("the build side's scan shows %d rows, it has 100000", op.rows)
				}
			}
			for _, want := range []string{"SCAN", "HASH JOIN", "HASH AGGREGATE", "SORT", "PROJECT"} {
				if !seen[want] {
					t.Errorf("no figures on %s:\n%s", want, pl)
				}
			}
			if threads == 2 && !seen["PARALLEL"] {
				t.Errorf("no pipeline with 2 threads:\n%s", pl)
			}
			if !strings.Contains(pl, fmt.Sprintf("rows returned: %d", groups)) {
				t.Errorf("the total is not %d:\n%s", groups, pl)
			}
		})
	}
}

// TestExplainAnalyzeSerialFilter: the rows of a filter run serially are
// the rows that pass it, and a LIMIT's rows are the limit.
func TestExplainAnalyzeSerialFilter(t *testing.T) {
	e := analyzeTables(t)
	exec(t, e, "SET threads = 1")
	pass := countOf(t, e, "SELECT count(*) FROM f WHERE v % 7 = 1")
	ops, pl := analyzeFigures(t, e, "SELECT id FROM f WHERE v % 7 = 1 LIMIT 10")
	for _, op := range ops {
		switch op.op {
		case "LIMIT":
			if op.rows != 10 {
				t.Errorf("LIMIT shows %d rows:\n%s", op.rows, pl)
			}
		case "FILTER":
			// The limit stops the filter early: it returned at least the
			// 10 rows, at most all that pass.
			if op.rows < 10 || op.rows > pass {
				t.Errorf("FILTER shows %d rows (of %d passing):\n%s", op.rows, pass, pl)
			}
		}
	}
}

// TestExplainAnalyzePreparedTwice: one prepared EXPLAIN ANALYZE run twice
// shows the same rows (the figures belong to the run, not the statement).
func TestExplainAnalyzePreparedTwice(t *testing.T) {
	e := analyzeTables(t)
	s, err := e.Prepare("EXPLAIN ANALYZE SELECT f.k, count(*) FROM f JOIN d ON f.id = d.id GROUP BY f.k")
	if err != nil {
		t.Fatal(err)
	}
	run := func() []int64 {
		rows, err := s.Query(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var b strings.Builder
		for {
			bt, err := rows.Next()
			if err != nil {
				break
			}
			for i := 0; i < bt.N; i++ {
				b.WriteString(bt.Cols[0].Value(i).(string) + "\n")
			}
		}
		var out []int64
		for _, op := range parseFigures(t, b.String()) {
			out = append(out, op.rows)
		}
		if len(out) == 0 {
			t.Fatalf("no figures:\n%s", b.String())
		}
		return out
	}
	first, second := run(), run()
	if fmt.Sprint(first) != fmt.Sprint(second) {
		t.Errorf("rows per operator %v, then %v", first, second)
	}
}

// TestMemoryLimit: each operator that holds rows fails with an error
// naming memory_limit under a small limit, and gives the right answer
// under a large one; a failed query gives its memory back.
func TestMemoryLimit(t *testing.T) {
	e := analyzeTables(t)
	cases := []struct{ q, what string }{
		{"SELECT count(*) FROM f JOIN d ON f.id = d.id", "hash join build side on d.id"},
		{"SELECT count(*) FROM (SELECT id, count(*) FROM f GROUP BY id)", "hash aggregate by id"},
		{"SELECT count(*) FROM (SELECT v FROM f ORDER BY v DESC)", "sort"},
		{"SELECT count(*) FROM (SELECT DISTINCT v FROM f)", "DISTINCT"},
		{"SELECT max(r) FROM (SELECT row_number() OVER (ORDER BY v) AS r FROM f)", "window partitions"},
		{"SELECT count(*) FROM (SELECT v FROM f ORDER BY v DESC LIMIT 100000)", "top-N"},
		{"SELECT count(*) FROM (SELECT id FROM f EXCEPT SELECT id FROM d)", "EXCEPT"},
		{"SELECT count(*) FROM f ASOF JOIN d ON f.k = d.w AND f.id >= d.id", "ASOF join's right side"},
		{"SELECT sum(d.w) FROM f POSITIONAL JOIN d", "positional join's right side"},
	}
	want := make([]any, len(cases))
	for i, c := range cases {
		want[i] = queryAll(t, e, c.q)[0][0]
	}
	exec(t, e, "SET memory_limit = '1MB'")
	for _, c := range cases {
		err := queryErr(t, e, c.q)
		if err == nil {
			t.Errorf("%s: no error under memory_limit 1MB", c.q)
			continue
		}
		if !errors.Is(err, ErrMemoryLimit) || !strings.Contains(err.Error(), "memory_limit 976.5 KiB") || !strings.Contains(err.Error(), c.what) {
			t.Errorf("%s: %v", c.q, err)
		}
	}
	exec(t, e, "SET memory_limit = '1GB'")
	for i, c := range cases {
		if got := queryAll(t, e, c.q)[0][0]; got != want[i] {
			t.Errorf("%s under 1GB: %v, want %v", c.q, got, want[i])
		}
	}
}

// TestMemoryLimitOption: Options.MemoryLimit is memory_limit's default.
func TestMemoryLimitOption(t *testing.T) {
	e, err := Open(t.TempDir(), Options{MemoryLimit: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if got := queryAll(t, e, "SELECT current_setting('memory_limit')")[0][0]; got != "1.0 MiB" {
		t.Errorf("memory_limit %v", got)
	}
	err = queryErr(t, e, "SELECT count(*) FROM (SELECT range % 100000 AS g, count(*) FROM range(400000) GROUP BY g)")
	if !errors.Is(err, ErrMemoryLimit) {
		t.Errorf("no memory_limit error: %v", err)
	}
}

// TestMemoryLimitConcurrentQueries: queries running at once each have
// their own account: under a limit one fits, eight at once all succeed.
func TestMemoryLimitConcurrentQueries(t *testing.T) {
	e := analyzeTables(t)
	const q = "SELECT count(*) FROM f JOIN d ON f.id = d.id"
	want := countOf(t, e, q)
	exec(t, e, "SET memory_limit = '64MB'")
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rows, err := queryRows(t, e, q)
			if err != nil {
				t.Error(err)
				return
			}
			if rows[0][0].(int64) != want {
				t.Errorf("%v, want %d", rows[0][0], want)
			}
		}()
	}
	wg.Wait()
}
