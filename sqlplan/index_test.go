package sqlplan

import (
	"path/filepath"
	"strings"
	"testing"
)

// CREATE INDEX writes the table again with a bloom filter for the
// column, which later appends keep writing, so that a point query skips
// the row groups the filter rules out; the index outlives the engine and
// is listed by duckdb_indexes(); DROP INDEX removes it and its filters.
func TestCreateIndexWritesBloomFilters(t *testing.T) {
	dir := t.TempDir()
	e, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	exec(t, e, "CREATE TABLE t (id BIGINT, lbl VARCHAR) WITH (row_group_rows = 100)")
	exec(t, e, "INSERT INTO t SELECT i, 'n' || i FROM range(1000) r(i)")
	file := "'" + filepath.Join(dir, "t.parquet") + "'"
	probe := "SELECT count(*) FILTER (WHERE bloom_filter_excludes) FROM parquet_bloom_probe(" + file + ", 'lbl', 'n5')"
	checkRows(t, e, probe, "0\n") // no bloom filter yet
	exec(t, e, "CREATE INDEX t_name ON t (lbl)")
	// n5 is in the first row group only: the other nine rule it out.
	checkRows(t, e, probe, "9\n")
	checkRows(t, e, "SELECT id FROM t WHERE lbl = 'n5'", "5\n")
	exec(t, e, "INSERT INTO t VALUES (1000, 'new')")
	checkRows(t, e, "SELECT count(*) FILTER (WHERE NOT bloom_filter_excludes) FROM parquet_bloom_probe("+file+", 'lbl', 'new')", "1\n")
	e.Close()

	e, err = Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	checkRows(t, e, "SELECT index_name, table_name, is_unique, is_primary, expressions, sql FROM duckdb_indexes()",
		"t_name\tt\tfalse\tfalse\t[lbl]\tCREATE INDEX t_name ON t(lbl);\n")
	exec(t, e, "DROP INDEX t_name")
	checkRows(t, e, "SELECT count(*) FROM duckdb_indexes()", "0\n")
	checkRows(t, e, probe, "0\n") // the bloom filters are gone
	checkRows(t, e, "SELECT count(*), sum(id) FROM t", "1001\t500500\n")
}

// A UNIQUE index is a uniqueness rule, as in DuckDB: over rows that are
// not unique it is refused; later INSERTs and UPDATEs are checked (NULLs
// are distinct); ON CONFLICT may name its column. It is not a constraint
// of duckdb_constraints().
func TestUniqueIndex(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE t (a INTEGER, b VARCHAR)")
	exec(t, e, "INSERT INTO t VALUES (1, 'x'), (1, 'y'), (NULL, 'z'), (NULL, 'w')")
	if err := execErr(e, "CREATE UNIQUE INDEX u1 ON t (a)", nil); err == nil || err.Error() != "Data contains duplicates on indexed column(s)" {
		t.Fatalf("a unique index over duplicates: %v", err)
	}
	checkRows(t, e, "SELECT count(*) FROM duckdb_indexes()", "0\n")
	exec(t, e, "CREATE UNIQUE INDEX u2 ON t (b)")
	exec(t, e, "INSERT INTO t VALUES (NULL, 'q')")
	if err := execErr(e, "INSERT INTO t VALUES (5, 'x')", nil); err == nil || !strings.Contains(err.Error(), `duplicate key "b: x"`) {
		t.Errorf("a duplicate of the unique index: %v", err)
	}
	if err := execErr(e, "UPDATE t SET b = 'w' WHERE b = 'x'", nil); err == nil || !strings.Contains(err.Error(), `duplicate key "b: w"`) {
		t.Errorf("an UPDATE making a duplicate: %v", err)
	}
	exec(t, e, "INSERT INTO t VALUES (7, 'x') ON CONFLICT (b) DO UPDATE SET a = 70")
	checkRows(t, e, "SELECT a, b FROM t ORDER BY b", "NULL\tq\nNULL\tw\n70\tx\n1\ty\nNULL\tz\n")
	checkRows(t, e, "SELECT count(*) FROM duckdb_constraints()", "0\n")
	checkRows(t, e, "SELECT is_unique, sql FROM duckdb_indexes()", "true\tCREATE UNIQUE INDEX u2 ON t(b);\n")
}

// Index names are one namespace with DuckDB's errors; a column an index
// names cannot be dropped, renamed or retyped; expressions, views and
// folder tables are refused; DROP TABLE drops the indexes; a
// transaction's CREATE INDEX is gone after ROLLBACK.
func TestIndexStatements(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE t (a INTEGER, b VARCHAR, c INTEGER)")
	exec(t, e, "CREATE TABLE u (a INTEGER)")
	exec(t, e, "INSERT INTO t VALUES (1, 'x', 1), (2, 'y', 2)")
	exec(t, e, "CREATE INDEX i1 ON t (a)")
	exec(t, e, "CREATE INDEX IF NOT EXISTS i1 ON t (c)")
	exec(t, e, "CREATE INDEX i3 ON t USING ART (a DESC, c)")
	exec(t, e, "CREATE INDEX t ON t (b)") // not the tables' namespace
	exec(t, e, "CREATE VIEW v AS SELECT 1 AS a")
	for q, want := range map[string]string{
		"CREATE INDEX I1 ON u (a)":            `Index with name "I1" already exists!`,
		"CREATE INDEX i4 ON t ((a + c))":      "CREATE INDEX on an expression is not supported",
		"CREATE INDEX i4 ON t (lower(b))":     "CREATE INDEX on an expression is not supported",
		"CREATE INDEX i4 ON t (zz)":           `Table "t" does not have a column named "zz"`,
		"CREATE INDEX i4 ON nope (a)":         "nope",
		"CREATE INDEX ON t (a)":               "CREATE INDEX needs a name",
		"DROP INDEX i9":                       "Index with name i9 does not exist!",
		"ALTER TABLE t DROP COLUMN c":         "Cannot drop column \"c\": index i3 depends on it",
		"ALTER TABLE t RENAME COLUMN a TO aa": "Cannot rename column \"a\": index i1 depends on it",
		"ALTER TABLE t ALTER a TYPE BIGINT":   "Cannot change the type of column \"a\": index i1 depends on it",
	} {
		if err := execErr(e, q, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one saying %s", q, err, want)
		}
	}
	exec(t, e, "DROP INDEX IF EXISTS i9")
	checkRows(t, e, "SELECT index_name, expressions FROM duckdb_indexes() ORDER BY index_name", "i1\t[a]\ni3\t[a, c]\nt\t[b]\n")
	exec(t, e, "DROP INDEX I1")
	exec(t, e, "DROP INDEX t")
	exec(t, e, "ALTER TABLE t RENAME COLUMN b TO bb") // no index names b now
	tx := e.Begin(false)
	if err := execErr(e, "CREATE INDEX i5 ON u (a)", tx); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	checkRows(t, e, "SELECT index_name FROM duckdb_indexes() ORDER BY index_name", "i3\n")
	exec(t, e, "DROP TABLE t")
	checkRows(t, e, "SELECT count(*) FROM duckdb_indexes()", "0\n")
}
