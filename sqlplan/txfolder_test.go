package sqlplan

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/sqlplan/dml"
	"github.com/carquet-go/carquet/writer"
)

// queryTx runs q in transaction tx (nil: none) and returns its rows
// printed, or the error.
func queryTx(t *testing.T, e *Engine, tx *Tx, q string) string {
	t.Helper()
	s, err := e.Prepare(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	rows, err := s.QueryTx(context.Background(), nil, tx)
	if err != nil {
		return "error: " + err.Error()
	}
	defer rows.Close()
	var out []string
	for {
		b, err := rows.Next()
		if err == io.EOF {
			return strings.Join(out, " ")
		}
		if err != nil {
			return "error: " + err.Error()
		}
		for i := 0; i < b.N; i++ {
			var row []string
			for _, c := range b.Cols {
				row = append(row, fmt.Sprint(c.Value(i)))
			}
			out = append(out, strings.Join(row, ","))
		}
	}
}

func mustTx(t *testing.T, e *Engine, tx *Tx, q string) {
	t.Helper()
	if err := execErr(e, q, tx); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// treeState is every file under dir (but staging folders) with its
// bytes, printed: two states are equal when the folder holds the same
// names with the same contents.
func treeState(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			if err == nil && d.Name() == dml.StageDirName {
				return filepath.SkipDir // staging, not tables
			}
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(&b, "%s:%x\n", rel, data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// folderTable makes the plain folder table f of ids 1..4 in two files.
func folderTable(t *testing.T, e *Engine) string {
	t.Helper()
	exec(t, e, "CREATE TABLE 'f/a.parquet' (id BIGINT, v VARCHAR)")
	exec(t, e, "INSERT INTO f VALUES (1, 'a'), (2, 'b')")
	exec(t, e, "INSERT INTO f VALUES (3, 'c'), (4, 'd')")
	return filepath.Join(e.root, "f")
}

// DELETE, UPDATE and MERGE of a folder table in a transaction: the
// transaction reads its own changes, another connection the table as
// committed; ROLLBACK leaves the folder byte for byte as it was, COMMIT
// publishes the lot and leaves no staging folder.
func TestTxFolderDML(t *testing.T) {
	e := newEngine(t)
	dir := folderTable(t, e)
	txScenario(t, e, []string{
		"DELETE FROM f WHERE id = 1",
		"UPDATE f SET v = 'z' WHERE id = 3",
		"MERGE INTO f USING (SELECT 4 AS id UNION ALL SELECT 5) s ON f.id = s.id WHEN MATCHED THEN DELETE WHEN NOT MATCHED THEN INSERT VALUES (s.id, 'new')",
	}, "SELECT id, v FROM f ORDER BY id", "1,a 2,b 3,c 4,d", "2,b 3,z 5,new")
	for _, f := range folderFiles(t, dir) {
		if strings.HasPrefix(filepath.Base(f), ".") {
			t.Errorf("a hidden file is left in the table: %s", f)
		}
	}
}

// txScenario runs stmts in a transaction, which must then read want
// from q while another connection reads was, and rolls it back, which
// must leave the files as they were; then runs them in another that it
// commits, after which q reads want and no staging folder is left.
func txScenario(t *testing.T, e *Engine, stmts []string, q, was, want string) {
	t.Helper()
	before := treeState(t, e.root)
	for _, commit := range []bool{false, true} {
		tx := e.Begin(false)
		for _, s := range stmts {
			mustTx(t, e, tx, s)
		}
		if got := queryTx(t, e, tx, q); got != want {
			t.Fatalf("the transaction reads %q, want %q", got, want)
		}
		if got := queryTx(t, e, nil, q); got != was {
			t.Fatalf("another connection reads %q, want %q", got, was)
		}
		if !commit {
			if err := tx.Rollback(); err != nil {
				t.Fatal(err)
			}
			if got := treeState(t, e.root); got != before {
				t.Fatalf("ROLLBACK changed the files:\n%s\nwas\n%s", got, before)
			}
			continue
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	if got := queryTx(t, e, nil, q); got != want {
		t.Fatalf("after COMMIT: %q, want %q", got, want)
	}
	assertNoStaging(t, e.root)
}

func assertNoStaging(t *testing.T, root string) {
	t.Helper()
	ents, _ := os.ReadDir(filepath.Join(root, dml.StageDirName))
	for _, d := range ents {
		t.Errorf("left in the staging folder: %s", d.Name())
	}
	marks, _ := filepath.Glob(filepath.Join(root, "*", writer.StagedMarkPrefix+"*"))
	if len(marks) > 0 {
		t.Errorf("exchange marks left: %v", marks)
	}
}

// INSERTs into a folder table, then DML of it, then more INSERTs and an
// OPTIMIZE, in one transaction: each statement sees the ones before.
func TestTxFolderInsertsThenDML(t *testing.T) {
	e := newEngine(t)
	folderTable(t, e)
	tx := e.Begin(false)
	mustTx(t, e, tx, "INSERT INTO f VALUES (5, 'e')")
	mustTx(t, e, tx, "INSERT INTO f VALUES (6, 'f')")
	mustTx(t, e, tx, "DELETE FROM f WHERE id IN (1, 5)")
	mustTx(t, e, tx, "INSERT INTO f VALUES (7, 'g')")
	if got := queryTx(t, e, tx, "SELECT id FROM f ORDER BY id"); got != "2 3 4 6 7" {
		t.Fatalf("the transaction reads %q", got)
	}
	mustTx(t, e, tx, "OPTIMIZE f")
	mustTx(t, e, tx, "UPDATE f SET v = upper(v) WHERE id >= 6")
	if got := queryTx(t, e, tx, "SELECT id, v FROM f ORDER BY id"); got != "2,b 3,c 4,d 6,F 7,G" {
		t.Fatalf("the transaction reads %q", got)
	}
	mustTx(t, e, tx, "INSERT INTO f VALUES (8, 'h')")
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := queryTx(t, e, nil, "SELECT id, v FROM f ORDER BY id"); got != "2,b 3,c 4,d 6,F 7,G 8,h" {
		t.Fatalf("after COMMIT: %q", got)
	}
	assertNoStaging(t, e.root)
}

// Writes of a hive-partitioned table in a transaction: INSERT, an UPDATE
// that moves rows between partitions, DELETE; ROLLBACK leaves the folder
// as it was, COMMIT publishes all.
func TestTxHive(t *testing.T) {
	e := newEngine(t)
	hiveTable(t, e)
	txScenario(t, e, []string{
		"INSERT INTO h VALUES (7, 'g', 'us', 2026)",
		"UPDATE h SET region = 'eu', year = 2024 WHERE id = 2",
		"DELETE FROM h WHERE id IN (4, 6)",
	}, "SELECT id, region, year FROM h ORDER BY id",
		"1,eu,2024 2,us,2025 3,eu,2024 4,us,2025 5,eu,2023 6,<nil>,2023",
		"1,eu,2024 2,eu,2024 3,eu,2024 5,eu,2023 7,us,2026")
}

// A folder table changed by another connection after the transaction
// read it makes COMMIT fail with ErrConflict, changing nothing.
func TestTxFolderConflict(t *testing.T) {
	e := newEngine(t)
	folderTable(t, e)
	exec(t, e, "CREATE TABLE g AS SELECT 1 AS x")
	tx := e.Begin(false)
	mustTx(t, e, tx, "DELETE FROM f WHERE id = 1")
	mustTx(t, e, tx, "UPDATE g SET x = 2")
	exec(t, e, "INSERT INTO f VALUES (9, 'i')") // another connection
	before := treeState(t, e.root)
	err := tx.Commit()
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("COMMIT: %v, want ErrConflict", err)
	}
	if got := treeState(t, e.root); got != before {
		t.Fatalf("the failed COMMIT changed files")
	}
	if got := queryTx(t, e, nil, "SELECT id FROM f ORDER BY id"); got != "1 2 3 4 9" {
		t.Fatalf("after the failed COMMIT: %q", got)
	}
	assertNoStaging(t, e.root)
}

// A crash after the commit record, before or after the folder exchange
// (with its mark still in the table's folder): the next engine opened on
// the root completes the COMMIT, exchanging the folders exactly once.
func TestTxFolderCrashRecovery(t *testing.T) {
	for _, exchanged := range []bool{false, true} {
		t.Run(fmt.Sprintf("exchanged=%v", exchanged), func(t *testing.T) {
			e := newEngine(t)
			dir := folderTable(t, e)
			exec(t, e, "CREATE TABLE g AS SELECT 1 AS x")
			tx := e.Begin(false)
			mustTx(t, e, tx, "DELETE FROM f WHERE id = 1")
			mustTx(t, e, tx, "UPDATE g SET x = 2")
			crashAfterRecord(t, tx, crashPoint{exchanged: exchanged})
			if got := queryTx(t, e, nil, "SELECT count(*) FROM f"); exchanged != (got == "3") {
				t.Fatalf("before recovery, f has %s rows", got)
			}
			e2, err := Open(e.root, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer e2.Close()
			if got := queryTx(t, e2, nil, "SELECT id FROM f ORDER BY id"); got != "2 3 4" {
				t.Fatalf("after recovery f holds %q", got)
			}
			if got := queryTx(t, e2, nil, "SELECT x FROM g"); got != "2" {
				t.Fatalf("after recovery g holds %q", got)
			}
			assertNoStaging(t, e.root)
			if err := tableFolder(dir, e.root); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// crashPoint says how far crashAfterRecord goes past the record: the
// folder exchanges made, the first Delta commit written.
type crashPoint struct {
	exchanged, deltaDone bool
}

// crashAfterRecord does what COMMIT of tx does up to its commit record
// (and past it as far as at says), then stops as a killed process would:
// its staging folder's lock goes, nothing is cleaned up.
func crashAfterRecord(t *testing.T, tx *Tx, at crashPoint) {
	t.Helper()
	tx.mu.Lock()
	defer tx.mu.Unlock()
	tx.releaseSnapshot()
	var rec dml.Record
	var paths []string
	for p, ch := range tx.changed {
		tx.e.release(ch.view)
		ch.view = nil
		ops, err := tx.commitOpsLocked(p)
		if err != nil {
			t.Fatal(err)
		}
		rec = append(rec, ops...)
		paths = append(paths, p)
	}
	mark := dml.CommitMark(tx.staging.Dir())
	deltas, err := tx.deltaCommitsLocked(paths, mark)
	if err != nil {
		t.Fatal(err)
	}
	if len(deltas) > 0 {
		rec = append(rec, dml.DeltaStep(deltas[0], mark))
	}
	if err := rec.Write(tx.staging.Dir()); err != nil {
		t.Fatal(err)
	}
	if at.deltaDone {
		if ok, err := dml.CommitDeltas(deltas, delta.CommitOptions{Store: tx.e.opts.Store}, tx.e.forget); !ok || err != nil {
			t.Fatalf("the Delta commit: %v", err)
		}
	}
	for _, op := range rec {
		if op.Kind == dml.OpExchange && at.exchanged {
			if err := writer.ExchangeDirs(op.Src, op.Dst); err != nil {
				t.Fatal(err)
			}
		}
	}
	tx.staging.Unlock()
	tx.done = true
}
