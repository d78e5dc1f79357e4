package driver

import (
	"database/sql"
	"fmt"
	"testing"
)

// Placeholders in a query that mixes UNION with INTERSECT and EXCEPT
// take their arguments in the order they are written, across the parts
// (each part is prepared alone: a ? in each counted from 1 before).
func TestSetOpsMixedPlaceholders(t *testing.T) {
	db, _ := openTest(t, "")
	if got := setOpInts(t, db, "SELECT ? AS x UNION SELECT ? INTERSECT SELECT ? EXCEPT SELECT ? ORDER BY 1", 1, 2, 2, 1); got != "[2]" {
		t.Errorf("mixed: got %s, want [2]", got)
	}
	if got := setOpInts(t, db, "SELECT ? AS x INTERSECT SELECT ? EXCEPT SELECT ?", 2, 2, 1); got != "[2]" {
		t.Errorf("INTERSECT and EXCEPT: got %s, want [2]", got)
	}
}

// setOpInts runs q with args and prints its one integer column.
func setOpInts(t *testing.T, db *sql.DB, q string, args ...any) string {
	t.Helper()
	rows, err := db.Query(q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []int64
	for rows.Next() {
		var x int64
		if err := rows.Scan(&x); err != nil {
			t.Fatal(err)
		}
		got = append(got, x)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(got)
}
