package sqlplan

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// tempFiles lists the files of the engine's temporary folder.
func tempFiles(t *testing.T, e *Engine) []string {
	t.Helper()
	dir, err := e.tempDir()
	if err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range ents {
		out = append(out, d.Name())
	}
	return out
}

// A transaction's temporary tables leave nothing in the temporary folder
// but the tables COMMIT published: no staged file after ROLLBACK, no
// dropped file after COMMIT.
func TestTxTempTableFiles(t *testing.T) {
	e := newEngine(t)
	tx := e.Begin(false)
	for _, q := range []string{"CREATE TEMP TABLE a (x INTEGER)", "INSERT INTO a VALUES (1)", "CREATE TEMP TABLE b AS SELECT 2 AS y"} {
		if err := execErr(e, q, tx); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if got := tempFiles(t, e); len(got) != 2 || !strings.HasPrefix(got[0], ".") || !strings.HasPrefix(got[1], ".") {
		t.Fatalf("the temporary folder holds %v before ROLLBACK, want two staged files", got)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if got := tempFiles(t, e); len(got) != 0 {
		t.Fatalf("the temporary folder holds %v after ROLLBACK", got)
	}

	exec(t, e, "CREATE TEMP TABLE a (x INTEGER)")
	tx = e.Begin(false)
	for _, q := range []string{"DROP TABLE a", "CREATE TEMP TABLE b AS SELECT 2 AS y"} {
		if err := execErr(e, q, tx); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(tempFiles(t, e), " "); got != "b.parquet" {
		t.Fatalf("the temporary folder holds %q after COMMIT, want b.parquet", got)
	}
	if got := queryAll(t, e, "SELECT y FROM b"); len(got) != 1 || fmt.Sprint(got[0][0]) != "2" {
		t.Fatalf("b: %v", got)
	}
}
