package sqlplan

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/xwb1989/sqlparser"
)

func newEngine(t *testing.T) *Engine {
	t.Helper()
	e, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func exec(t *testing.T, e *Engine, q string, args ...Arg) Result {
	t.Helper()
	s, err := e.Prepare(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	r, err := s.Exec(context.Background(), args, nil)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return r
}

// queryAll runs a query and returns its rows as Go values.
func queryAll(t *testing.T, e *Engine, q string, args ...Arg) [][]any {
	t.Helper()
	out, err := queryRows(t, e, q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return out
}

// queryRows runs a query to its end and returns its rows as Go values, or
// the error it raises.
func queryRows(t *testing.T, e *Engine, q string, args ...Arg) ([][]any, error) {
	t.Helper()
	s, err := e.Prepare(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	rows, err := s.Query(context.Background(), args)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][]any
	for {
		b, err := rows.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		for i := 0; i < b.N; i++ {
			row := make([]any, len(b.Cols))
			for c, col := range b.Cols {
				row[c] = col.Value(i)
			}
			out = append(out, row)
		}
	}
}

func TestEngineWithoutDatabaseSQL(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE t (id BIGINT NOT NULL, g VARCHAR, x DOUBLE)")
	r := exec(t, e, "INSERT INTO t VALUES (1, 'a', 1.5), (2, 'b', 2.5), (3, 'a', NULL)")
	if r.RowsAffected != 3 {
		t.Fatalf("RowsAffected %d", r.RowsAffected)
	}
	got := queryAll(t, e, "SELECT g, count(*), sum(x) FROM t WHERE id >= $1 GROUP BY g ORDER BY g", Arg{Ordinal: 1, Value: int64(1)})
	if len(got) != 2 || got[0][0] != "a" || got[0][1] != int64(2) || got[0][2] != 1.5 || got[1][2] != 2.5 {
		t.Fatalf("%v", got)
	}
}

// TestRewriteCastCodes checks the casts the syntax stage writes with the
// engine's types (castTypeSpelling); the rewrite itself is tested in
// package parse.
func TestRewriteCastCodes(t *testing.T) {
	cases := []struct {
		in      string
		wantSQL string
	}{
		{"SELECT a::BIGINT, (a + 1)::DOUBLE, f(x)::VARCHAR FROM t", "SELECT cast ( a as char(900004) ) , cast ( ( a + 1 ) as char(900010) ) , cast ( f ( x ) as char(900011) ) FROM t"},
		{"SELECT DATE '2024-01-01', TIMESTAMP '2024-01-01 00:00:00'", "SELECT cast ( '2024-01-01' as char(900013) ) , cast ( '2024-01-01 00:00:00' as char(900015) )"},
		{"SELECT CAST(a AS DECIMAL(10, 2)), a::INTEGER[][]", "SELECT CAST ( a as decimal(10, 2) ) , cast ( a as char(902003) )"},
	}
	for _, c := range cases {
		toks, err := parse.Lex(c.in)
		if err != nil {
			t.Fatal(err)
		}
		src, err := plan.RewriteTokens(c.in, parse.Significant(toks))
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if src.Text != c.wantSQL {
			t.Errorf("%s\n got %s\nwant %s", c.in, src.Text, c.wantSQL)
		}
		if _, err := sqlparser.Parse(src.Text); err != nil {
			t.Errorf("%s: the parser refuses %s: %v", c.in, src.Text, err)
		}
	}
	// Types the engine does not cast to are errors at their name.
	// (A name that is none of its types is a type of CREATE TYPE or
	// none: the engine tells when it binds the cast, enumtypes_test.go.)
	for _, in := range []string{"SELECT a::DECIMAL(10, 2)[]", "SELECT a::INTEGER[][][][]"} {
		toks, _ := parse.Lex(in)
		_, err := plan.RewriteTokens(in, parse.Significant(toks))
		var e *Error
		if !errors.As(err, &e) || e.Column != 11 {
			t.Errorf("%s: got %v", in, err)
		}
	}
}

func TestErrorPositions(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE t (alpha INTEGER, beta VARCHAR)")
	cases := []struct {
		q         string
		line, col int
		msg       string
		is        error
	}{
		{"SELECT alpah FROM t", 1, 8, `column "alpah" does not exist (did you mean "alpha"?)`, ErrNoColumn},
		{"SELECT alpha\nFROM tt", 2, 6, `table "tt" does not exist (did you mean "t"?)`, ErrNoTable},
		{"SELECT DATE '2024-01-01', alpha::INTEGER,\n  gamma FROM t", 2, 3, `column "gamma" does not exist`, ErrNoColumn},
		{"SELECT alpha FROM t WHERE", 1, 21, "syntax error", nil},
		{"SELECT alpha FROM t\n WHERE alpha = )", 2, 16, "syntax error", nil},
		{"SELECT sum(alpha) OVER (ORDER BY alpha RANGE 1 PRECEDING EXCLUDE OTHERS) FROM t", 1, 58, "EXCLUDE takes CURRENT ROW, GROUP, TIES or NO OTHERS", nil},
		{"SELECT 'unterminated FROM t", 1, 8, "unterminated quoted string", nil},
		{"SELECT lowerr(beta) FROM t", 1, 8, `function lowerr does not exist (did you mean "lower"?)`, ErrUnsupported},
		{"SELECT t.gama FROM t", 1, 10, `table "t" has no column "gama"`, ErrNoColumn},
		// A subquery naming an outer table's missing column gets the outer
		// query's error, not "no table named o" from its own scope.
		{"SELECT (SELECT o.gama FROM t x) FROM t o", 1, 18, `table "o" has no column "gama"`, ErrNoColumn},
		{"SELECT (SELECT (SELECT o.gama FROM t y) FROM t x) FROM t o", 1, 26, `table "o" has no column "gama"`, ErrNoColumn},
		{"SELECT (SELECT gama FROM t x) FROM t o", 1, 16, `column "gama" does not exist`, ErrNoColumn},
	}
	for _, c := range cases {
		s, err := e.Prepare(c.q)
		if err == nil {
			var rows *Rows
			rows, err = s.Query(context.Background(), nil)
			if err == nil {
				rows.Close()
			}
		}
		var pe *Error
		if !errors.As(err, &pe) {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		if pe.Line != c.line || pe.Column != c.col || !strings.Contains(pe.Msg, c.msg) || c.is != nil && !errors.Is(err, c.is) {
			t.Errorf("%q: got %v (line %d col %d)", c.q, err, pe.Line, pe.Column)
		}
	}
}

// pushed returns the scan predicates and residual of a query's plan.
func planOf(t *testing.T, e *Engine, q string) string {
	t.Helper()
	got := queryAll(t, e, "EXPLAIN "+q)
	var b strings.Builder
	for _, r := range got {
		b.WriteString(r[0].(string) + "\n")
	}
	return b.String()
}

func TestPushdown(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE t (a BIGINT, s VARCHAR, d DATE, ts TIMESTAMP, f DOUBLE, m DECIMAL(8,2), b BOOLEAN)")
	cases := []struct {
		where, pushed, residual string
	}{
		{"a = 1", "a = 1", ""},
		{"1 < a", "a > 1", ""},
		{"a = 1 + 2", "a = 3", ""},
		{"a BETWEEN 1 AND 5", "(a >= 1) AND (a <= 5)", ""},
		{"a IN (1, 2)", "a IN (1, 2)", ""},
		{"a NOT IN (1, 2)", "a NOT IN (1, 2)", ""},
		{"s LIKE 'ab%'", "s LIKE 'ab%'", ""},
		{"s NOT LIKE 'ab%'", "NOT (s LIKE 'ab%')", ""},
		{"s LIKE '%ab'", "", "s like '%ab'"},
		{"s IS NULL", "s IS NULL", ""},
		{"a = 1 OR s = 'x'", "(a = 1) OR (s = 'x')", ""},
		{"NOT (a > 3)", "NOT (a > 3)", ""},
		{"d >= '2024-01-01'", "d >= '2024-01-01'", ""},
		{"ts < TIMESTAMP '2024-01-01 10:00:00'", "ts < '2024-01-01 10:00:00'", ""},
		{"m > 1.5", "m > 1.50", ""},
		{"a + 1 > 3", "", "a + 1 > 3"},
		{"a = 1 AND lower(s) = 'x'", "a = 1", "lower(s) = 'x'"},
		{"f > 1", "f > 1", ""},
	}
	for _, c := range cases {
		pl := planOf(t, e, "SELECT a FROM t WHERE "+c.where)
		if c.pushed != "" && !strings.Contains(pl, "pushed filter: "+c.pushed+"\n") {
			t.Errorf("%s: want pushed %q in\n%s", c.where, c.pushed, pl)
		}
		if c.pushed == "" && strings.Contains(pl, "pushed filter") {
			t.Errorf("%s: nothing should be pushed:\n%s", c.where, pl)
		}
		if c.residual != "" && !strings.Contains(pl, "FILTER (residual) "+c.residual) {
			t.Errorf("%s: want residual %q in\n%s", c.where, c.residual, pl)
		}
		if c.residual == "" && strings.Contains(pl, "residual") {
			t.Errorf("%s: no residual expected:\n%s", c.where, pl)
		}
	}
	// Only referenced columns are scanned; COUNT(*) reads footers.
	if pl := planOf(t, e, "SELECT s FROM t WHERE a = 1"); !strings.Contains(pl, "columns: s\n") {
		t.Errorf("projection:\n%s", pl)
	}
	if pl := planOf(t, e, "SELECT count(*) FROM t"); !strings.Contains(pl, "COUNT(*) FROM FOOTERS") {
		t.Errorf("count:\n%s", pl)
	}
	// The right side of a LEFT JOIN is not filtered by WHERE below the join.
	exec(t, e, "CREATE TABLE u (a BIGINT, v VARCHAR)")
	pl := planOf(t, e, "SELECT t.a FROM t LEFT JOIN u ON t.a = u.a WHERE u.v = 'x' AND t.a = 2")
	if !strings.Contains(pl, "FILTER (residual) u.v = 'x'") || !strings.Contains(pl, "pushed filter: a = 2") {
		t.Errorf("left join pushdown:\n%s", pl)
	}
}

func TestPushdownPrunes(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE p (id BIGINT) WITH (row_group_rows = 10)")
	for i := 0; i < 5; i++ {
		exec(t, e, "INSERT INTO p SELECT id FROM (SELECT 1 AS id) x")
	}
	exec(t, e, "CREATE TABLE q (id BIGINT) row_group_rows = 2")
	exec(t, e, "INSERT INTO q VALUES (1), (2), (3), (4), (5), (6)")
	got := queryAll(t, e, "EXPLAIN ANALYZE SELECT id FROM q WHERE id >= 5")
	var pl strings.Builder
	for _, r := range got {
		pl.WriteString(r[0].(string) + "\n")
	}
	if !strings.Contains(pl.String(), "row groups 3 (pruned 2 by statistics") || !strings.Contains(pl.String(), "rows returned: 2") {
		t.Errorf("EXPLAIN ANALYZE:\n%s", pl.String())
	}
}

func TestPredicatesMatchResidual(t *testing.T) {
	// Every pushable predicate gives the same rows pushed and not pushed.
	e := newEngine(t)
	exec(t, e, "CREATE TABLE r (a BIGINT, s VARCHAR, f DOUBLE, m DECIMAL(6,2)) row_group_rows = 3")
	exec(t, e, "INSERT INTO r VALUES (1, 'ab', 1.5, 1.25), (2, NULL, NULL, NULL), (3, 'abc', -0.0, 0.5), (4, 'b', 'NaN', -3), (5, '', 2.0, 1.5), (NULL, 'x', 3.0, 2.5), (7, 'ab', 1.0, 7.75)")
	wheres := []string{"a = 3", "a <> 3", "a > 2.5", "a IN (1, 7, 9)", "a NOT IN (1, 7)", "s LIKE 'ab%'", "s NOT LIKE 'ab%'",
		"s IS NULL", "s IS NOT NULL", "f > 1", "f = 0", "f <= 'NaN'", "m >= 1.5", "m IN (0.5, 7.75)", "a > 2 OR s = 'ab'",
		"NOT (a > 3 AND f < 3)", "s = ''", "s > 'ab'", "a BETWEEN 2 AND 5"}
	for _, w := range wheres {
		pushed := queryAll(t, e, "SELECT a, s FROM r WHERE "+w+" ORDER BY a, s")
		// (w) AND true-ish expression the scan cannot take keeps it residual.
		resid := queryAll(t, e, "SELECT a, s FROM r WHERE ("+w+") AND coalesce(length(s), 0) + 1 > 0 ORDER BY a, s")
		if len(pushed) != len(resid) {
			t.Errorf("%s: %d rows pushed, %d as residual", w, len(pushed), len(resid))
		}
	}
}

func TestColumnNames(t *testing.T) {
	e := newEngine(t)
	s, err := e.Prepare("SELECT 1 AS one, CAST(2 AS BIGINT), '3'::DOUBLE, count(*) FROM (SELECT 1 AS x) t")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := s.Query(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for _, c := range rows.Columns() {
		names = append(names, c.Name)
	}
	if got := strings.Join(names, "|"); got != "one|CAST(2 AS BIGINT)|CAST('3' AS DOUBLE)|count(*)" {
		t.Errorf("names %s", got)
	}
	s, err = e.Prepare("SELECT string_agg(x, ',' ORDER BY x DESC, coalesce(x, 'a') NULLS FIRST), list(x ORDER BY x) FROM (SELECT 'b' AS x) t")
	if err != nil {
		t.Fatal(err)
	}
	rows2, err := s.Query(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rows2.Close()
	names = names[:0]
	for _, c := range rows2.Columns() {
		names = append(names, c.Name)
	}
	if got := strings.Join(names, "|"); got != "string_agg(x, ',' ORDER BY x DESC, coalesce(x, 'a') NULLS FIRST)|list(x ORDER BY x)" {
		t.Errorf("names %s", got)
	}
	// Struct and map literals are named as written, not by the rewrite's
	// markers.
	s, err = e.Prepare("SELECT map {'k': 1}['k'], [{'a': [1, 2], 'b': {'c': 'x,y'}}], MAP {}")
	if err != nil {
		t.Fatal(err)
	}
	rows3, err := s.Query(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rows3.Close()
	names = names[:0]
	for _, c := range rows3.Columns() {
		names = append(names, c.Name)
	}
	if got := strings.Join(names, "|"); got != "MAP {'k': 1}['k']|[{'a': [1, 2], 'b': {'c': 'x,y'}}]|MAP {}" {
		t.Errorf("names %s", got)
	}
}

func TestTopNMatchesSort(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE big AS SELECT 1 AS id")
	for i := 0; i < 15; i++ {
		exec(t, e, "INSERT INTO big SELECT id + (SELECT max(id) FROM big) FROM big")
	}
	for _, q := range []string{
		"SELECT id, (id * 7919) % 1000 AS v FROM big ORDER BY v DESC, id LIMIT 7 OFFSET 3",
		"SELECT id, (id * 7919) % 1000 AS v FROM big WHERE id % 3 = 0 ORDER BY v, id DESC LIMIT 20",
		"SELECT id FROM big ORDER BY id DESC LIMIT 5",
	} {
		top := queryAll(t, e, q)
		k := strings.LastIndex(q, " LIMIT")
		all := queryAll(t, e, q[:k])
		off := 0
		if strings.Contains(q, "OFFSET 3") {
			off = 3
		}
		want := all[off : off+len(top)]
		for i := range top {
			if top[i][0] != want[i][0] {
				t.Fatalf("%s: row %d is %v, want %v", q, i, top[i], want[i])
			}
		}
		if len(top) == 0 {
			t.Fatalf("%s: no rows", q)
		}
	}
	got := queryAll(t, e, "SELECT count(*), count(DISTINCT id), max(id) FROM big")
	if got[0][0] != int64(32768) || got[0][1] != int64(32768) || got[0][2] != int64(32768) {
		t.Fatalf("%v", got)
	}
}

func TestAggregatesFromFooters(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE f (a INTEGER, s VARCHAR, ts TIMESTAMP, d DECIMAL(6,2), x DOUBLE) row_group_rows = 2")
	exec(t, e, "INSERT INTO f VALUES (3, 'b', '2024-01-02 00:00:00', 1.50, 1), (NULL, 'a', NULL, -2.25, 2), (7, NULL, '2023-05-06 07:08:09', NULL, 'NaN'), (-1, 'c', '2024-03-01 00:00:00', 9.99, 0)")
	q := "SELECT count(*), count(a), min(a), max(a), min(ts), max(ts), min(d), max(d), count(s), min(s), max(s) FROM f"
	pl := planOf(t, e, q)
	if !strings.Contains(pl, "AGGREGATE FROM FOOTERS") {
		t.Errorf("not from footers:\n%s", pl)
	}
	got := queryAll(t, e, q)
	// The same aggregates computed by scanning (a filter defeats footers).
	want := queryAll(t, e, strings.Replace(q, "FROM f", "FROM f WHERE coalesce(a, 0) > -100", 1))
	if fmtRows(got) != fmtRows(want) {
		t.Errorf("footers %v\nscan    %v", got, want)
	}
	// NaN in a float column: statistics are not exact, the scan answers.
	if pl := planOf(t, e, "SELECT max(x) FROM f"); strings.Contains(pl, "FROM FOOTERS") {
		t.Errorf("max of a float column with NaN from footers:\n%s", pl)
	}
}

func fmtRows(rows [][]any) string {
	var b strings.Builder
	for _, r := range rows {
		for _, v := range r {
			b.WriteString(strings.TrimSpace(strings.ReplaceAll(fmtAny(v), "\n", " ")) + "|")
		}
	}
	return b.String()
}

func fmtAny(v any) string {
	if tm, ok := v.(interface{ UnixMicro() int64 }); ok {
		return time.UnixMicro(tm.UnixMicro()).UTC().String()
	}
	return fmt.Sprint(v)
}

// TestWindowSumExact: SUM over a window adds decimals exactly into
// DECIMAL(38, s), as the aggregate does, and a BIGINT sum into a
// HUGEINT, so leaving int64 is neither an error nor a wrapped number.
func TestWindowSumExact(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE w (p INTEGER, m DECIMAL(10,2), x DECIMAL(30,6), i BIGINT)")
	exec(t, e, "INSERT INTO w VALUES (1, 0.10, 123456789012345678901234.000001, 9223372036854775807), (1, 0.20, 0.000002, 1), (2, 0.30, NULL, 5), (2, NULL, -1.5, 6)")
	got := queryAll(t, e, "SELECT p, SUM(m) OVER (PARTITION BY p), SUM(x) OVER (PARTITION BY p), SUM(m + 0) OVER () FROM w ORDER BY p, m")
	want := "1|0.30|123456789012345678901234.000003|0.60|" + "1|0.30|123456789012345678901234.000003|0.60|" +
		"2|0.30|-1.500000|0.60|" + "2|0.30|-1.500000|0.60|"
	if fmtRows(got) != want {
		t.Fatalf("window sums:\n%s\nwant\n%s", fmtRows(got), want)
	}
	// A BIGINT sum is a HUGEINT (DuckDB's rule): past int64 it is exact.
	got = queryAll(t, e, "SELECT p, SUM(i) OVER (PARTITION BY p), typeof(SUM(i) OVER ()) FROM w ORDER BY p, i")
	want = "1|9223372036854775808|HUGEINT|1|9223372036854775808|HUGEINT|2|11|HUGEINT|2|11|HUGEINT|"
	if fmtRows(got) != want {
		t.Fatalf("BIGINT window sum past int64:\n%s\nwant\n%s", fmtRows(got), want)
	}
}

// TestNothingToCompute: LIMIT 0, a WHERE that is never true, and an
// EXCEPT or INTERSECT whose left side is provably empty answer without
// evaluating their inputs, so an error those would raise (an overflow
// here) is not raised, as in DuckDB.
func TestNothingToCompute(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE n (id BIGINT)")
	exec(t, e, "INSERT INTO n VALUES (1), (2)")
	for _, q := range []string{
		"SELECT 9223372036854775807 + id FROM n LIMIT 0",
		"SELECT 9223372036854775807 + id AS x FROM n ORDER BY x LIMIT 0 OFFSET 1",
		"SELECT id FROM n WHERE 1 > 5 EXCEPT SELECT 9223372036854775807 + id FROM n",
		"SELECT id FROM n WHERE NULL INTERSECT ALL SELECT 9223372036854775807 + id FROM n",
		"SELECT 9223372036854775807 + id FROM (SELECT id FROM n) s WHERE 'a' LIKE 'b%'",
	} {
		if got := queryAll(t, e, q); len(got) != 0 {
			t.Errorf("%s: %v, want no rows", q, got)
		}
	}
	// With a left side that is only empty at run time, the right side is
	// evaluated and its error reported (DuckDB does the same).
	err := queryErr(t, e, "SELECT id FROM n WHERE id > 5 EXCEPT SELECT 9223372036854775807 + id FROM n")
	if err == nil || !strings.Contains(err.Error(), "Overflow") {
		t.Fatalf("EXCEPT with rows on both sides: %v, want the overflow", err)
	}
}

// queryErr runs q and returns the error it raises.
func queryErr(t *testing.T, e *Engine, q string) error {
	t.Helper()
	_, err := queryRows(t, e, q)
	return err
}

// TestNewAggregatesEdges runs the quantile, mode and arg_max families over
// empty input, NULL-only columns, one row and every scalar type: answers,
// never a panic.
func TestNewAggregatesEdges(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE q (i BIGINT, f DOUBLE, d DECIMAL(30,4), s VARCHAR, b BOOLEAN, dt DATE, ts TIMESTAMP)")
	fns := []string{"median(%s)", "quantile_cont(%s, 0.3)", "quantile_disc(%s, 0.7)", "mode(%s)", "arg_max(%s, i)", "arg_min(i, %s)"}
	cols := []string{"i", "f", "d", "s", "b", "dt", "ts", "NULL"}
	run := func(want int) {
		for _, fn := range fns {
			for _, c := range cols {
				q := "SELECT " + fmt.Sprintf(fn, c) + " FROM q"
				got, err := queryRows(t, e, q)
				if err != nil {
					if strings.Contains(err.Error(), "internal error") {
						t.Fatalf("%s: %v", q, err)
					}
					continue // a type the function does not take: a clear error is fine
				}
				if len(got) != want {
					t.Fatalf("%s: %d rows, want %d", q, len(got), want)
				}
			}
		}
	}
	run(1) // no rows: one row of NULLs
	exec(t, e, "INSERT INTO q VALUES (NULL, NULL, NULL, NULL, NULL, NULL, NULL)")
	run(1)
	exec(t, e, "INSERT INTO q VALUES (1, 1.5, 2.0001, 'a', true, DATE '2024-01-01', TIMESTAMP '2024-01-01 10:00:00'), (3, 'NaN', -1, 'b', false, NULL, NULL)")
	run(1)
	got := queryAll(t, e, "SELECT median(i), quantile_disc(s, 0.5), mode(b), arg_max(s, f), quantile_disc(d, 1.0), median(f) FROM q")
	if fmtRows(got) != "2|a|true|b|2.0001|NaN|" {
		t.Fatalf("%s", fmtRows(got))
	}
}

// TestArithmeticTextKeepsParentheses: the text of an arithmetic
// expression (EXPLAIN, error messages) puts back the parentheses the
// parser dropped, where the operand binds looser than its operator.
func TestArithmeticTextKeepsParentheses(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE t (a BIGINT, b BIGINT, c BIGINT)")
	pl := planOf(t, e, "SELECT a * (1 - b) - 2 * (3 + c), 1 - (2 - a), (a - 1) * 2, a - b - c, a * b * c, 10 / (a / b) FROM t")
	want := "PROJECT a * (1 - b) - 2 * (3 + c), 1 - (2 - a), (a - 1) * 2, a - b - c, a * b * c, 10 / (CAST(a AS DOUBLE) / CAST(b AS DOUBLE))"
	if !strings.Contains(pl, want) {
		t.Errorf("got\n%s\nwant a line with\n%s", pl, want)
	}
}
