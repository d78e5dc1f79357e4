package sqlplan

import (
	"context"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
)

// prepareTimed prepares q and fails when it takes far longer than a
// linear check should (the bound is a sanity check, not a benchmark).
func prepareTimed(t *testing.T, e *Engine, q string) (*Stmt, error) {
	t.Helper()
	start := time.Now()
	st, err := e.Prepare(q)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Prepare of %d bytes took %v", len(q), d)
	}
	return st, err
}

func wantLimitError(t *testing.T, err error, msg string) {
	t.Helper()
	var se *Error
	if !errors.As(err, &se) || !errors.Is(err, ErrLimit) || !strings.Contains(se.Msg, msg) || se.Offset < 0 {
		t.Fatalf("got %v, want an *Error (ErrLimit, with an offset) saying %q", err, msg)
	}
}

func TestLimitNesting(t *testing.T) {
	e := newEngine(t)
	const n = 1_000_000
	for _, q := range []string{
		"SELECT " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n),
		"SELECT " + strings.Repeat("[", n) + "1" + strings.Repeat("]", n),
		"SELECT " + strings.Repeat("(", n), // unbalanced
		"SELECT " + strings.Repeat("CASE WHEN true THEN ", n/10) + "1" + strings.Repeat(" END", n/10),
	} {
		_, err := prepareTimed(t, e, q)
		wantLimitError(t, err, "nests parentheses, brackets or CASE deeper than 1000 levels")
		if se := (*Error)(nil); errors.As(err, &se) && (se.Line != 1 || se.Offset > 30_000) {
			t.Errorf("the error points at offset %d (line %d)", se.Offset, se.Line)
		}
	}
	// Brackets inside strings, quoted identifiers and comments do not count.
	deep := strings.Repeat("(", n)
	for _, q := range []string{
		"SELECT '" + deep + "' AS x",
		"SELECT E'\\'" + deep + "' AS x",
		"SELECT $$" + deep + "$$ AS x",
		"SELECT 1 AS \"" + deep + "\"",
		"SELECT 1 AS `" + deep + "`",
		"SELECT 1 /* " + deep + " */",
		"SELECT 1 -- " + deep,
	} {
		if _, err := prepareTimed(t, e, q); err != nil {
			t.Errorf("%.40s...: %v", q, err)
		}
	}
	// Nesting within the limits still works (the parser refuses deeper
	// parentheses in one expression than this on its own).
	for _, q := range []string{
		"SELECT " + strings.Repeat("(", 150) + "1" + strings.Repeat(")", 150),
		"SELECT " + strings.Repeat("(SELECT ", 30) + "1" + strings.Repeat(")", 30),
		"SELECT " + strings.Repeat("abs(", 150) + "-1" + strings.Repeat(")", 150),
		"SELECT " + strings.Repeat("CASE WHEN true THEN ", 150) + "1" + strings.Repeat(" END", 150),
		"SELECT " + strings.Repeat("[", 150) + "1" + strings.Repeat("]", 150),
	} {
		rows, err := queryRows(t, e, q)
		if err != nil || len(rows) != 1 {
			t.Errorf("%.40s...: %v %v", q, rows, err)
		}
	}
	// Deeper subqueries are refused by the planner, promptly.
	q := "SELECT " + strings.Repeat("(SELECT ", 900) + "1" + strings.Repeat(")", 900)
	st, err := prepareTimed(t, e, q)
	if err == nil {
		_, err = st.Query(context.Background(), nil)
	}
	if err == nil || !strings.Contains(err.Error(), "nest") {
		t.Errorf("900 nested subqueries: %v", err)
	}
}

