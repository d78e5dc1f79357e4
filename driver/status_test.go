package driver

import (
	"database/sql"
	"testing"
)

// TestQueryOfStatementsWithoutRows: db.Query of a statement that returns
// no rows runs it and answers as duckdb-go does (a Count or Success
// column), so that code written for DuckDB keeps working.
func TestQueryOfStatementsWithoutRows(t *testing.T) {
	db, err := sql.Open("carquet", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, c := range []struct {
		q    string
		col  string
		rows []int64
	}{
		{"CREATE TABLE x (a INTEGER)", "Count", nil},
		{"INSERT INTO x VALUES (1), (2), (3)", "Count", []int64{3}},
		{"UPDATE x SET a = 10 WHERE a = 1", "Count", []int64{1}},
		{"DELETE FROM x WHERE a >= 2 AND a <= 3", "Count", []int64{2}},
		{"CREATE VIEW vx AS SELECT a FROM x", "Count", nil},
		{"CREATE TABLE y AS SELECT * FROM x", "Count", []int64{1}},
		{"SET threads = 2", "Success", nil},
		{"DROP VIEW vx", "Success", nil},
		{"BEGIN", "Success", nil},
		{"INSERT INTO x VALUES (4)", "Count", []int64{1}},
		{"COMMIT", "Success", nil},
	} {
		rows, err := db.Query(c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		cols, _ := rows.Columns()
		if len(cols) != 1 || cols[0] != c.col {
			t.Errorf("%s: columns %v, want [%s]", c.q, cols, c.col)
		}
		var got []int64
		for rows.Next() {
			var n int64
			if err := rows.Scan(&n); err != nil {
				t.Fatal(err)
			}
			got = append(got, n)
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(c.rows) || len(got) == 1 && got[0] != c.rows[0] {
			t.Errorf("%s: rows %v, want %v", c.q, got, c.rows)
		}
	}
	var n int
	if err := db.QueryRow("SELECT count(*) FROM x").Scan(&n); err != nil || n != 2 {
		t.Fatalf("after the statements: %d rows (%v), want 2", n, err)
	}
}
