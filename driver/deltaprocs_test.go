//go:build unix

package driver

import (
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/delta"
)

const deltaChildEnv = "CARQUET_DELTA_CHILD"

// TestDeltaInsertChild is the child process of TestDeltaTwoProcesses: it
// inserts rows (w, i) for i = 0..n-1 into the Delta table t, one INSERT
// (one commit) each.
func TestDeltaInsertChild(t *testing.T) {
	spec := os.Getenv(deltaChildEnv)
	if spec == "" {
		t.Skip("runs as a child process only")
	}
	parts := strings.Split(spec, ",") // dir,w,n
	w, _ := strconv.Atoi(parts[1])
	n, _ := strconv.Atoi(parts[2])
	db, err := sql.Open("carquet", parts[0])
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for i := range n {
		if _, err := db.Exec("INSERT INTO t VALUES (?, ?)", w, i); err != nil {
			t.Fatalf("insert %d of writer %d: %v", i, w, err)
		}
	}
}

// TestDeltaTwoProcesses: two processes insert into one Delta table at
// once, a commit per row; the commits race for each version (put if
// absent) and the losers retry: every row is there once, the versions
// run without a gap, and every version opens. CARQUET_DELTA_COMMITS sets
// the commits per process (default 60; the issue asks for 1,000):
//
//	CARQUET_DELTA_COMMITS=1000 go test -run TestDeltaTwoProcesses -timeout 30m ./driver/
func TestDeltaTwoProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	n := 60
	if k, err := strconv.Atoi(os.Getenv("CARQUET_DELTA_COMMITS")); err == nil && k > 0 {
		n = k
	}
	dir := t.TempDir()
	db := openDSN(t, dir)
	mustExec(t, db, "CREATE TABLE t (w INT, i INT) USING delta")
	var cmds []*exec.Cmd
	for w := range 2 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestDeltaInsertChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s,%d,%d", deltaChildEnv, dir, w, n))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("a writer failed: %v", err)
		}
	}
	var rows, distinct, maxI int64
	if err := db.QueryRow("SELECT count(*), count(DISTINCT w * 1000000 + i), max(i) FROM t").Scan(&rows, &distinct, &maxI); err != nil {
		t.Fatal(err)
	}
	if rows != int64(2*n) || distinct != int64(2*n) || maxI != int64(n-1) {
		t.Errorf("%d rows, %d distinct, max i %d; want %d rows", rows, distinct, maxI, 2*n)
	}
	ents, err := os.ReadDir(filepath.Join(dir, "t", delta.LogDir))
	if err != nil {
		t.Fatal(err)
	}
	commits := map[int64]bool{}
	for _, e := range ents {
		if v, err := strconv.ParseInt(strings.TrimSuffix(e.Name(), ".json"), 10, 64); err == nil && strings.HasSuffix(e.Name(), ".json") {
			commits[v] = true
		}
	}
	for v := int64(0); v <= int64(2*n); v++ {
		if !commits[v] {
			t.Fatalf("version %d is missing from the log (%d commits)", v, len(commits))
		}
	}
	if len(commits) != 2*n+1 {
		t.Errorf("%d commits, want %d", len(commits), 2*n+1)
	}
	for _, v := range []int64{1, int64(n), int64(2 * n)} {
		var k int64
		if err := db.QueryRow(fmt.Sprintf("SELECT count(*) FROM `t@v%d`", v)).Scan(&k); err != nil || k != v {
			t.Errorf("version %d: %d rows, %v", v, k, err)
		}
	}
}
