//go:build unix

package driver

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/carquet-go/carquet/parquet/journal"
)

// TestInsertOutOfSpace runs INSERTs that run out of room part way: the
// process's file size limit (RLIMIT_FSIZE, which fails writes past it
// with EFBIG as a full disk fails them with ENOSPC) is set a little above
// the table file's size, for many margins. Each INSERT fails with an
// error that says so, and leaves the file byte for byte as it was (the
// folder table: no new file, no temporary one); with room again, INSERTs
// work and every file validates.
func TestInsertOutOfSpace(t *testing.T) {
	if os.Getenv("CARQUET_FSIZE_CHILD") == "" {
		// The limit holds for every file the process writes, go test's own
		// log (-test.testlogfile) too, which the package's other tests
		// grow past it: run this test alone in a child process, which
		// writes no such log.
		cmd := exec.Command(os.Args[0], "-test.run=^TestInsertOutOfSpace$", "-test.v")
		cmd.Env = append(os.Environ(), "CARQUET_FSIZE_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte("--- PASS: TestInsertOutOfSpace")) {
			t.Fatalf("the test in a child process: %v\n%s", err, out)
		}
		t.Logf("child process:\n%s", out)
		return
	}
	dir := t.TempDir()
	createCrashTables(t, dir)
	db := openDSN(t, dir+"?row_group_rows=20")
	for _, table := range []string{"t", "f"} {
		mustExec(t, db, insertText(table, 0))
	}
	var old unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_FSIZE, &old); err != nil {
		t.Fatal(err)
	}
	setLimit := func(n uint64) {
		t.Helper()
		lim := old
		lim.Cur = min(n, old.Max)
		if err := unix.Setrlimit(unix.RLIMIT_FSIZE, &lim); err != nil {
			t.Fatal(err)
		}
	}
	defer setLimit(old.Cur)

	path := filepath.Join(dir, "t.parquet")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	folderBefore := dirNames(t, filepath.Join(dir, "f"))
	// Statement 1 (38 rows: two row groups) is tried with more and more
	// room until it fits.
	failed, fitted := 0, map[string]uint64{}
	for _, table := range []string{"t", "f"} {
		margin := uint64(0)
		for step := 0; ; step++ {
			limit := margin
			if table == "t" {
				limit += uint64(len(before))
			}
			setLimit(limit)
			_, err := db.Exec(insertText(table, 1))
			setLimit(old.Cur)
			if err == nil {
				fitted[table] = margin
				break
			}
			undone := map[string]string{"t": "the append was rolled back", "f": "nothing was written"}[table]
			if !errors.Is(err, syscall.EFBIG) || !strings.Contains(err.Error(), "file too large") ||
				!strings.Contains(err.Error(), undone) {
				t.Fatalf("table %s, %d bytes of room: error %v does not say the write did not fit and %s", table, margin, err, undone)
			}
			failed++
			if step == 30 {
				t.Logf("table %s, %d bytes of room: %v", table, margin, err)
			}
			if table == "t" {
				now, err := os.ReadFile(path)
				if err != nil || !bytes.Equal(now, before) {
					t.Fatalf("%d bytes of room: the file changed (%d bytes, was %d): %v", margin, len(now), len(before), err)
				}
				if journal.Active(path) {
					t.Fatalf("%d bytes of room: a journal is left", margin)
				}
			} else if now := dirNames(t, filepath.Join(dir, "f")); !slices.Equal(now, folderBefore) {
				t.Fatalf("%d bytes of room: the folder table holds %v, held %v", margin, now, folderBefore)
			}
			switch {
			case step > 400:
				t.Fatalf("table %s: the INSERT does not fit in %d bytes", table, margin)
			case margin < 40:
				margin++ // the journal, the first page header
			default:
				margin += 37
			}
		}
		mustExec(t, db, insertText(table, 2))
		if k := wholeStatements(t, dir, table); k != 3 {
			t.Fatalf("table %s holds %d statements, want 3", table, k)
		}
	}
	files, _ := tableFiles(t, dir)
	validFiles(t, files...)
	t.Logf("%d INSERTs ran out of room, each without a trace; statement 1 fitted in %d more bytes of the file table, a new file of %d bytes in the folder table",
		failed, fitted["t"], fitted["f"])
}

// dirNames lists a folder.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}
