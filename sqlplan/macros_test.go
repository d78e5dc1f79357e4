package sqlplan

import (
	"strings"
	"testing"
)

// prepareErr prepares q and returns its error (nil if it prepares).
func prepareErr(e *Engine, q string) error {
	_, err := e.Prepare(q)
	return err
}

func TestMacroExpansionLimits(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE MACRO d(x) AS x + x")
	// d(d(...)) doubles at every level: the expansion stops at its bound.
	q := "SELECT " + strings.Repeat("d(", 40) + "1" + strings.Repeat(")", 40)
	if err := prepareErr(e, q); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Fatalf("doubling macros: %v", err)
	}
	if got := fmtRows(queryAll(t, e, "SELECT d(d(d(2)))")); got != "16|" {
		t.Fatalf("d(d(d(2))) = %s", got)
	}
	// A loop through two macros is found at the call, naming the path.
	exec(t, e, "CREATE MACRO a1(x) AS x")
	exec(t, e, "CREATE MACRO a2(x) AS a1(x) + 1")
	exec(t, e, "CREATE OR REPLACE MACRO a1(x) AS a2(x)")
	err := prepareErr(e, "SELECT a2(1)")
	if err == nil || !strings.Contains(err.Error(), "a2 -> a1 -> a2") {
		t.Fatalf("a loop: %v", err)
	}
	// A macro calling itself is refused when it is made.
	err = prepareErr(e, "CREATE MACRO self(x) AS CASE WHEN x > 0 THEN self(x - 1) ELSE 0 END")
	if err == nil || !strings.Contains(err.Error(), "calls itself") {
		t.Fatalf("self call: %v", err)
	}
	// Deep nesting of one macro in its arguments is no recursion.
	exec(t, e, "CREATE MACRO inc(x) AS x + 1")
	q = "SELECT " + strings.Repeat("inc(", 60) + "0" + strings.Repeat(")", 60)
	if got := fmtRows(queryAll(t, e, q)); got != "60|" {
		t.Fatalf("inc^60(0) = %s", got)
	}
}

func TestMacroHygieneOfText(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE MACRO f(a) AS a || '-f(a)-' || \"a\"")
	// Strings and quoted identifiers spelling the macro or its
	// parameter are left alone where the macro is called; in its body a
	// quoted "a" is the parameter (an identifier), the string is text.
	got := fmtRows(queryAll(t, e, "SELECT f('x') || 'f(1)' AS \"f(2)\""))
	if got != "x-f(a)-xf(1)|" {
		t.Fatalf("got %s", got)
	}
	// A qualified name and a named argument of another call are not the
	// parameter.
	exec(t, e, "CREATE TABLE t (a INTEGER, b INTEGER)")
	exec(t, e, "INSERT INTO t VALUES (1, 2)")
	exec(t, e, "CREATE MACRO g(a) AS (SELECT t.a + a FROM t)")
	if got := fmtRows(queryAll(t, e, "SELECT g(10)")); got != "11|" {
		t.Fatalf("g(10) = %s", got)
	}
	// A macro named like a column list's table is not called there.
	exec(t, e, "CREATE MACRO t(x) AS x * 100")
	exec(t, e, "INSERT INTO t (a, b) VALUES (t(1), 3)")
	if got := fmtRows(queryAll(t, e, "SELECT a FROM t WHERE b = 3")); got != "100|" {
		t.Fatalf("INSERT INTO t (...) with a macro t: %s", got)
	}
	// extract(... FROM ...) and IS DISTINCT FROM are no FROM clauses.
	if got := fmtRows(queryAll(t, e, "SELECT extract(year FROM DATE '2024-03-01'), 1 IS DISTINCT FROM t(1)")); got != "2024|true|" {
		t.Fatalf("got %s", got)
	}
}
