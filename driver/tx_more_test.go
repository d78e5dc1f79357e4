package driver

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/carquet-go/carquet/internal/events"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/writer"
)

// TestTxTempTable: a temporary table created in a transaction is seen by
// the transaction at once and by the other connections of the engine
// only after COMMIT, never after ROLLBACK; readers running meanwhile see
// it whole or not at all.
func TestTxTempTable(t *testing.T) {
	dir := t.TempDir()
	db := openTxDB(t, dir)
	defer db.Close()
	mustExec(t, db, "CREATE TABLE a (id BIGINT)")
	mustExec(t, db, "INSERT INTO a VALUES (1), (2), (3)")

	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	mustTxExec(t, tx, "CREATE TEMP TABLE tt AS SELECT id * 10 AS x FROM a")
	mustTxExec(t, tx, "INSERT INTO tt VALUES (40)")
	if got := dumpQuery(tx, "SELECT x FROM tt ORDER BY x"); got != "10\n20\n30\n40\n" {
		t.Fatalf("the transaction's own temporary table: %q", got)
	}
	if got := dumpQuery(db, "SELECT x FROM tt"); !strings.Contains(got, "does not exist") {
		t.Fatalf("another connection reads the uncommitted temporary table: %q", got)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if got := dumpQuery(db, "SELECT x FROM tt"); !strings.Contains(got, "does not exist") {
		t.Fatalf("after ROLLBACK: %q", got)
	}

	// Readers poll while a transaction creates the table and commits.
	tx, err = db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	mustTxExec(t, tx, "CREATE TEMP TABLE tt AS SELECT id * 10 AS x FROM a")
	mustTxExec(t, tx, "DELETE FROM tt WHERE x = 20")
	var wg sync.WaitGroup
	stop := make(chan struct{})
	bad := make(chan string, 2)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				got := dumpQuery(db, "SELECT x FROM tt ORDER BY x")
				if got != "10\n30\n" && !strings.Contains(got, "does not exist") {
					bad <- got
					return
				}
			}
		}()
	}
	if got := dumpQuery(db, "SELECT x FROM tt"); !strings.Contains(got, "does not exist") {
		t.Errorf("another connection reads the uncommitted temporary table: %q", got)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := dumpQuery(db, "SELECT x FROM tt ORDER BY x"); got != "10\n30\n" {
		t.Errorf("after COMMIT: %q", got)
	}
	close(stop)
	wg.Wait()
	close(bad)
	for got := range bad {
		t.Errorf("a reader saw %q", got)
	}
	if left := stagingLeft(t, dir); len(left) > 0 {
		t.Errorf("staging folders left: %v", left)
	}
}

