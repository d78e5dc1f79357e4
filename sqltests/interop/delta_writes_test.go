package interop

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/delta"
	_ "github.com/carquet-go/carquet/driver"
)

// TestDeltaWritesReadByDuckDB writes a Delta table with carquet (CREATE
// TABLE ... USING delta, INSERTs) and reads it with DuckDB: with
// delta_scan when the delta extension loads without the network, else
// with read_parquet over the files of the snapshot's add actions. Rows
// must match carquet's own reading of the table.
func TestDeltaWritesReadByDuckDB(t *testing.T) {
	dir := t.TempDir()
	cq, err := sql.Open("carquet", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer cq.Close()
	for _, q := range []string{
		"CREATE TABLE ev (id BIGINT NOT NULL, name VARCHAR, amount DOUBLE, d DATE, price DECIMAL(12,3), n INTEGER) USING delta",
		"INSERT INTO ev VALUES (1, 'a', 1.5, DATE '2024-01-02', 12.345, 7), (2, NULL, NULL, NULL, NULL, NULL)",
		"INSERT INTO ev VALUES (3, 'ünï', -0.25, DATE '1999-12-31', -1.000, -3)",
		"CREATE TABLE cp USING delta AS SELECT id * 10 AS id, name FROM ev",
	} {
		if _, err := cq.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db := openDuckDB(t)
	useDeltaScan := false
	if _, err := db.Exec("LOAD delta"); err == nil {
		useDeltaScan = true
	} else {
		t.Logf("DuckDB's delta extension is not available offline (%v): reading the add actions' files with read_parquet", firstLine(err))
	}
	for _, c := range []struct{ table, cols string }{
		{"ev", "id, name, amount, CAST(d AS VARCHAR), CAST(price AS VARCHAR), n"},
		{"cp", "id, name"},
	} {
		root := filepath.Join(dir, c.table)
		want := rowsOf(t, cq, fmt.Sprintf("SELECT %s FROM %s ORDER BY id", c.cols, c.table))
		var from string
		if useDeltaScan {
			from = fmt.Sprintf("delta_scan('%s')", root)
		} else {
			snap, err := delta.Open(root, -1)
			if err != nil {
				t.Fatal(err)
			}
			var files []string
			for _, f := range snap.Files {
				files = append(files, "'"+f.Path+"'")
			}
			from = fmt.Sprintf("read_parquet([%s])", strings.Join(files, ", "))
		}
		got := rowsOf(t, db, fmt.Sprintf("SELECT %s FROM %s ORDER BY id", c.cols, from))
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s:\nduckdb  %v\ncarquet %v", c.table, got, want)
		}
		if len(want) == 0 {
			t.Errorf("%s: no rows", c.table)
		}
	}
}

// rowsOf runs a query and prints each value, so that drivers' Go types
// compare alike.
func rowsOf(t *testing.T, db *sql.DB, q string) [][]string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out [][]string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			switch x := v.(type) {
			case nil:
				row[i] = "NULL"
			case []byte:
				row[i] = string(x)
			default:
				row[i] = fmt.Sprint(x)
			}
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
