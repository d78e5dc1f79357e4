package sqlplan

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// folderFiles lists the Parquet files of a folder table, relative to it.
func folderFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".parquet") {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// TestFolderDeleteUpdate: DELETE, UPDATE and MERGE on a folder table
// rewrite only the files their WHERE may match, drop files left empty,
// keep the table's row order, and leave a file of no rows when every row
// goes.
func TestFolderDeleteUpdate(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE 'f/a.parquet' (id BIGINT, v VARCHAR)")
	dir := filepath.Join(e.root, "f")
	for i := 0; i < 4; i++ {
		exec(t, e, fmt.Sprintf("INSERT INTO f SELECT range, 'v' || range FROM range(%d, %d)", i*10, i*10+10))
	}
	before := folderFiles(t, dir)
	if len(before) != 5 {
		t.Fatalf("files before: %v", before)
	}
	if r := exec(t, e, "UPDATE f SET v = 'x' WHERE id = 15"); r.RowsAffected != 1 {
		t.Errorf("UPDATE: %d rows affected", r.RowsAffected)
	}
	after := folderFiles(t, dir)
	if len(after) != 5 || after[0] != before[0] || after[1] != before[1] || after[3] != before[3] || after[2] == before[2] {
		t.Errorf("UPDATE of one file's row: files %v, were %v", after, before)
	}
	if got := queryAll(t, e, "SELECT list(v ORDER BY id)[14:17] FROM f"); fmt.Sprint(got) != "[[[v13 v14 x v16]]]" {
		t.Errorf("after UPDATE: %v", got)
	}
	if got := queryAll(t, e, "SELECT min(id), max(id), count(*) FROM (SELECT id, row_number() OVER () AS n FROM f) WHERE id + 1 = n"); fmt.Sprint(got) != "[[0 39 40]]" {
		t.Errorf("row order after UPDATE: %v", got)
	}
	if r := exec(t, e, "DELETE FROM f WHERE id >= 20 AND id < 30"); r.RowsAffected != 10 {
		t.Errorf("DELETE: %d rows affected", r.RowsAffected)
	}
	if got := folderFiles(t, dir); len(got) != 4 {
		t.Errorf("a file left without rows stays: %v", got)
	}
	exec(t, e, "CREATE TABLE src (id BIGINT, v VARCHAR)")
	exec(t, e, "INSERT INTO src VALUES (1, 'm1'), (35, NULL), (100, 'new')")
	if r := exec(t, e, "MERGE INTO f USING src ON f.id = src.id WHEN MATCHED AND src.v IS NULL THEN DELETE WHEN MATCHED THEN UPDATE SET v = src.v WHEN NOT MATCHED THEN INSERT VALUES (src.id, src.v)"); r.RowsAffected != 3 {
		t.Errorf("MERGE: %d rows affected", r.RowsAffected)
	}
	if got := queryAll(t, e, "SELECT count(*), sum(id), max(v) FILTER (WHERE id = 1), max(v) FILTER (WHERE id = 100) FROM f"); fmt.Sprint(got) != "[[30 600 m1 new]]" {
		t.Errorf("after MERGE: %v", got)
	}
	if r := exec(t, e, "DELETE FROM f"); r.RowsAffected != 30 {
		t.Errorf("DELETE of all: %d rows affected", r.RowsAffected)
	}
	if got := folderFiles(t, dir); len(got) != 1 {
		t.Errorf("after DELETE of all rows: %v", got)
	}
	if got := queryAll(t, e, "SELECT count(*) FROM f"); fmt.Sprint(got) != "[[0]]" {
		t.Errorf("after DELETE of all rows: %v", got)
	}
	exec(t, e, "INSERT INTO f VALUES (7, 'z')")
	if got := queryAll(t, e, "SELECT id, v FROM f"); fmt.Sprint(got) != "[[7 z]]" {
		t.Errorf("INSERT after DELETE of all rows: %v", got)
	}
	// Nothing of the edits is left beside the folder.
	ents, _ := os.ReadDir(e.root)
	for _, d := range ents {
		if strings.HasPrefix(d.Name(), ".f.") {
			t.Errorf("left beside the folder: %s", d.Name())
		}
	}
}

// TestFolderEditConcurrentReaders: readers of another engine (as another
// process would be) query a folder table while UPDATEs rewrite all its
// files again and again: each query sees every row of one version, all
// its rows updated the same number of times, never files of two versions
// or a folder missing some. Run it with -race.
func TestFolderEditConcurrentReaders(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE 'f/a.parquet' (id BIGINT, v BIGINT)")
	for i := 0; i < 8; i++ {
		exec(t, e, fmt.Sprintf("INSERT INTO f SELECT range, 0 FROM range(%d, %d)", i*75, i*75+75))
	}
	readers := make([]*Engine, 2)
	for i := range readers {
		r, err := Open(e.root, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		readers[i] = r
	}
	const updates = 15
	stop := make(chan struct{})
	errs := make(chan error, len(readers))
	counts := make([]int, len(readers))
	for i, r := range readers {
		go func() {
			for {
				select {
				case <-stop:
					errs <- nil
					return
				default:
				}
				got, err := queryRows(t, r, "SELECT count(*), min(v), max(v), sum(id) FROM f")
				if err != nil {
					errs <- err
					return
				}
				row := got[0]
				if fmt.Sprintf("%v %v", row[0], row[3]) != "600 179700" || fmt.Sprint(row[1]) != fmt.Sprint(row[2]) {
					errs <- fmt.Errorf("a reader saw %#v", row)
					return
				}
				counts[i]++
			}
		}()
	}
	for k := 0; k < updates; k++ {
		if r := exec(t, e, "UPDATE f SET v = v + 1"); r.RowsAffected != 600 {
			t.Errorf("UPDATE %d: %d rows affected", k, r.RowsAffected)
		}
	}
	close(stop)
	for range readers {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if got := queryAll(t, e, "SELECT min(v), max(v) FROM f"); fmt.Sprint(got) != fmt.Sprintf("[[%d %d]]", updates, updates) {
		t.Errorf("after the UPDATEs: %v", got)
	}
	t.Logf("queries per reader: %v", counts)
}

// TestDropDeltaTable: DROP TABLE removes a Delta table whole (log and
// data files) in one rename; in a transaction at COMMIT, not at ROLLBACK.
// A plain folder table goes the same way.
func TestDropDeltaTable(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE d (id BIGINT, v VARCHAR) USING delta")
	exec(t, e, "INSERT INTO d VALUES (1, 'a'), (2, 'b')")

	tx := e.Begin(false)
	if err := execErr(e, "DROP TABLE d", tx); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if got := queryAll(t, e, "SELECT count(*) FROM d"); fmt.Sprint(got) != "[[2]]" {
		t.Fatalf("after a ROLLBACK of DROP TABLE: %v", got)
	}
	tx = e.Begin(false)
	if err := execErr(e, "DROP TABLE d", tx); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(e.root, "d")); !os.IsNotExist(err) {
		t.Fatalf("the Delta table's folder after a committed DROP: %v", err)
	}

	exec(t, e, "CREATE TABLE d (id BIGINT) USING delta")
	exec(t, e, "INSERT INTO d VALUES (3)")
	exec(t, e, "DROP TABLE d")
	if err := execErr(e, "SELECT * FROM d", nil); err == nil {
		t.Errorf("the dropped Delta table is still read")
	}
	exec(t, e, "CREATE TABLE 'f/a.parquet' (id BIGINT)")
	exec(t, e, "DROP TABLE f")
	ents, _ := os.ReadDir(e.root)
	for _, d := range ents {
		if !strings.HasPrefix(d.Name(), ".carquet") { // the transactions' staging folder
			t.Errorf("left in the root after the DROPs: %s", d.Name())
		}
	}
}

// TestInsertHive: INSERT into a hive-partitioned table routes rows to
// the folders of their partition values (new ones made), encoded as
// DuckDB's PARTITION_BY writes them, and reads them back; DELETE and
// UPDATE are refused.
func TestInsertHive(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE 'h/region=eu/year=2024/a.parquet' (id BIGINT, v VARCHAR)")
	exec(t, e, "INSERT INTO h VALUES (1, 'a', 'eu', 2024)")
	if r := exec(t, e, "INSERT INTO h (region, id, year) VALUES ('us', 2, 2025), ('eu', 3, 2024), ('a/b c=d%', 4, NULL), (NULL, 5, 2024), ('us', 6, 2025)"); r.RowsAffected != 5 {
		t.Errorf("INSERT: %d rows affected", r.RowsAffected)
	}
	got := folderFiles(t, filepath.Join(e.root, "h"))
	dirs := map[string]int{}
	for _, f := range got {
		dirs[filepath.Dir(f)]++
	}
	want := map[string]int{"region=eu/year=2024": 3, "region=us/year=2025": 1, "region=a%2Fb%20c%3Dd%25/year=__HIVE_DEFAULT_PARTITION__": 1, "region=__HIVE_DEFAULT_PARTITION__/year=2024": 1}
	if fmt.Sprint(dirs) != fmt.Sprint(want) {
		t.Errorf("files by folder: %v, want %v", dirs, want)
	}
	if got := queryAll(t, e, "SELECT id, v, region, year FROM h ORDER BY id"); fmt.Sprint(got) != "[[1 a eu 2024] [2 <nil> us 2025] [3 <nil> eu 2024] [4 <nil> a/b c=d% <nil>] [5 <nil> <nil> 2024] [6 <nil> us 2025]]" {
		t.Errorf("the table after the INSERTs: %v", got)
	}
	if err := execErr(e, "INSERT INTO h VALUES (7, 'x', 'eu', 'not a number')", nil); err == nil {
		t.Errorf("a year that is not a number was taken")
	}
}

// TestFolderUpdateFails: an UPDATE that fails in its second file (a value
// that does not cast) leaves every file of the folder as it was and
// nothing of the edit beside it.
func TestFolderUpdateFails(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE 'f/a.parquet' (id BIGINT, v VARCHAR)")
	exec(t, e, "INSERT INTO f VALUES (1, '10'), (2, '20')")
	exec(t, e, "INSERT INTO f VALUES (3, 'x')")
	dir := filepath.Join(e.root, "f")
	before := folderFiles(t, dir)
	if err := execErr(e, "UPDATE f SET id = CAST(v AS BIGINT)", nil); err == nil {
		t.Fatal("an UPDATE with a failing cast ran")
	}
	if got := folderFiles(t, dir); fmt.Sprint(got) != fmt.Sprint(before) {
		t.Errorf("files after the failed UPDATE: %v, were %v", got, before)
	}
	if got := queryAll(t, e, "SELECT list(id ORDER BY id) FROM f"); fmt.Sprint(got) != "[[[1 2 3]]]" {
		t.Errorf("rows after the failed UPDATE: %v", got)
	}
	ents, _ := os.ReadDir(e.root)
	for _, d := range ents {
		if strings.HasPrefix(d.Name(), ".f.") {
			t.Errorf("left beside the folder: %s", d.Name())
		}
	}
}
