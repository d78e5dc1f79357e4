//go:build duckdb

package sqltest

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/driver"
	_ "github.com/duckdb/duckdb-go/v2"
)

// exportSetup makes the same tables and view in either engine: types
// DuckDB and carquet share, a key, a DEFAULT, a name that needs quotes.
var exportSetup = []string{
	"CREATE TABLE t (a INTEGER NOT NULL, b VARCHAR DEFAULT 'x', c DECIMAL(10,2), d TIMESTAMP, e INTEGER[], f DOUBLE)",
	"INSERT INTO t VALUES (1, 'p', 1.5, TIMESTAMP '2020-01-01 10:00:00', [1, 2], 0.25), (2, NULL, NULL, NULL, NULL, NULL), (3, 'it''s', -7.25, TIMESTAMP '1999-12-31 23:59:59.5', [], 1e300)",
	`CREATE TABLE "Odd Name" (id BIGINT PRIMARY KEY, s STRUCT(x INTEGER, y VARCHAR), u UTINYINT)`,
	`INSERT INTO "Odd Name" VALUES (7, {'x': 1, 'y': 'q'}, 200), (8, NULL, NULL)`,
	"CREATE VIEW v AS SELECT a, b FROM t WHERE a > 1",
}

// exportChecks are the queries whose answers must survive the trip.
var exportChecks = []string{
	"SELECT a, b, c, d, e, f FROM t ORDER BY a",
	`SELECT id, s, u FROM "Odd Name" ORDER BY id`,
	"SELECT * FROM v ORDER BY a",
	"SELECT name, type, \"notnull\", pk FROM pragma_table_info('Odd Name') ORDER BY cid",
	"SELECT name, type, \"notnull\" FROM pragma_table_info('t') ORDER BY cid",
}

// answers runs exportChecks and prints their rows as text.
func answers(t *testing.T, db *sql.DB) []string {
	t.Helper()
	out := answersOf(t, db, exportChecks)
	if !strings.Contains(out[0], "it's") || !strings.Contains(out[1], "200") {
		t.Fatalf("the tables lack their rows:\n%s", strings.Join(out, ""))
	}
	return out
}

// answersOf runs the queries and prints their rows as text.
func answersOf(t *testing.T, db *sql.DB, checks []string) []string {
	t.Helper()
	var out []string
	for _, q := range checks {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		cols, _ := rows.Columns()
		var b strings.Builder
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for i, v := range vals {
				if i > 0 {
					b.WriteByte('|')
				}
				b.WriteString(valueText(v))
			}
			b.WriteByte('\n')
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		out = append(out, q+"\n"+b.String())
	}
	return out
}

// valueText prints a value the same way whichever driver scanned it
// (numbers by value, decimals and integers of any width alike).
func valueText(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case []byte:
		return string(x)
	case int32:
		return fmt.Sprint(int64(x))
	case uint8:
		return fmt.Sprint(int64(x))
	case fmt.Stringer:
		return strings.TrimRight(strings.TrimRight(x.String(), "0"), ".")
	case string:
		if strings.Contains(x, ".") && strings.Trim(x, "-0123456789.") == "" {
			return strings.TrimRight(strings.TrimRight(x, "0"), ".")
		}
	}
	return fmt.Sprint(v)
}

func execAll(t *testing.T, db *sql.DB, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// TestExportImportDuckDB: carquet's EXPORT DATABASE imports into DuckDB,
// and DuckDB's (FORMAT parquet) into carquet, with the same rows, types,
// keys and views as the engine that exported them.
func TestExportImportDuckDB(t *testing.T) {
	t.Run("carquet to DuckDB", func(t *testing.T) {
		root := t.TempDir()
		carq, err := driver.OpenDB(driver.Config{Path: root, Threads: 2})
		if err != nil {
			t.Fatal(err)
		}
		defer carq.Close()
		execAll(t, carq, exportSetup...)
		want := answers(t, carq)
		execAll(t, carq, "EXPORT DATABASE 'exp' (FORMAT parquet)")
		// The export folder is not a table of the root.
		var n int
		if err := carq.QueryRow("SELECT count(*) FROM (SHOW TABLES) WHERE name = 'exp'").Scan(&n); err != nil || n != 0 {
			t.Fatalf("the export folder is listed as a table (%d, %v)", n, err)
		}
		duck, err := sql.Open("duckdb", "")
		if err != nil {
			t.Fatal(err)
		}
		defer duck.Close()
		execAll(t, duck, "IMPORT DATABASE '"+filepath.Join(root, "exp")+"'")
		got := answers(t, duck)
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("after DuckDB's IMPORT:\n%s\ncarquet had:\n%s", got[i], want[i])
			}
		}
	})
	t.Run("DuckDB to carquet", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "dexp")
		duck, err := sql.Open("duckdb", "")
		if err != nil {
			t.Fatal(err)
		}
		defer duck.Close()
		duck.SetMaxOpenConns(1)
		execAll(t, duck, exportSetup...)
		want := answers(t, duck)
		execAll(t, duck, "EXPORT DATABASE '"+dir+"' (FORMAT parquet)")
		carq, err := driver.OpenDB(driver.Config{Path: t.TempDir(), Threads: 2, ExternalRead: true})
		if err != nil {
			t.Fatal(err)
		}
		defer carq.Close()
		execAll(t, carq, "IMPORT DATABASE '"+dir+"'")
		got := answers(t, carq)
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("after carquet's IMPORT:\n%s\nDuckDB had:\n%s", got[i], want[i])
			}
		}
	})
}
