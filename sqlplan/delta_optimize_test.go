package sqlplan

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/delta"
)

// logNames lists a table's _delta_log.
func logNames(t *testing.T, root string) []string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(root, delta.LogDir))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

func TestDeltaOptimizeVacuum(t *testing.T) {
	e, dir := deltaEngine(t)
	root := filepath.Join(dir, "t")
	exec(t, e, "SET threads = 1") // unordered scans read the files in order
	exec(t, e, "CREATE TABLE t (id BIGINT NOT NULL, s VARCHAR) USING delta")
	for i := 1; i <= 50; i++ {
		exec(t, e, fmt.Sprintf("INSERT INTO t VALUES (%d, 's%d'), (%d, NULL)", i*37%101, i, 1000-i))
	}
	rows := fmt.Sprint(queryAll(t, e, "SELECT id, s FROM t"))
	if r := exec(t, e, "OPTIMIZE t"); r.RowsAffected != 100 {
		t.Fatalf("optimize rewrote %d rows", r.RowsAffected)
	}
	snap, err := delta.Open(root, -1)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Version != 51 || len(snap.Files) != 1 || !strings.Contains(snap.Files[0].StatsJSON, `"numRecords":100`) {
		t.Fatalf("version %d, %d files", snap.Version, len(snap.Files))
	}
	commit, err := os.ReadFile(filepath.Join(root, delta.LogDir, fmt.Sprintf("%020d.json", 51)))
	if err != nil {
		t.Fatal(err)
	}
	c := string(commit)
	if !strings.Contains(c, `"operation":"OPTIMIZE"`) || strings.Count(c, `{"remove":`) != 50 || strings.Count(c, `{"add":`) != 1 || strings.Contains(c, `"dataChange":true`) {
		t.Fatalf("commit 51:\n%s", c)
	}
	// The same rows in the same order, in the new file too.
	if got := fmt.Sprint(queryAll(t, e, "SELECT id, s FROM t")); got != rows {
		t.Fatalf("after OPTIMIZE\n%s\nwant\n%s", got, rows)
	}
	if got := fmt.Sprint(queryAll(t, e, fmt.Sprintf("SELECT id, s FROM '%s'", snap.Files[0].Path))); got != rows {
		t.Fatalf("the new file\n%s\nwant\n%s", got, rows)
	}
	// The version before reads the old files.
	if got := fmt.Sprint(queryAll(t, e, "SELECT id, s FROM `t@v50`")); got != rows {
		t.Fatalf("version 50: %s", got)
	}
	if n := len(dataFiles(t, root)); n != 51 {
		t.Fatalf("%d data files", n)
	}
	// Nothing left to compact: no commit.
	if r := exec(t, e, "OPTIMIZE t"); r.RowsAffected != 0 {
		t.Fatalf("second optimize rewrote %d rows", r.RowsAffected)
	}
	exec(t, e, "INSERT INTO t VALUES (5000, 'last')")
	if v, _ := delta.Latest(root); v != 52 {
		t.Fatalf("latest version %d", v)
	}
	rows = fmt.Sprint(queryAll(t, e, "SELECT id, s FROM t"))

	// VACUUM: within the retention nothing goes; a shorter one needs FORCE.
	logBefore := logNames(t, root)
	if r := exec(t, e, "VACUUM t"); r.RowsAffected != 0 {
		t.Fatalf("vacuum deleted %d files", r.RowsAffected)
	}
	if err := execErr(e, "VACUUM t RETAIN 0 HOURS", nil); err == nil || !strings.Contains(err.Error(), "FORCE") || !strings.Contains(err.Error(), "version 52") {
		t.Fatalf("unforced: %v", err)
	}
	if r := exec(t, e, "VACUUM t RETAIN 0 HOURS FORCE DRY RUN"); r.RowsAffected != 50 {
		t.Fatalf("dry run: %d files", r.RowsAffected)
	}
	if n := len(dataFiles(t, root)); n != 52 {
		t.Fatalf("the dry run deleted files: %d left", n)
	}
	if r := exec(t, e, "vacuum t retain 0 hours force"); r.RowsAffected != 50 {
		t.Fatalf("vacuum deleted %d files", r.RowsAffected)
	}
	if n := len(dataFiles(t, root)); n != 2 {
		t.Fatalf("%d data files left", n)
	}
	if got := logNames(t, root); !slices.Equal(got, logBefore) {
		t.Fatalf("_delta_log changed: %v, was %v", got, logBefore)
	}
	if got := fmt.Sprint(queryAll(t, e, "SELECT id, s FROM t")); got != rows {
		t.Fatalf("after VACUUM: %s", got)
	}
	expectRows(t, e, "SELECT COUNT(*) FROM `t@v51`", "[[100]]")
	if _, err := queryRows(t, e, "SELECT id, s FROM `t@v50`"); err == nil {
		t.Fatal("version 50 read after its files were vacuumed")
	}
	// Other tables are refused.
	exec(t, e, "CREATE TABLE p (a INT)")
	if err := execErr(e, "VACUUM p", nil); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "not a Delta table") {
		t.Fatalf("plain table: %v", err)
	}
	for _, q := range []string{"VACUUM", "VACUUM t RETAIN HOURS", "VACUUM t RETAIN 1 DAYS", "VACUUM t FORCE"} {
		if err := execErr(e, q, nil); err == nil {
			t.Fatalf("%s: no error", q)
		}
	}
}

