package deltalake

import (
	"crypto/sha256"
	"database/sql"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/carquet-go/carquet/delta"
)

// deleteChildEnv names the database the DELETE child runs in.
const deleteChildEnv = "CARQUET_DELTALAKE_DELETE_CHILD"

// onePercent is the DELETE of TestDeleteOnePercent: every hundredth row.
const onePercent = "DELETE FROM big WHERE id % 100 = 7"

// TestDeleteChild runs the DELETE of TestDeleteOnePercent in a process of
// its own, so that the parent reads the statement's peak memory from the
// child's resource usage.
func TestDeleteChild(t *testing.T) {
	dir := os.Getenv(deleteChildEnv)
	if dir == "" {
		t.Skip("runs as a child process only")
	}
	db, err := sql.Open("carquet", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.Exec(onePercent)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := res.RowsAffected()
	fmt.Printf("deleted=%d\n", n)
}

// deleteRows is $CARQUET_DELTA_ROWS, else 400,000 (the issue asks for
// 10,000,000: set it for the full run).
func deleteRows() int64 {
	if k, err := strconv.ParseInt(os.Getenv("CARQUET_DELTA_ROWS"), 10, 64); err == nil && k > 0 {
		return k
	}
	return 400_000
}

// TestDeleteOnePercent deletes 1% of the rows of a Delta table of four
// data files: the commit adds no data file (only the same files again
// with deletion vectors), the data files keep their bytes, every file
// gets a vector of its deleted rows, the table reads the rows left (and
// DuckDB, applying the vectors, the same), and the version before reads
// every row. The DELETE runs in a child process; the test logs its wall
// time and peak RSS. CARQUET_DELTA_ROWS sets the rows (default 400,000):
//
//	cd sqltests && CARQUET_DELTA_ROWS=10000000 go test -run TestDeleteOnePercent -timeout 30m -v ./deltalake/
func TestDeleteOnePercent(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a process")
	}
	n := deleteRows() / 400 * 400 // four files, each a multiple of 100 rows
	dir := t.TempDir()
	root := filepath.Join(dir, "big")
	db, err := sql.Open("carquet", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	q := n / 4
	load := []string{fmt.Sprintf("CREATE TABLE big USING delta AS SELECT i AS id, i %% 1000 AS g, CAST(i AS DOUBLE) / 8 AS x, 'r' || CAST(i AS VARCHAR) AS s FROM range(%d) t(i)", q)}
	for k := int64(1); k < 4; k++ {
		load = append(load, fmt.Sprintf("INSERT INTO big SELECT i AS id, i %% 1000 AS g, CAST(i AS DOUBLE) / 8 AS x, 'r' || CAST(i AS VARCHAR) AS s FROM range(%d, %d) t(i)", k*q, (k+1)*q))
	}
	start := time.Now()
	for _, l := range load {
		if _, err := db.Exec(l); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
	}
	t.Logf("%d rows written in 4 data files: %v", n, time.Since(start).Round(time.Millisecond))
	before, err := delta.Open(root, -1)
	if err != nil {
		t.Fatal(err)
	}
	sums := map[string][32]byte{}
	for _, f := range before.Files {
		sums[f.URI] = fileSum(t, f.Path)
	}
	parquetBefore := parquetNames(t, root)

	cmd := exec.Command(os.Args[0], "-test.run=^TestDeleteChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), deleteChildEnv+"="+dir)
	start = time.Now()
	out, err := cmd.CombinedOutput()
	elapsed := time.Since(start)
	if err != nil {
		t.Fatalf("the DELETE failed: %v\n%s", err, out)
	}
	if want := fmt.Sprintf("deleted=%d", n/100); !strings.Contains(string(out), want) {
		t.Fatalf("the DELETE reported %q, want %s", out, want)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	t.Logf("DELETE of %d rows of %d: %v wall in its process, peak RSS %.1f MiB (process start and table open included)",
		n/100, n, elapsed.Round(time.Millisecond), float64(ru.Maxrss)/1024)

	after, err := delta.Open(root, -1)
	if err != nil {
		t.Fatal(err)
	}
	if after.Version != before.Version+1 {
		t.Fatalf("version %d after the DELETE of version %d", after.Version, before.Version)
	}
	commit, err := os.ReadFile(filepath.Join(root, delta.LogDir, fmt.Sprintf("%020d.json", after.Version)))
	if err != nil {
		t.Fatal(err)
	}
	if a, r := strings.Count(string(commit), `{"add":`), strings.Count(string(commit), `{"remove":`); a != 4 || r != 4 {
		t.Errorf("the DELETE commit has %d adds and %d removes, want the 4 files removed and added again", a, r)
	}
	var deleted int64
	for _, f := range after.Files {
		sum, ok := sums[f.URI]
		switch {
		case !ok:
			t.Errorf("the DELETE added a data file: %s", f.URI)
		case f.DeletionVector == nil:
			t.Errorf("%s has no deletion vector", f.URI)
		default:
			deleted += f.DeletionVector.Cardinality
			if fileSum(t, f.Path) != sum {
				t.Errorf("%s changed", f.URI)
			}
		}
	}
	if len(after.Files) != 4 || deleted != n/100 {
		t.Errorf("%d files, %d rows in their deletion vectors; want 4 and %d", len(after.Files), deleted, n/100)
	}
	if got := parquetNames(t, root); got != parquetBefore {
		t.Errorf("Parquet files before the DELETE: %s; after: %s", parquetBefore, got)
	}
	const aggs = "count(*), count(DISTINCT id), sum(id), sum(g), sum(x), max(s)"
	var rows, sumID int64
	if err := db.QueryRow("SELECT count(*), sum(id) FROM big").Scan(&rows, &sumID); err != nil {
		t.Fatal(err)
	}
	// The ids left: all but i ≡ 7 (mod 100).
	wantSum := n*(n-1)/2 - (n/100)*7 - 100*(n/100)*(n/100-1)/2
	if rows != n-n/100 || sumID != wantSum {
		t.Errorf("after the DELETE: %d rows, sum(id) %d; want %d and %d", rows, sumID, n-n/100, wantSum)
	}
	// Time travel: the version before reads every row.
	start = time.Now()
	if err := db.QueryRow(fmt.Sprintf("SELECT count(*), sum(id) FROM `big@v%d`", before.Version)).Scan(&rows, &sumID); err != nil {
		t.Fatal(err)
	}
	if rows != n || sumID != n*(n-1)/2 {
		t.Errorf("version %d: %d rows, sum(id) %d; want %d and %d", before.Version, rows, sumID, n, n*(n-1)/2)
	}
	t.Logf("version %d (before the DELETE) read back: %v", before.Version, time.Since(start).Round(time.Millisecond))
	duckdbAgrees(t, root, db, "big", aggs)
}

func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	return [32]byte(h.Sum(nil))
}

// parquetNames lists the Parquet files of a table folder (not its log).
func parquetNames(t *testing.T, root string) string {
	t.Helper()
	var out []string
	for _, name := range localNames(t, root) {
		if strings.HasSuffix(name, ".parquet") {
			out = append(out, name)
		}
	}
	return strings.Join(out, " ")
}
