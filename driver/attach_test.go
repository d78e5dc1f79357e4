package driver

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/sqlplan"
)

// TestAttachFolder: ATTACH of another carquet root folder reads its
// tables as name.table (joined with the root's), writes to it stay
// refused outside the root, DETACH ends it, and a DuckDB database file
// is refused by name.
func TestAttachFolder(t *testing.T) {
	other := t.TempDir()
	odb, err := OpenDB(Config{Path: other, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := odb.Exec("CREATE TABLE u (x INTEGER, y VARCHAR); INSERT INTO u VALUES (5, 'five'), (6, 'six')"); err != nil {
		t.Fatal(err)
	}
	odb.Close()
	db, err := OpenDB(Config{Path: t.TempDir(), Threads: 2, ExternalRead: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	exec := func(q string) error {
		_, err := db.Exec(q)
		return err
	}
	if err := exec("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1), (5)"); err != nil {
		t.Fatal(err)
	}
	if err := exec("ATTACH '" + other + "' AS o (READ_ONLY)"); err != nil {
		t.Fatal(err)
	}
	var y string
	if err := db.QueryRow("SELECT u.y FROM t JOIN o.u ON t.a = u.x").Scan(&y); err != nil || y != "five" {
		t.Fatalf("join with the attached table: %q, %v", y, err)
	}
	var n int
	if err := db.QueryRow("SELECT count(*) FROM main.t").Scan(&n); err != nil || n != 2 {
		t.Fatalf("main.t: %d, %v", n, err)
	}
	var dbs string
	if err := db.QueryRow("SELECT string_agg(database_name || ':' || readonly, ',' ORDER BY database_name) FROM duckdb_databases()").Scan(&dbs); err != nil || dbs != "carquet:false,o:true" {
		t.Fatalf("duckdb_databases(): %q, %v", dbs, err)
	}
	if err := exec("INSERT INTO o.u VALUES (7, 'seven')"); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Fatalf("a write to the attached folder outside the root: %v", err)
	}
	if err := exec("ATTACH '" + other + "' AS o"); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("a second ATTACH of o: %v", err)
	}
	if err := exec("ATTACH IF NOT EXISTS '" + other + "' AS o"); err != nil {
		t.Fatal(err)
	}
	err = exec("ATTACH '" + filepath.Join(other, "x.duckdb") + "' AS d")
	if !errors.Is(err, sqlplan.ErrUnsupported) || !strings.Contains(err.Error(), "x.duckdb") {
		t.Fatalf("ATTACH of a DuckDB file: %v", err)
	}
	if err := exec("DETACH o"); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow("SELECT count(*) FROM o.u").Scan(&n); err == nil {
		t.Fatal("o.u read after DETACH")
	}
	if err := exec("DETACH o"); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Fatalf("DETACH of a detached name: %v", err)
	}
	if err := exec("DETACH DATABASE IF EXISTS o"); err != nil {
		t.Fatal(err)
	}
}

// TestAttachConfined: without external reads, ATTACH of a folder outside
// the root is refused as any read there is.
func TestAttachConfined(t *testing.T) {
	db, _ := openTest(t, "")
	if _, err := db.Exec("ATTACH '" + t.TempDir() + "' AS o"); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Fatalf("ATTACH outside the root: %v", err)
	}
}
