package driver

import (
	"database/sql"
	"testing"
)

// TestMacrosPersist: a macro and a view made through one sql.DB are there
// for the next sql.DB over the same folder; a TEMP macro is not. Within a
// sql.DB every connection sees them all.
func TestMacrosPersist(t *testing.T) {
	dir := t.TempDir()
	db, err := sql.Open("carquet", dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"CREATE TABLE t (a INTEGER)",
		"INSERT INTO t VALUES (1), (2), (3)",
		"CREATE MACRO twice(x, k := 2) AS x * k",
		"CREATE MACRO small(n) AS TABLE SELECT a FROM t WHERE a <= n",
		"CREATE VIEW doubled AS SELECT twice(a) AS d FROM small(2)",
		"CREATE TEMP MACRO scratch(x) AS x",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// Another connection of the same sql.DB sees the temporary macro.
	db.SetMaxIdleConns(0)
	var n int64
	if err := db.QueryRow("SELECT scratch(7)").Scan(&n); err != nil || n != 7 {
		t.Fatalf("scratch(7) = %d, %v", n, err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db, err = sql.Open("carquet", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.QueryRow("SELECT twice(21) + twice(1, k := 10)").Scan(&n); err != nil || n != 52 {
		t.Fatalf("twice: %d, %v", n, err)
	}
	if err := db.QueryRow("SELECT sum(d) FROM doubled").Scan(&n); err != nil || n != 6 {
		t.Fatalf("the view over the macros: %d, %v", n, err)
	}
	if err := db.QueryRow("SELECT count(*) FROM small(3)").Scan(&n); err != nil || n != 3 {
		t.Fatalf("small(3): %d, %v", n, err)
	}
	if err := db.QueryRow("SELECT scratch(1)").Scan(&n); err == nil {
		t.Fatal("the TEMP macro outlived its sql.DB")
	}
}
