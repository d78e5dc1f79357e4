package sqlplan

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/carquet-go/carquet/delta"
)

// deltaTable makes the Delta table d of ids 1..3 and returns its folder.
func deltaTable(t *testing.T, e *Engine) string {
	t.Helper()
	exec(t, e, "CREATE TABLE d (id BIGINT, v VARCHAR) USING delta")
	exec(t, e, "INSERT INTO d VALUES (1, 'a'), (2, 'b')")
	exec(t, e, "INSERT INTO d VALUES (3, 'c')")
	return filepath.Join(e.root, "d")
}

func latestVersion(t *testing.T, dir string) int64 {
	t.Helper()
	v, err := delta.Latest(dir)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// INSERT, DELETE, UPDATE, MERGE and OPTIMIZE of a Delta table in a
// transaction: it reads its own writes, another connection the table as
// committed; ROLLBACK leaves the folder byte for byte as it was; COMMIT
// makes one Delta commit of the lot.
func TestTxDelta(t *testing.T) {
	e := newEngine(t)
	dir := deltaTable(t, e)
	v0 := latestVersion(t, dir)
	txScenario(t, e, []string{
		"INSERT INTO d VALUES (4, 'd')",
		"DELETE FROM d WHERE id = 1",
		"UPDATE d SET v = 'B' WHERE id = 2",
		"MERGE INTO d USING (SELECT 5 AS id) s ON d.id = s.id WHEN NOT MATCHED THEN INSERT VALUES (s.id, 'new')",
		"OPTIMIZE d",
	}, "SELECT id, v FROM d ORDER BY id", "1,a 2,b 3,c", "2,B 3,c 4,d 5,new")
	if v := latestVersion(t, dir); v != v0+1 {
		t.Errorf("COMMIT made Delta versions %d..%d, want one", v0+1, v)
	}
}

// Delta's conflict rules at COMMIT: a transaction that removed a file
// another writer removed meanwhile fails with ErrConflict, changing
// nothing (its one-file table neither); one that only inserted commits
// as a blind append after another writer's INSERT.
func TestTxDeltaConflict(t *testing.T) {
	e := newEngine(t)
	dir := deltaTable(t, e)
	exec(t, e, "CREATE TABLE g AS SELECT 1 AS x")
	tx := e.Begin(false)
	mustTx(t, e, tx, "DELETE FROM d WHERE id = 1")
	mustTx(t, e, tx, "UPDATE g SET x = 2")
	exec(t, e, "DELETE FROM d WHERE id = 1") // another connection
	if err := tx.Commit(); !errors.Is(err, ErrConflict) {
		t.Fatalf("COMMIT: %v, want ErrConflict", err)
	}
	if got := queryTx(t, e, nil, "SELECT x FROM g"); got != "1" {
		t.Errorf("after the failed COMMIT g holds %s", got)
	}
	if got := queryTx(t, e, nil, "SELECT id FROM d ORDER BY id"); got != "2 3" {
		t.Errorf("after the failed COMMIT d holds %s", got)
	}
	if v := latestVersion(t, dir); v != 3 {
		t.Errorf("the failed COMMIT left Delta version %d", v)
	}
	assertNoStaging(t, e.root)

	tx = e.Begin(false)
	mustTx(t, e, tx, "INSERT INTO d VALUES (7, 'g')")
	exec(t, e, "INSERT INTO d VALUES (8, 'h')")
	if err := tx.Commit(); err != nil {
		t.Fatalf("a blind append after another INSERT: %v", err)
	}
	if got := queryTx(t, e, nil, "SELECT id FROM d ORDER BY id"); got != "2 3 7 8" {
		t.Errorf("after COMMIT d holds %s", got)
	}
}

// A crash after the commit record of a transaction over a Delta table
// and a one-file table: before the Delta commit, recovery drops the
// record (nothing is committed); after it, recovery completes the
// one-file table's rename.
func TestTxDeltaCrashRecovery(t *testing.T) {
	for _, deltaDone := range []bool{false, true} {
		t.Run(fmt.Sprintf("deltaCommitted=%v", deltaDone), func(t *testing.T) {
			e := newEngine(t)
			deltaTable(t, e)
			exec(t, e, "CREATE TABLE g AS SELECT 1 AS x")
			tx := e.Begin(false)
			mustTx(t, e, tx, "DELETE FROM d WHERE id = 1")
			mustTx(t, e, tx, "UPDATE g SET x = 2")
			crashAfterRecord(t, tx, crashPoint{deltaDone: deltaDone})
			e2, err := Open(e.root, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer e2.Close()
			wantD, wantG := "1 2 3", "1"
			if deltaDone {
				wantD, wantG = "2 3", "2"
			}
			if got := queryTx(t, e2, nil, "SELECT id FROM d ORDER BY id"); got != wantD {
				t.Errorf("after recovery d holds %q, want %q", got, wantD)
			}
			if got := queryTx(t, e2, nil, "SELECT x FROM g"); got != wantG {
				t.Errorf("after recovery g holds %q, want %q", got, wantG)
			}
			assertNoStaging(t, e.root)
		})
	}
}
