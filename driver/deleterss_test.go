//go:build linux

package driver

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

const deleteRSSEnv = "CARQUET_DELETE_RSS_DIR"

// TestDeleteRSSChild runs two DELETEs of 0.1% of the table its parent
// built and prints the peak RSS after each: first of rows in 10 of its
// 100 row groups (the others copied as stored), then of rows in every
// row group (each read and written again).
func TestDeleteRSSChild(t *testing.T) {
	dir := os.Getenv(deleteRSSEnv)
	if dir == "" {
		t.Skip("runs as a child process only")
	}
	db := openDSN(t, dir)
	for _, d := range []struct{ what, ids string }{
		{"in 10 row groups", "(range % 10) * 1000000 + (range // 10) * 7"},
		{"in every row group", "range * 1000 + 7"},
	} {
		start := time.Now()
		n, _ := mustExec(t, db, "DELETE FROM t WHERE id IN (SELECT "+d.ids+" FROM range(10000))").RowsAffected()
		took := time.Since(start).Round(time.Millisecond)
		status, err := os.ReadFile("/proc/self/status")
		if err != nil {
			t.Fatal(err)
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		for _, line := range strings.Split(string(status), "\n") {
			if strings.HasPrefix(line, "VmHWM:") {
				fmt.Printf("deleted %d rows %s in %v; peak RSS %s (Go heap from the OS %d MB, Go total %d MB)\n", n, d.what, took,
					strings.Join(strings.Fields(line)[1:], " "), ms.HeapSys>>20, ms.Sys>>20)
			}
		}
	}
}

// TestDeleteRSS: DELETE of 0.1% of a 10M-row table (ids 0..10M-1 and 200
// bytes of text a row, bloom filter on id) runs in bounded memory: the
// peak RSS of the process that runs it stays under 300 MB. It takes
// minutes and ~600 MB of disk, so it runs only when asked:
//
//	CARQUET_DELETE_RSS=10000000 go test -run TestDeleteRSS$ -v -timeout 30m ./driver/
//
// CARQUET_DELETE_RSS_PAYLOAD=k adds a column of k distinct MD5s (32 hex
// digits each, which snappy hardly compresses) a row: with k = 5 the
// 10M-row table takes about 2 GB.
func TestDeleteRSS(t *testing.T) {
	rows, _ := strconv.Atoi(os.Getenv("CARQUET_DELETE_RSS"))
	if rows <= 0 {
		t.Skip("set CARQUET_DELETE_RSS to the table's rows")
	}
	payload, _ := strconv.Atoi(os.Getenv("CARQUET_DELETE_RSS_PAYLOAD"))
	dir := t.TempDir()
	db := openDSN(t, dir)
	cols, values := "id BIGINT, pad VARCHAR", "range, repeat(md5(CAST(range AS VARCHAR)), 6)"
	if payload > 0 {
		md5s := make([]string, payload)
		for i := range md5s {
			md5s[i] = fmt.Sprintf("md5(CAST(range * %d + %d AS VARCHAR))", payload, i)
		}
		cols += ", payload VARCHAR"
		values += ", " + strings.Join(md5s, " || ")
	}
	mustExec(t, db, "CREATE TABLE t ("+cols+") WITH (row_group_rows = 100000, bloom_filter = 'id')")
	for lo := 0; lo < rows; lo += 1_000_000 {
		mustExec(t, db, "INSERT INTO t SELECT "+values+" FROM range(?, ?)", lo, min(lo+1_000_000, rows))
	}
	db.Close()
	st, err := os.Stat(filepath.Join(dir, "t.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestDeleteRSSChild$", "-test.v")
	cmd.Env = append(os.Environ(), deleteRSSEnv+"="+dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	results := 0
	for _, line := range strings.Split(out.String(), "\n") {
		if !strings.HasPrefix(line, "deleted") {
			continue
		}
		results++
		t.Logf("table of %d rows, %d MB: %s", rows, st.Size()>>20, line)
		var kb int64
		if _, after, ok := strings.Cut(line, "peak RSS "); ok {
			kb, _ = strconv.ParseInt(strings.Fields(after)[0], 10, 64)
		}
		if kb <= 0 || kb > 300<<10 {
			t.Errorf("peak RSS %d kB, want under 300 MB", kb)
		}
	}
	if results != 2 {
		t.Fatalf("the child printed %d results:\n%s", results, out.String())
	}
}
