package sqlplan

import (
	"context"
	"os"
	"path/filepath"
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

// TestCatalogPersists makes views and macros, closes the engine and opens
// the folder again: the kept ones are there, the TEMP ones are not.
func TestCatalogPersists(t *testing.T) {
	dir := t.TempDir()
	e, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	exec(t, e, "CREATE TABLE t (a INTEGER, s VARCHAR)")
	exec(t, e, "INSERT INTO t VALUES (1, 'x;y'), (2, 'it''s'), (3, NULL)")
	exec(t, e, "CREATE MACRO add_d(a, b := 5) AS a + b")
	exec(t, e, "CREATE MACRO \"Q\"(s) AS s || ' -- not a comment; ' || 'q'")
	exec(t, e, "CREATE MACRO upto(n) AS TABLE SELECT a FROM t WHERE a <= n")
	exec(t, e, "CREATE MACRO ov(a) AS a * 10, (a, b) AS a + b")
	exec(t, e, "CREATE MACRO typed(a INTEGER, d DECIMAL(10, 2), b := 1) AS a + d + b")
	exec(t, e, "CREATE VIEW v (k) AS SELECT add_d(a) FROM upto(2)")
	exec(t, e, "CREATE VIEW w AS SELECT s FROM t WHERE s <> 'x;y'")
	exec(t, e, "CREATE TEMP MACRO tm(x) AS x")
	exec(t, e, "CREATE TEMP VIEW tv AS SELECT 1")
	exec(t, e, "CREATE MACRO gone(x) AS x")
	exec(t, e, "DROP MACRO gone")
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}

	e2, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	for q, want := range map[string]string{
		"SELECT add_d(1), add_d(1, b := 2)": "6|3|",
		"SELECT q('it')":                    "it -- not a comment; q|",
		"SELECT count(*) FROM upto(n := 3)": "3|",
		"SELECT k FROM v ORDER BY k":        "6|7|",
		"SELECT s FROM w":                   "it's|",
		"SELECT count(*) FROM upto(1) AS x": "1|",
		"SELECT ov(1), ov(1, 2)":            "10|3|",
		"SELECT typed(1, 1.234)":            "3.23|",
	} {
		if got := fmtRows(queryAll(t, e2, q)); got != want {
			t.Errorf("%s: got %q, want %q", q, got, want)
		}
	}
	if _, err := queryRows(t, e2, "SELECT typed(1::BIGINT, 1)"); err == nil || !strings.Contains(err.Error(), "does not support the supplied arguments") {
		t.Errorf("a BIGINT for an INTEGER parameter: %v", err)
	}
	for _, q := range []string{"SELECT tm(1)", "SELECT * FROM tv", "SELECT gone(1)"} {
		if _, err := queryRows(t, e2, q); err == nil {
			t.Errorf("%s: a temporary or dropped object came back", q)
		}
	}
	// Dropping the last ones removes the file.
	for _, q := range []string{"DROP VIEW v", "DROP VIEW w", "DROP MACRO add_d", "DROP MACRO q", "DROP MACRO TABLE upto", "DROP MACRO ov", "DROP MACRO typed"} {
		exec(t, e2, q)
	}
	if _, err := os.Stat(filepath.Join(dir, catalogFile)); !os.IsNotExist(err) {
		t.Fatalf("the catalog file is left: %v", err)
	}
}

// TestCatalogTwoEngines: an engine's CREATE reads what another engine
// wrote to the catalog first, so that neither loses the other's.
func TestCatalogTwoEngines(t *testing.T) {
	dir := t.TempDir()
	a, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	exec(t, a, "CREATE MACRO fa(x) AS x + 1")
	exec(t, b, "CREATE MACRO fb(x) AS x + 2")
	exec(t, a, "CREATE VIEW va AS SELECT fb(1) AS c")
	c, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got := fmtRows(queryAll(t, c, "SELECT fa(1), fb(1), (SELECT c FROM va)")); got != "2|3|3|" {
		t.Fatalf("got %s", got)
	}
	// An engine sees another's changes at its next statement, even one it
	// prepared before.
	if got := fmtRows(queryAll(t, b, "SELECT fa(10)")); got != "11|" {
		t.Fatalf("b: fa(10) = %s", got)
	}
	exec(t, a, "CREATE OR REPLACE MACRO fa(x) AS x + 100")
	if got := fmtRows(queryAll(t, b, "SELECT fa(10)")); got != "110|" {
		t.Fatalf("b after a's CREATE OR REPLACE: fa(10) = %s", got)
	}
	exec(t, a, "DROP MACRO fa")
	if _, err := queryRows(t, b, "SELECT fa(10)"); err == nil {
		t.Fatal("b still has the macro a dropped")
	}
	exec(t, a, "CREATE MACRO fa(x) AS x + 1")
	// Read-only engines read the catalog and write nothing.
	ro, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	exec(t, ro, "CREATE MACRO only_here(x) AS x")
	if got := fmtRows(queryAll(t, ro, "SELECT fa(only_here(1))")); got != "2|" {
		t.Fatalf("got %s", got)
	}
	d, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := queryRows(t, d, "SELECT only_here(1)"); err == nil {
		t.Fatal("a read-only engine wrote its macro")
	}
}

// TestMacroPlaceholders: a placeholder passed to a macro that uses its
// parameter twice is still one argument.
func TestMacroPlaceholders(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE MACRO sq(x) AS x * x")
	if got := fmtRows(queryAll(t, e, "SELECT sq(?) + ?", Arg{Value: int64(3)}, Arg{Value: int64(1)})); got != "10|" {
		t.Fatalf("sq(?) + ? = %s", got)
	}
}

// TestMacroColumnNames: a select item that is a macro's call is named by
// the call, as DuckDB names it; an alias wins.
func TestMacroColumnNames(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE t (a INTEGER)")
	exec(t, e, "CREATE MACRO add_ab(a, b := 2) AS a + b")
	exec(t, e, "CREATE MACRO one() AS 1")
	s, err := e.Prepare("SELECT add_ab(1, 2), add_ab(1,b:=3), one(), one() AS q, one() r, add_ab(x.a, [1,2][1]), (SELECT one()) FROM t x")
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
	want := "add_ab(1, 2)|add_ab(1, b := 3)|one()|q|r|add_ab(x.a, [1, 2][1])"
	if got := strings.Join(names[:6], "|"); got != want {
		t.Fatalf("names %s, want %s", got, want)
	}
}

// TestCatalogFile: the catalog is no table, and a catalog that does not
// parse is an error of Open naming the file.
func TestCatalogFile(t *testing.T) {
	dir := t.TempDir()
	e, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	exec(t, e, "CREATE TABLE t (a INTEGER)")
	exec(t, e, "CREATE VIEW v AS SELECT a FROM t")
	if got := strings.Join(e.TableNames(), ","); got != "t" {
		t.Fatalf("tables: %s", got)
	}
	if got := fmtRows(queryAll(t, e, "SELECT table_name FROM information_schema.tables ORDER BY 1")); got != "t|v|" {
		t.Fatalf("information_schema.tables: %s", got)
	}
	e.Close()
	if err := os.WriteFile(filepath.Join(dir, catalogFile), []byte("CREATE VIEW v AS SELECT 1;\nDROP TABLE t;\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, Options{}); err == nil || !strings.Contains(err.Error(), catalogFile) {
		t.Fatalf("a bad catalog: %v", err)
	}
}