// writeSmallRowGroups writes the events table at path as row groups of
// one row each.
func writeSmallRowGroups(t *testing.T, path string, rows int) {
	t.Helper()
	sch, err := events.Schema()
	if err != nil {
		t.Fatal(err)
	}
	w, err := writer.Create(path, sch, writer.WithRowGroupRows(1))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteBatch(events.Generate(rows, 7)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func numRowGroups(t *testing.T, path string) int {
	t.Helper()
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return f.NumRowGroups()
}

// TestTxOptimize: OPTIMIZE in a transaction compacts the table as the
// transaction sees it into a staged file: the file is untouched until
// COMMIT, and after ROLLBACK.
func TestTxOptimize(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ev.parquet")
	writeSmallRowGroups(t, path, 50)
	db := openTxDB(t, dir)
	defer db.Close()
	all := dumpQuery(db, "SELECT * FROM ev ORDER BY ALL")
	before := tableBytes(t, dir)

	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	r, err := tx.Exec("OPTIMIZE ev")
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := r.RowsAffected(); n != 50 {
		t.Errorf("OPTIMIZE in a transaction rewrote %d rows, want 50", n)
	}
	if got := dumpQuery(tx, "SELECT * FROM ev ORDER BY ALL"); got != all {
		t.Errorf("the rows the transaction reads after OPTIMIZE changed")
	}
	if got := dumpQuery(db, "SELECT * FROM ev ORDER BY ALL"); got != all {
		t.Errorf("the rows another connection reads changed")
	}
	sameTables(t, "before COMMIT", before, tableBytes(t, dir))
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	sameTables(t, "after ROLLBACK", before, tableBytes(t, dir))

	// Committed, after an INSERT the compaction folds in.
	tx, err = db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	mustTxExec(t, tx, "DELETE FROM ev WHERE user_id % 2 = 0")
	mustTxExec(t, tx, "INSERT INTO ev SELECT * FROM ev LIMIT 1")
	kept := dumpQuery(tx, "SELECT count(*) FROM ev")
	mustTxExec(t, tx, "OPTIMIZE ev")
	want := dumpQuery(tx, "SELECT * FROM ev ORDER BY ALL")
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := dumpQuery(db, "SELECT * FROM ev ORDER BY ALL"); got != want {
		t.Errorf("after COMMIT:\n%s\nwant\n%s", got, want)
	}
	if got := dumpQuery(db, "SELECT count(*) FROM ev"); got != kept || got == "50\n" {
		t.Errorf("count after COMMIT: %q, want %q", got, kept)
	}
	if n := numRowGroups(t, path); n != 1 {
		t.Errorf("%d row groups after the committed OPTIMIZE, want 1", n)
	}

	// A folder table: its runs of small files are merged in a staged
	// version of the folder, which COMMIT publishes (ROLLBACK drops).
	mustExec(t, db, "CREATE TABLE f0 (id BIGINT)")
	if err := os.Mkdir(filepath.Join(dir, "f"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "f0.parquet"), filepath.Join(dir, "f", "f0.parquet")); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		mustExec(t, db, fmt.Sprintf("INSERT INTO f VALUES (%d)", i))
	}
	files := func() int {
		m, _ := filepath.Glob(filepath.Join(dir, "f", "*.parquet"))
		return len(m)
	}
	for _, commit := range []bool{false, true} {
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		mustTxExec(t, tx, "OPTIMIZE f")
		if got := dumpQuery(tx, "SELECT id FROM f ORDER BY id"); got != "0\n1\n2\n" {
			t.Errorf("the transaction reads %q after OPTIMIZE", got)
		}
		endTx(t, tx, commit)
		if want := map[bool]int{false: 4, true: 1}[commit]; files() != want {
			t.Errorf("commit %v: f has %d files, want %d", commit, files(), want)
		}
	}
	if got := dumpQuery(db, "SELECT id FROM f ORDER BY id"); got != "0\n1\n2\n" {
		t.Errorf("after the committed OPTIMIZE f holds %q", got)
	}
}

// endTx commits tx, or rolls it back.
func endTx(t *testing.T, tx *sql.Tx, commit bool) {
	t.Helper()
	end := tx.Rollback
	if commit {
		end = tx.Commit
	}
	if err := end(); err != nil {
		t.Fatal(err)
	}
}

// deltaDataFiles counts the data files in the Delta table folder dir.
func deltaDataFiles(t *testing.T, dir string) int {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "*.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	return len(m)
}

// TestTxVacuum: VACUUM in a transaction counts the files it would delete
// and deletes them at COMMIT only.
func TestTxVacuum(t *testing.T) {
	dir := t.TempDir()
	db := openTxDB(t, dir)
	defer db.Close()
	mustExec(t, db, "CREATE TABLE d (id BIGINT) USING delta")
	for i := range 5 {
		mustExec(t, db, fmt.Sprintf("INSERT INTO d VALUES (%d)", i))
	}
	mustExec(t, db, "OPTIMIZE d") // the five files are now unused
	root := filepath.Join(dir, "d")
	if n := deltaDataFiles(t, root); n != 6 {
		t.Fatalf("%d data files before VACUUM, want 6", n)
	}
	run := func(commit bool) {
		t.Helper()
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec("VACUUM d RETAIN 0 HOURS"); err == nil || !strings.Contains(err.Error(), "FORCE") {
			t.Errorf("VACUUM below the retention without FORCE, in a transaction: %v", err)
		}
		tx.Rollback()
		tx, _ = db.Begin()
		r, err := tx.Exec("VACUUM d RETAIN 0 HOURS FORCE")
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := r.RowsAffected(); n != 5 {
			t.Errorf("VACUUM in a transaction counts %d files, want 5", n)
		}
		if n := deltaDataFiles(t, root); n != 6 {
			t.Errorf("%d data files before COMMIT, want 6", n)
		}
		end := tx.Rollback
		if commit {
			end = tx.Commit
		}
		if err := end(); err != nil {
			t.Fatal(err)
		}
	}
	run(false)
	if n := deltaDataFiles(t, root); n != 6 {
		t.Errorf("%d data files after ROLLBACK, want 6", n)
	}
	run(true)
	if n := deltaDataFiles(t, root); n != 1 {
		t.Errorf("%d data files after COMMIT, want 1", n)
	}
	if got := dumpQuery(db, "SELECT id FROM d ORDER BY ALL"); got != "0\n1\n2\n3\n4\n" {
		t.Errorf("rows after VACUUM: %q", got)
	}
}
