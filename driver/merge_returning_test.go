package driver

import (
	"testing"
)

// TestMergeReturningExec: a MERGE ... RETURNING run through Exec changes
// the table and counts the rows it returned; a RETURNING that does not
// bind leaves the table as it was.
func TestMergeReturningExec(t *testing.T) {
	db, _ := openTest(t, "")
	for _, q := range []string{
		"CREATE TABLE m (id INTEGER, v VARCHAR, n INTEGER)",
		"INSERT INTO m VALUES (1, 'a', 1), (2, 'b', 2)",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	res, err := db.Exec("MERGE INTO m USING (VALUES (1, 'x'), (3, 'z')) s(id, v) ON m.id = s.id " +
		"WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v, 0) RETURNING id")
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 2 {
		t.Fatalf("rows affected %d, want 2", n)
	}
	want := []string{"1:x:1", "2:b:2", "3:z:0"}
	if got := mergeRows(t, db, "m"); len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("after MERGE: %v, want %v", got, want)
	}
	if _, err := db.Exec("MERGE INTO m USING (VALUES (2, 'y')) s(id, v) ON m.id = s.id " +
		"WHEN MATCHED THEN UPDATE SET v = s.v RETURNING nope"); err == nil {
		t.Fatal("RETURNING of an unknown column ran")
	}
	if got := mergeRows(t, db, "m"); got[1] != "2:b:2" {
		t.Fatalf("a MERGE whose RETURNING failed changed the table: %v", got)
	}
}
