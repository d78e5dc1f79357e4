package driver

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/sqlplan"
)

// mergeRows returns a table's rows as "id:v:n" strings in id order.
func mergeRows(t *testing.T, db *sql.DB, table string) []string {
	t.Helper()
	rows, err := db.Query("SELECT id, v, n FROM " + table + " ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id int64
		var v sql.NullString
		var n sql.NullInt64
		if err := rows.Scan(&id, &v, &n); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%d:%s:%s", id, nullText(v.Valid, v.String), nullText(n.Valid, fmt.Sprint(n.Int64))))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func nullText(ok bool, s string) string {
	if !ok {
		return "NULL"
	}
	return s
}

func sameRows(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("%s:\n got %v\nwant %v", what, got, want)
	}
}

// mergeStmt updates, deletes and inserts at once (the counts as DuckDB
// gives them: one per pair or row acted on).
const mergeStmt = `MERGE INTO t USING (VALUES (1, 'one'), (2, NULL), (9, 'nine')) AS s(id, v) ON t.id = s.id
	WHEN MATCHED AND s.v IS NULL THEN DELETE
	WHEN MATCHED THEN UPDATE SET v = s.v, n = t.n + 1
	WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v, 0)`

// TestMergeDelta: a MERGE of a Delta table is one commit (deletion
// vectors for the changed and deleted rows, a new data file for the new
// versions and the inserts); the version before it still reads as it was.
func TestMergeDelta(t *testing.T) {
	db, dir := openTest(t, "")
	mustExec(t, db, "CREATE TABLE t (id BIGINT, v VARCHAR, n BIGINT) USING delta")
	// Two data files: the MERGE edits both (the first keeps a row).
	mustExec(t, db, "INSERT INTO t VALUES (1, 'a', 10), (2, 'b', 20), (5, 'e', 50)")
	mustExec(t, db, "INSERT INTO t VALUES (3, 'c', 30)")
	logDir := filepath.Join(dir, "t", "_delta_log")
	commits := func() []string {
		m, err := filepath.Glob(filepath.Join(logDir, "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	before := len(commits())
	r := mustExec(t, db, mergeStmt)
	if n, _ := r.RowsAffected(); n != 3 {
		t.Errorf("rows affected: %d, want 3", n)
	}
	sameRows(t, "after MERGE", mergeRows(t, db, "t"), "1:one:11", "3:c:30", "5:e:50", "9:nine:0")
	after := commits()
	if len(after) != before+1 {
		t.Fatalf("%d commits for one MERGE", len(after)-before)
	}
	last, err := os.ReadFile(after[len(after)-1])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"MERGE"`, `"deletionVector"`, `"remove"`} {
		if !strings.Contains(string(last), want) {
			t.Errorf("the MERGE commit lacks %s:\n%s", want, last)
		}
	}
	v := before - 1 // the version the MERGE read
	sameRows(t, "the version before", mergeRows(t, db, fmt.Sprintf("`t@v%d`", v)), "1:a:10", "2:b:20", "3:c:30", "5:e:50")

	// BY SOURCE and a MERGE that changes nothing: no commit.
	mustExec(t, db, "MERGE INTO t USING (VALUES (1)) AS s(id) ON t.id = s.id WHEN NOT MATCHED BY SOURCE AND t.n = 0 THEN DELETE WHEN NOT MATCHED BY SOURCE THEN UPDATE SET n = -t.n")
	sameRows(t, "after BY SOURCE", mergeRows(t, db, "t"), "1:one:11", "3:c:-30", "5:e:-50")
	n := len(commits())
	if r := mustExec(t, db, "MERGE INTO t USING (VALUES (6)) AS s(id) ON t.id = s.id WHEN MATCHED THEN DELETE"); len(commits()) != n {
		t.Error("a MERGE that changes nothing committed")
	} else if k, _ := r.RowsAffected(); k != 0 {
		t.Errorf("rows affected: %d", k)
	}
	// Only inserts: appended as INSERT appends.
	mustExec(t, db, "MERGE INTO t USING (VALUES (1), (4)) AS s(id) USING (id) WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, 'new')")
	sameRows(t, "after the insert-only MERGE", mergeRows(t, db, "t"), "1:one:11", "3:c:-30", "4:new:NULL", "5:e:-50")
	// An error in the middle leaves the table and its log as they were.
	n = len(commits())
	if _, err := db.Exec("MERGE INTO t USING (VALUES (1), (3)) AS s(id) ON t.id = s.id WHEN MATCHED AND s.id = 3 THEN ERROR 'stop' WHEN MATCHED THEN DELETE"); err == nil || !strings.Contains(err.Error(), "stop") {
		t.Errorf("ERROR clause: %v", err)
	}
	if len(commits()) != n {
		t.Error("a failed MERGE committed")
	}
	sameRows(t, "after the failed MERGE", mergeRows(t, db, "t"), "1:one:11", "3:c:-30", "4:new:NULL", "5:e:-50")
}

// TestMergeOneFileTable: the MERGE of a one-file table rewrites it; the
// counts are DuckDB's; an error (a constraint, an ERROR clause, a cast)
// leaves the file as it was.
func TestMergeOneFileTable(t *testing.T) {
	db, dir := openTest(t, "")
	mustExec(t, db, "CREATE TABLE t (id BIGINT PRIMARY KEY, v VARCHAR, n BIGINT)")
	mustExec(t, db, "INSERT INTO t VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30)")
	if n, _ := mustExec(t, db, mergeStmt).RowsAffected(); n != 3 {
		t.Errorf("rows affected: %d, want 3", n)
	}
	sameRows(t, "after MERGE", mergeRows(t, db, "t"), "1:one:11", "3:c:30", "9:nine:0")
	file := filepath.Join(dir, "t.parquet")
	old, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"MERGE INTO t USING (VALUES (1)) AS s(id) ON t.id = s.id WHEN MATCHED THEN UPDATE SET id = 3",
		"MERGE INTO t USING (VALUES (7)) AS s(id) ON t.id = s.id WHEN NOT MATCHED THEN INSERT VALUES (1, 'dup', 0)",
		"MERGE INTO t USING (VALUES (3)) AS s(id) ON t.id = s.id WHEN NOT MATCHED BY SOURCE THEN DELETE WHEN MATCHED THEN ERROR",
		"MERGE INTO t USING (VALUES (3, 'x')) AS s(id, n) ON t.id = s.id WHEN MATCHED THEN UPDATE SET n = s.n",
	} {
		if _, err := db.Exec(q); err == nil {
			t.Errorf("%s: no error", q)
		}
	}
	now, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(now) != string(old) {
		t.Error("a failed MERGE changed the file")
	}
	// Several source rows matching one target row: each pair counts.
	if n, _ := mustExec(t, db, "MERGE INTO t USING (VALUES (3, 'p'), (3, 'q')) AS s(id, v) ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v").RowsAffected(); n != 2 {
		t.Errorf("two pairs: %d rows affected", n)
	}
	// ON without an equality: every pair.
	if n, _ := mustExec(t, db, "MERGE INTO t USING (VALUES (0)) AS s(x) ON t.id > s.x WHEN MATCHED THEN UPDATE SET n = 0").RowsAffected(); n != 3 {
		t.Errorf("ON without an equality: %d rows affected", n)
	}
}

// TestMergeFolderTable: a folder table takes a MERGE that only inserts
// (a new file); one that updates or deletes is refused as UPDATE is.
func TestMergeFolderTable(t *testing.T) {
	db, dir := openTest(t, "")
	mustExec(t, db, "CREATE TABLE f0 (id BIGINT, v VARCHAR, n BIGINT)")
	mustExec(t, db, "INSERT INTO f0 VALUES (1, 'a', 10)")
	if err := os.Mkdir(filepath.Join(dir, "f"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "f0.parquet"), filepath.Join(dir, "f", "f0.parquet")); err != nil {
		t.Fatal(err)
	}
	r := mustExec(t, db, "MERGE INTO f USING (VALUES (1, 'x'), (2, 'y')) AS s(id, v) ON f.id = s.id WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.v)")
	if n, _ := r.RowsAffected(); n != 1 {
		t.Errorf("rows affected: %d", n)
	}
	sameRows(t, "folder after MERGE", mergeRows(t, db, "f"), "1:a:10", "2:y:NULL")
	files, _ := filepath.Glob(filepath.Join(dir, "f", "*.parquet"))
	if len(files) != 2 {
		t.Errorf("%d files in the folder, want 2", len(files))
	}
	// Deletes rewrite the folder's files the rows are in (folderdml.go).
	r = mustExec(t, db, "MERGE INTO f USING (VALUES (1)) AS s(id) ON f.id = s.id WHEN MATCHED THEN DELETE")
	if n, _ := r.RowsAffected(); n != 1 {
		t.Errorf("MERGE that deletes from a folder table: %d rows affected", n)
	}
	sameRows(t, "folder after the MERGE that deletes", mergeRows(t, db, "f"), "2:y:NULL")
}

// TestMergeRefused: on a read-only database; inside a transaction that
// made a view, MERGE reads the view as the transaction made it.
func TestMergeRefused(t *testing.T) {
	db, dir := openTest(t, "")
	mustExec(t, db, "CREATE TABLE t (id BIGINT, v VARCHAR, n BIGINT)")
	mustExec(t, db, "INSERT INTO t VALUES (1, 'a', 10)")
	tx, err := db.BeginTx(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("CREATE VIEW ids AS SELECT 1 AS id"); err != nil {
		t.Fatal(err)
	}
	r, err := tx.Exec("MERGE INTO t USING ids AS s ON t.id = s.id WHEN MATCHED THEN DELETE")
	if err != nil {
		t.Fatalf("MERGE in a transaction that made a view: %v", err)
	}
	if n, _ := r.RowsAffected(); n != 1 {
		t.Errorf("MERGE using the transaction's view: %d rows affected, want 1", n)
	}
	tx.Rollback()
	ro, err := sql.Open("carquet", dir+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	_, err = ro.Exec("MERGE INTO t USING (VALUES (1)) AS s(id) ON t.id = s.id WHEN MATCHED THEN DELETE")
	if !errors.Is(err, sqlplan.ErrReadOnly) {
		t.Errorf("MERGE on a read-only database: %v", err)
	}
	sameRows(t, "after the refused MERGEs", mergeRows(t, db, "t"), "1:a:10")
}

// BenchmarkMerge: a MERGE of 10,000 source rows (half of them update
// target rows, half are new) into a 1,000,000-row one-file table and
// into a Delta table, each iteration on a fresh table; update-file is an
// UPDATE of the same 5,000 rows of the one-file table, for scale (the
// rewrite both pay).
func BenchmarkMerge(b *testing.B) {
	const merge = "MERGE INTO %s AS t USING src AS s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v, n = t.n + 1 WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v, 0)"
	const update = "UPDATE %s SET v = 'new', n = n + 1 WHERE id %% 200 = 0"
	for _, c := range []struct{ name, using, stmt string }{
		{"file", "", merge}, {"delta", " USING delta", merge}, {"update-file", "", update},
	} {
		b.Run(c.name, func(b *testing.B) {
			db, _ := openTest(b, "")
			mustExec(b, db, "CREATE TABLE src AS SELECT range * 200 AS id, 'new' AS v FROM range(10000)")
			k := 0
			for b.Loop() {
				b.StopTimer()
				k++
				tbl := fmt.Sprintf("t%d", k)
				mustExec(b, db, "CREATE TABLE "+tbl+" (id BIGINT, v VARCHAR, n BIGINT)"+c.using)
				mustExec(b, db, "INSERT INTO "+tbl+" SELECT range, 'old', range FROM range(1000000)")
				b.StartTimer()
				mustExec(b, db, fmt.Sprintf(c.stmt, tbl))
			}
		})
	}
}

// TestMergeParams: the ?s of a MERGE are numbered across its source and
// its expressions.
func TestMergeParams(t *testing.T) {
	db, _ := openTest(t, "")
	mustExec(t, db, "CREATE TABLE t (id BIGINT, v VARCHAR, n BIGINT)")
	mustExec(t, db, "INSERT INTO t VALUES (1, 'a', 10)")
	q := "WITH c AS (SELECT ? AS k) MERGE INTO t USING (SELECT id, ? AS w FROM (VALUES (1), (2)) x(id), c WHERE id >= c.k) AS s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = s.w, n = ? WHEN NOT MATCHED THEN INSERT VALUES (s.id, ?, ?)"
	if n, _ := mustExec(t, db, q, 1, "upd", 7, "ins", 8).RowsAffected(); n != 2 {
		t.Errorf("rows affected: %d", n)
	}
	sameRows(t, "after MERGE", mergeRows(t, db, "t"), "1:upd:7", "2:ins:8")
}
