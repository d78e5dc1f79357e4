package driver

import (
	"strings"
	"testing"
)

// TestQuerySeveralStatements: a Query of several statements runs them in
// order and returns the last one's rows and columns; arguments are
// refused with several statements, before any of them runs.
func TestQuerySeveralStatements(t *testing.T) {
	db, _ := openTest(t, "")
	rows, err := db.Query("CREATE TABLE q (a INTEGER); INSERT INTO q VALUES (7); SELECT a AS last, a + 1 AS next FROM q")
	if err != nil {
		t.Fatal(err)
	}
	cols, _ := rows.Columns()
	var a, b int
	if !rows.Next() {
		t.Fatalf("no row: %v", rows.Err())
	}
	if err := rows.Scan(&a, &b); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	if strings.Join(cols, ",") != "last,next" || a != 7 || b != 8 {
		t.Errorf("columns %v, row %d %d", cols, a, b)
	}
	if _, err := db.Query("INSERT INTO q VALUES (?); SELECT 1", 9); err == nil || !strings.Contains(err.Error(), "several statements") {
		t.Errorf("arguments with several statements: %v", err)
	}
	if got := dumpQuery(db, "SELECT count(*) FROM q"); got != "1\n" {
		t.Errorf("rows after the refused Query: %q", got)
	}
}
