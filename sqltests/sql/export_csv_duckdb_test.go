//go:build duckdb

package sqltest

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/driver"
)

// csvSetup makes the same tables, sequence, macros and view in either
// engine: the scalar types both write to CSV as the same text, strings
// that need quotes, NULLs beside empty strings, a NOT NULL key that is
// the empty string, and a table with a list column.
var csvSetup = []string{
	"CREATE TABLE c (k VARCHAR PRIMARY KEY, i INTEGER NOT NULL, b BIGINT, d DECIMAL(10,2), f DOUBLE, dt DATE, ts TIMESTAMP, tm TIME, ok BOOLEAN, bl BLOB, iv INTERVAL, u UUID, h HUGEINT)",
	"INSERT INTO c VALUES ('', 1, NULL, 1.5, 0.1, DATE '2020-02-29', TIMESTAMP '2020-01-01 10:00:00.25', TIME '23:59:59', true, '\\xAA\\x00'::BLOB, INTERVAL 3 DAY, '27d29bdb-0a40-47d3-ad34-0ab44811135b', 12345678901234567890123456789)",
	"INSERT INTO c VALUES ('a,b \"q\"', 2, -9223372036854775808, -0.01, 1e300, NULL, NULL, NULL, false, ''::BLOB, NULL, NULL, NULL)",
	"INSERT INTO c VALUES (' two\nlines ', 3, 7, NULL, -2.5, DATE '1970-01-01', TIMESTAMP '1999-12-31 23:59:59', TIME '00:00:00', NULL, NULL, INTERVAL '1 year 2 months', NULL, -1)",
	"INSERT INTO c VALUES ('it''s|x\\y', 4, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)",
	`CREATE TABLE "Odd Name" (id INTEGER, s VARCHAR)`,
	`INSERT INTO "Odd Name" VALUES (1, ''), (2, NULL), (3, 'NULL')`,
	"CREATE TABLE nest (id INTEGER, l INTEGER[])",
	"INSERT INTO nest VALUES (1, [1, 2]), (2, []), (3, NULL)",
	"CREATE SEQUENCE sq START 10 INCREMENT BY 5",
	"SELECT nextval('sq')",
	"CREATE MACRO plus1(x) AS x + 1",
	"CREATE MACRO upto(n) AS TABLE SELECT * FROM range(n)",
	"CREATE VIEW cv AS SELECT k, i FROM c WHERE i > 1",
}

// csvChecks are the queries whose answers must survive the trip, every
// value as text so that both drivers print it alike.
var csvChecks = []string{
	"SELECT k, i, b, d, f, dt, ts, tm, ok, bl::VARCHAR, iv::VARCHAR, u::VARCHAR, h::VARCHAR, k IS NULL FROM c ORDER BY i",
	`SELECT id, s, s IS NULL FROM "Odd Name" ORDER BY id`,
	"SELECT id, l::VARCHAR FROM nest ORDER BY id",
	"SELECT * FROM cv ORDER BY i",
	"SELECT nextval('sq'), plus1(41)",
	"SELECT count(*), sum(range) FROM upto(4)",
	"SELECT name, type, \"notnull\", pk FROM pragma_table_info('c') ORDER BY cid",
}

// csvExports are the EXPORT DATABASE options tried: DuckDB's default
// (CSV; carquet writes the table with a list column in Parquet) and a
// dialect of other characters (carquet refuses the list column in CSV:
// the table is left out).
var csvExports = []struct {
	opts   string
	nested bool
}{{"", true}, {" (FORMAT csv, DELIMITER '|', QUOTE '''', ESCAPE '\\', HEADER false)", false}}

// withoutNest is stmts without those of the table nest, unless nested.
func withoutNest(stmts []string, nested bool) []string {
	var out []string
	for _, s := range stmts {
		if nested || !strings.Contains(s, " nest") {
			out = append(out, s)
		}
	}
	return out
}

func openCarquet(t *testing.T, root string) *sql.DB {
	t.Helper()
	db, err := driver.OpenDB(driver.Config{Path: root, Threads: 2, ExternalRead: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func openDuckDB(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

// compareAnswers fails for each check whose answers differ.
func compareAnswers(t *testing.T, got, want []string, gotName, wantName string) {
	t.Helper()
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s:\n%s\n%s:\n%s", gotName, got[i], wantName, want[i])
		}
	}
}

// TestExportImportCSVDuckDB: EXPORT DATABASE in CSV (the default, and
// with other dialect options) imports into the other engine as into the
// engine that exported it: rows, NULLs, keys, the sequence at its next
// value, the macros and the view.
func TestExportImportCSVDuckDB(t *testing.T) {
	for _, ex := range csvExports {
		opts, setup, checks := ex.opts, withoutNest(csvSetup, ex.nested), withoutNest(csvChecks, ex.nested)
		t.Run("carquet to DuckDB"+opts, func(t *testing.T) {
			root := t.TempDir()
			carq := openCarquet(t, root)
			execAll(t, carq, setup...)
			execAll(t, carq, "EXPORT DATABASE 'exp'"+opts)
			dir := filepath.Join(root, "exp")
			// Carquet's export keeps the empty string apart from NULL in
			// both engines: the answers are the exporting engine's.
			want := answersOf(t, carq, checks)
			duck := openDuckDB(t)
			execAll(t, duck, "IMPORT DATABASE '"+dir+"'")
			compareAnswers(t, answersOf(t, duck, checks), want, "after DuckDB's IMPORT", "carquet had")
			again := openCarquet(t, t.TempDir())
			execAll(t, again, "IMPORT DATABASE '"+dir+"'")
			compareAnswers(t, answersOf(t, again, checks), want, "after carquet's IMPORT", "carquet had")
		})
		t.Run("DuckDB to carquet"+opts, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "dexp")
			duck := openDuckDB(t)
			execAll(t, duck, setup...)
			execAll(t, duck, "EXPORT DATABASE '"+dir+"'"+opts)
			// DuckDB reads its own quoted empty strings back as NULL
			// (allow_quoted_nulls): its own IMPORT is the reference.
			ref := openDuckDB(t)
			execAll(t, ref, "IMPORT DATABASE '"+dir+"'")
			want := answersOf(t, ref, checks)
			carq := openCarquet(t, t.TempDir())
			execAll(t, carq, "IMPORT DATABASE '"+dir+"'")
			compareAnswers(t, answersOf(t, carq, checks), want, "after carquet's IMPORT", "DuckDB's IMPORT had")
		})
	}
}