// OPTIMIZE applies the files' deletion vectors; VACUUM then deletes the
// old files and the deletion vector files.
func TestDeltaOptimizeDeletionVectors(t *testing.T) {
	e, dir := deltaEngine(t)
	root := filepath.Join(dir, "t")
	exec(t, e, "SET threads = 1")
	exec(t, e, "CREATE TABLE t (id BIGINT, s VARCHAR) USING delta")
	for k := 0; k < 3; k++ {
		exec(t, e, fmt.Sprintf("INSERT INTO t SELECT range + %d, 'v' || range FROM range(1000)", k*1000))
	}
	exec(t, e, "DELETE FROM t WHERE id % 7 = 3")
	exec(t, e, "DELETE FROM t WHERE id % 7 = 5")
	if r := exec(t, e, "UPDATE t SET s = 'updated' WHERE id = 13"); r.RowsAffected != 1 {
		t.Fatalf("updated %d", r.RowsAffected)
	}
	bins, _ := filepath.Glob(filepath.Join(root, "deletion_vector_*.bin"))
	if len(bins) < 2 {
		t.Fatalf("deletion vector files %v", bins)
	}
	rows := fmt.Sprint(queryAll(t, e, "SELECT id, s FROM t"))
	count := queryAll(t, e, "SELECT COUNT(*) FROM t")[0][0].(int64)
	if r := exec(t, e, "OPTIMIZE t"); r.RowsAffected != count {
		t.Fatalf("optimize rewrote %d rows, want %d", r.RowsAffected, count)
	}
	snap, err := delta.Open(root, -1)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Version != 7 || len(snap.Files) != 1 || snap.Files[0].DeletionVector != nil {
		for v := 0; v <= int(snap.Version); v++ {
			b, _ := os.ReadFile(filepath.Join(root, delta.LogDir, fmt.Sprintf("%020d.json", v)))
			t.Logf("%d: %.300s", v, b)
		}
		t.Fatalf("version %d, %d files", snap.Version, len(snap.Files))
	}
	if got := fmt.Sprint(queryAll(t, e, "SELECT id, s FROM t")); got != rows {
		t.Fatalf("after OPTIMIZE\n%s\nwant\n%s", got, rows)
	}
	if got := fmt.Sprint(queryAll(t, e, "SELECT id, s FROM `t@v6`")); got != rows {
		t.Fatal("version 6 reads differently")
	}
	// The compacted file takes deletes like any other.
	if r := exec(t, e, "DELETE FROM t WHERE id = 11"); r.RowsAffected != 1 {
		t.Fatalf("deleted %d", r.RowsAffected)
	}
	rows = fmt.Sprint(queryAll(t, e, "SELECT id, s FROM t"))
	logBefore := logNames(t, root)
	if r := exec(t, e, "VACUUM t RETAIN 0 HOURS FORCE"); r.RowsAffected != int64(4+len(bins)) {
		t.Fatalf("vacuum deleted %d files", r.RowsAffected)
	}
	if bins, _ := filepath.Glob(filepath.Join(root, "deletion_vector_*.bin")); len(bins) != 0 {
		t.Fatalf("deletion vector files left: %v", bins)
	}
	if n := len(dataFiles(t, root)); n != 1 {
		t.Fatalf("%d data files left", n)
	}
	if got := logNames(t, root); !slices.Equal(got, logBefore) {
		t.Fatalf("_delta_log changed: %v, was %v", got, logBefore)
	}
	if got := fmt.Sprint(queryAll(t, e, "SELECT id, s FROM t")); got != rows {
		t.Fatal("the table reads differently after VACUUM")
	}
	expectRows(t, e, "SELECT s FROM t WHERE id = 13", "[[updated]]")
}

