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

// TestHiveInsertDuckDB: a hive-partitioned table that DuckDB's COPY ...
// (PARTITION_BY ...) wrote takes carquet's INSERTs (awkward values and
// NULLs among them), and DuckDB then reads the folder, partitions and
// all, as carquet does.
func TestHiveInsertDuckDB(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "h")
	duck, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer duck.Close()
	if _, err := duck.Exec("COPY (SELECT * FROM (VALUES (1, 'eu', 2024), (2, 'us', 2025)) t(id, region, year)) TO '" + dir + "' (FORMAT parquet, PARTITION_BY (region, year))"); err != nil {
		t.Fatal(err)
	}
	carq, err := driver.OpenDB(driver.Config{Path: root, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer carq.Close()
	if _, err := carq.Exec("INSERT INTO h (id, region, year) VALUES (3, 'eu', 2024), (4, 'a/b c=d%é', 2026), (5, NULL, 2024), (6, 'us', NULL)"); err != nil {
		t.Fatal(err)
	}
	rowsOf := func(db *sql.DB, from string) string {
		rows, err := db.Query("SELECT id, region, year FROM " + from + " ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var b strings.Builder
		for rows.Next() {
			var id, year sql.NullInt64
			var region sql.NullString
			if err := rows.Scan(&id, &region, &year); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "(%v %v %v)", id, region, year)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	c := rowsOf(carq, "h")
	d := rowsOf(duck, "read_parquet('"+dir+"/**/*.parquet', hive_partitioning = true)")
	if c != d {
		t.Errorf("carquet reads\n%s\nDuckDB reads\n%s", c, d)
	}
	if !strings.Contains(d, "a/b c=d%é") || !strings.Contains(d, "({5 true} { false} {2024 true})") {
		t.Errorf("DuckDB reads %s", d)
	}
}