func TestLimitLength(t *testing.T) {
	e, err := Open(t.TempDir(), Options{SQL: SQLLimits{MaxBytes: 1 << 10}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	_, err = e.Prepare("SELECT '" + strings.Repeat("x", 2000) + "'")
	wantLimitError(t, err, "more than the limit of 1 KiB")
	if _, err := e.Prepare("SELECT '" + strings.Repeat("x", 1000) + "'"); err != nil {
		t.Fatal(err)
	}
	e2 := newEngine(t)
	_, err = prepareTimed(t, e2, "SELECT 1 AS x"+strings.Repeat(" ", DefaultMaxSQLBytes))
	wantLimitError(t, err, "more than the limit of 16 MiB")
}

func TestLimitFlatLists(t *testing.T) {
	e := newEngine(t)
	// A long list is long, not deep.
	var b strings.Builder
	b.WriteString("SELECT count(*) FROM range(10) r(x) WHERE x IN (")
	for i := range 100_000 {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("-")
		b.WriteString(strings.Repeat("1", 1+i%5))
	}
	b.WriteString(", 3, 4)")
	rows, err := queryRows(t, e, b.String())
	if err != nil || len(rows) != 1 || rows[0][0] != int64(2) {
		t.Fatalf("IN with 100k items: %v %v", rows, err)
	}
	// A CASE with many branches is as deep as one.
	q := "SELECT CASE" + strings.Repeat(" WHEN 1 + 1 = 3 THEN 0", 10_000) + " ELSE 7 END"
	if rows, err := queryRows(t, e, q); err != nil || rows[0][0] != int64(7) {
		t.Fatalf("CASE with 10k branches: %v %v", rows, err)
	}
}

func TestLimitOperatorChains(t *testing.T) {
	e := newEngine(t)
	queries := []func(n int) string{
		func(n int) string { return "SELECT 1" + strings.Repeat(" + 1", n) },
		func(n int) string { return "SELECT x" + strings.Repeat(" + 1", n) + " FROM range(3) r(x) LIMIT 1" },
		func(n int) string {
			return "SELECT count(*) FROM range(5) r(x) WHERE x = -1" + strings.Repeat(" OR x = 2", n/2)
		},
		func(n int) string { return "SELECT sum(x)" + strings.Repeat(" + 1", n) + " FROM range(3) r(x)" },
	}
	// A chain 4 times as long must cost about 4 times as much, not 16.
	// Counted in bytes allocated (runtime.MemStats.TotalAlloc), which the
	// machine's load does not change, rather than in time: the quadratic
	// paths this guards against copied operand texts or slices per
	// operator, which shows in the bytes.
	allocated := func(q string) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		rows, err := queryRows(t, e, q)
		runtime.ReadMemStats(&after)
		if err != nil || len(rows) != 1 {
			t.Fatalf("%.40s...: %v", q, err)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	for _, query := range queries {
		short, long := allocated(query(1000)), allocated(query(4000))
		t.Logf("%.30s...: %d bytes for 1,000 operators, %d for 4,000", query(1000), short, long)
		if long > 8*short {
			t.Errorf("%.40s...: 4,000 operators allocated %d bytes, 1,000 allocated %d: more than linear", query(1000), long, short)
		}
	}
	for _, q := range []string{
		"SELECT 1" + strings.Repeat(" + 1", 50_000),
		"SELECT 1" + strings.Repeat(" || 'x'", 50_000),
		"SELECT " + strings.Repeat("NOT ", 50_000) + "true",
		"SELECT " + strings.Repeat("- ", 50_000) + "1",
		"SELECT 1 WHERE true" + strings.Repeat(" AND true", 50_000),
		"SELECT 1" + strings.Repeat(" UNION ALL SELECT 1", 50_000),
		"SELECT 1" + strings.Repeat(" + 1", 50_000) + "; SELECT 2",
	} {
		_, err := prepareTimed(t, e, q)
		wantLimitError(t, err, "nests expressions deeper than 5000 levels")
	}
	// Chains in separate list items, or statements, do not add up.
	q := "SELECT " + strings.Repeat("1 + 1 + 1 + 1, ", 10_000) + "1"
	if _, err := prepareTimed(t, e, q); err != nil {
		t.Fatal(err)
	}
}

func TestLimitSQLLimitsOption(t *testing.T) {
	e, err := Open(t.TempDir(), Options{SQL: SQLLimits{MaxNesting: 3, MaxExprDepth: 10}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Prepare("SELECT (((1)))"); err != nil {
		t.Fatal(err)
	}
	_, err = e.Prepare("SELECT ((((1))))")
	wantLimitError(t, err, "deeper than 3 levels")
	_, err = e.Prepare("SELECT 1" + strings.Repeat(" + 1", 10))
	wantLimitError(t, err, "deeper than 10 levels")
}

// TestDeadline: a statement slow to run, and one slow to plan, stop with
// the context's error soon after the deadline.
func TestDeadline(t *testing.T) {
	e := newEngine(t)
	for _, q := range []string{
		"SELECT count(*) FROM range(100000) a(x), range(100000) b(y) WHERE x + y < 0",
		"SELECT sum(x) FROM range(1000000000) r(x)",
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		start := time.Now()
		st, err := e.PrepareContext(ctx, q)
		if err == nil {
			_, err = drainCtx(ctx, st)
		}
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: got %v, want context.DeadlineExceeded", q, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: returned %v after the start", q, d)
		}
	}
	// A done context stops Prepare itself, for a statement not yet seen.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.PrepareContext(ctx, "SELECT 42 AS never_prepared"); !errors.Is(err, context.Canceled) {
		t.Errorf("Prepare with a cancelled context: %v", err)
	}
	// Planning a large statement checks the context as it binds.
	q := "SELECT " + strings.Repeat("x + 1, ", 50_000) + "1 FROM range(3) r(x)"
	st, err := e.Prepare(q)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if _, err := st.Query(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Query with a cancelled context: %v", err)
	}
}

func drainCtx(ctx context.Context, st *Stmt) (int, error) {
	rows, err := st.Query(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	for {
		b, err := rows.Next()
		if err != nil {
			if err == io.EOF {
				return n, nil
			}
			return n, err
		}
		n += b.N
	}
}