// INSERTs of another engine while OPTIMIZE runs do not conflict with it;
// a DELETE prepared before an OPTIMIZE of its file and committed after it
// does.
func TestDeltaOptimizeConcurrent(t *testing.T) {
	dir := t.TempDir()
	e1, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e1.Close()
	e2, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	exec(t, e1, "CREATE TABLE c (w INT, i INT) USING delta")
	for i := 0; i < 30; i++ {
		exec(t, e1, fmt.Sprintf("INSERT INTO c VALUES (0, %d)", i))
	}
	const per = 30
	done := make(chan error, 1)
	go func() {
		for i := 0; i < per; i++ {
			s, err := e2.Prepare(fmt.Sprintf("INSERT INTO c VALUES (1, %d)", i))
			if err == nil {
				_, err = s.Exec(context.Background(), nil, nil)
			}
			if err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for k := 0; k < 3; k++ {
		exec(t, e1, "OPTIMIZE c")
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	expectRows(t, e1, "SELECT w, COUNT(*), COUNT(DISTINCT i) FROM c GROUP BY w ORDER BY w", fmt.Sprintf("[[0 30 30] [1 %d %d]]", per, per))
	root := filepath.Join(dir, "c")
	// A DELETE read before an OPTIMIZE, committed after it.
	exec(t, e1, "INSERT INTO c VALUES (2, 0)")
	exec(t, e1, "INSERT INTO c VALUES (2, 1)")
	snap, err := delta.Open(root, -1)
	if err != nil {
		t.Fatal(err)
	}
	exec(t, e1, "OPTIMIZE c")
	if v, _ := delta.Latest(root); v != snap.Version+1 {
		t.Fatalf("OPTIMIZE did not commit (latest %d, read %d)", v, snap.Version)
	}
	del := &delta.Commit{Removes: []delta.Remove{delta.RemoveOf(snap.Files[0])}, Operation: "DELETE", ReadVersion: snap.Version}
	if _, err := del.Write(root, delta.CommitOptions{}); !errors.Is(err, delta.ErrConflict) {
		t.Fatalf("DELETE after OPTIMIZE: %v", err)
	}
	expectRows(t, e1, "SELECT COUNT(*) FROM c", fmt.Sprintf("[[%d]]", 30+per+2))
}

// OPTIMIZE compacts the log after the newest checkpoint into one
// compacted file, which the table then reads in place of its commits.
func TestDeltaOptimizeCompactsLog(t *testing.T) {
	e, dir := deltaEngine(t)
	root := filepath.Join(dir, "t")
	exec(t, e, "CREATE TABLE t (id BIGINT, s VARCHAR) USING delta")
	for i := 1; i <= 13; i++ { // a checkpoint of version 10
		exec(t, e, fmt.Sprintf("INSERT INTO t VALUES (%d, 's%d')", i, i))
	}
	exec(t, e, "DELETE FROM t WHERE id = 12") // 14
	rows := fmt.Sprint(queryAll(t, e, "SELECT id, s FROM t ORDER BY id"))
	if r := exec(t, e, "OPTIMIZE t"); r.RowsAffected != 12 { // 15
		t.Fatalf("optimize rewrote %d rows", r.RowsAffected)
	}
	compacted := filepath.Join(root, delta.LogDir, fmt.Sprintf("%020d.%020d.compacted.json", 11, 15))
	if _, err := os.Stat(compacted); err != nil {
		t.Fatalf("no log compaction: %v (log: %v)", err, logNames(t, root))
	}
	// The commits it reconciles are not needed for the latest version.
	hidden := t.TempDir()
	for v := 11; v < 15; v++ {
		name := fmt.Sprintf("%020d.json", v)
		if err := os.Rename(filepath.Join(root, delta.LogDir, name), filepath.Join(hidden, name)); err != nil {
			t.Fatal(err)
		}
	}
	e2, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	if got := fmt.Sprint(queryAll(t, e2, "SELECT id, s FROM t ORDER BY id")); got != rows {
		t.Fatalf("from the checkpoint and the compaction: %s, want %s", got, rows)
	}
	for v := 11; v < 15; v++ {
		name := fmt.Sprintf("%020d.json", v)
		if err := os.Rename(filepath.Join(hidden, name), filepath.Join(root, delta.LogDir, name)); err != nil {
			t.Fatal(err)
		}
	}
	expectRows(t, e2, "SELECT count(*) FROM `t@v13`", "[[13]]")
}
