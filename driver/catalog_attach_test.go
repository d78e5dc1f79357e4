package driver

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// queryStrings runs q and returns its rows, each row's columns joined by
// "|", the NULLs as "NULL".
func queryStrings(t *testing.T, db *sql.DB, q string) []string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		parts := make([]string, len(cols))
		for i, v := range vals {
			parts[i] = "NULL"
			if v.Valid {
				parts[i] = v.String
			}
		}
		out = append(out, strings.Join(parts, "|"))
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return out
}

// TestCatalogAttached: the catalog functions and information_schema list
// the attached folders' tables under their database's name, SHOW TABLES
// only the root's; three-part names db.main.t reach the tables of the
// root and of an attached folder in SELECT, INSERT, UPDATE, DELETE,
// CREATE, DROP and DESCRIBE.
func TestCatalogAttached(t *testing.T) {
	root := t.TempDir()
	db, err := OpenDB(Config{Path: root, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustExec := func(q string) {
		t.Helper()
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	mustExec("CREATE TABLE t (a INTEGER PRIMARY KEY, b VARCHAR)")
	mustExec("INSERT INTO carquet.main.t VALUES (1, 'one'), (2, 'two')")
	// An attached folder below the root, so that writes to it are allowed
	// (named with _ so that the root does not list it as a table of its
	// own); its table is made through the attachment.
	if err := os.Mkdir(filepath.Join(root, "_other"), 0o755); err != nil {
		t.Fatal(err)
	}
	mustExec("ATTACH '_other' AS o")
	mustExec("CREATE TABLE o.main.u (x INTEGER PRIMARY KEY, y VARCHAR NOT NULL)")
	mustExec("INSERT INTO o.main.u VALUES (1, 'x1'), (3, 'x3')")
	mustExec("UPDATE o.main.u SET y = 'x3b' WHERE x = 3")
	mustExec("DELETE FROM carquet.main.t WHERE a = 2")

	check := func(q string, want ...string) {
		t.Helper()
		got := queryStrings(t, db, q)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("%s:\n got %q\nwant %q", q, got, want)
		}
	}
	check("SELECT t.b, u.y FROM carquet.main.t JOIN o.main.u ON t.a = u.x", "one|x1")
	check("SELECT database_name, schema_name, table_name FROM duckdb_tables() ORDER BY ALL",
		"carquet|main|t", "o|main|u")
	check("SELECT table_catalog, table_name, column_name FROM information_schema.columns ORDER BY ALL",
		"carquet|t|a", "carquet|t|b", "o|u|x", "o|u|y")
	check("SELECT table_catalog, table_name, table_type FROM information_schema.tables ORDER BY ALL",
		"carquet|t|BASE TABLE", "o|u|BASE TABLE")
	check("SELECT catalog_name, schema_name FROM information_schema.schemata ORDER BY ALL", "carquet|main", "o|main")
	check("SELECT database_name, schema_name FROM duckdb_schemas() ORDER BY ALL", "carquet|main", "o|main")
	check("SELECT database_name, table_name, constraint_type FROM duckdb_constraints() ORDER BY ALL",
		"carquet|t|NOT NULL", "carquet|t|PRIMARY KEY", "o|u|NOT NULL", "o|u|NOT NULL", "o|u|PRIMARY KEY")
	check("SELECT constraint_catalog, table_catalog, constraint_name FROM information_schema.table_constraints WHERE constraint_type = 'PRIMARY KEY' ORDER BY ALL",
		"carquet|carquet|t_a_pkey", "o|o|u_x_pkey")
	check("SELECT \"database\", name, column_names::VARCHAR FROM (SHOW ALL TABLES) ORDER BY ALL",
		"carquet|t|[a, b]", "o|u|[x, y]")
	check("SHOW TABLES", "t")
	check("SELECT column_name, column_type FROM (DESCRIBE o.main.u)", "x|INTEGER", "y|VARCHAR")
	check("SELECT column_name FROM (DESCRIBE carquet.main.t)", "a", "b")
	mustExec("DROP TABLE o.main.u")
	check("SELECT database_name, table_name FROM duckdb_tables() ORDER BY ALL", "carquet|t")
	mustExec("DETACH o")
	check("SELECT database_name FROM duckdb_schemas()", "carquet")
	if _, err := db.Exec("SELECT * FROM o.main.u"); err == nil {
		t.Fatal("o.main.u after DETACH: no error")
	}
}
