package driver

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAutoOptimizeFile: with auto_optimize = 3, appends that leave a
// one-file table with more than 3 small row groups (here: appends made
// while a reader holds the file, which keep them from merging the last
// row group) compact it into one; the rows stay, in order. Without the
// option the row groups stay.
func TestAutoOptimizeFile(t *testing.T) {
	dir := t.TempDir()
	db := openDSN(t, dir)
	mustExec(t, db, "CREATE TABLE t (i INT) WITH (row_group_rows = 100, auto_optimize = 3)")
	mustExec(t, db, "CREATE TABLE u (i INT) WITH (row_group_rows = 100)")
	for _, name := range []string{"t", "u"} {
		mustExec(t, db, "INSERT INTO "+name+" VALUES (0)")
		held, err := db.Query("SELECT i FROM " + name)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name+".parquet")
		most := 0
		for i := 1; i <= 8; i++ {
			mustExec(t, db, "INSERT INTO "+name+" VALUES (?)", i)
			most = max(most, numRowGroups(t, path))
		}
		held.Close()
		n := numRowGroups(t, path)
		switch name {
		case "t":
			if most > 4 || n > 4 {
				t.Errorf("t (auto_optimize = 3): %d row groups at most, %d at the end; want at most 4", most, n)
			}
		case "u":
			if n < 5 {
				t.Errorf("u (no auto_optimize): %d row groups; the test expects appends beside a reader to leave them", n)
			}
		}
		if got := storedOrder(t, db, name); len(got) != 9 {
			t.Errorf("%s: rows %v", name, got)
		} else {
			for i, v := range got {
				if v != i {
					t.Errorf("%s: rows %v, want 0..8 in order", name, got)
					break
				}
			}
		}
	}
}

// TestAutoOptimizeFolder: a folder table whose files carry auto_optimize
// = 2 is compacted when an INSERT leaves more than 2 small files.
func TestAutoOptimizeFolder(t *testing.T) {
	dir := t.TempDir()
	db := openDSN(t, dir)
	mustExec(t, db, "CREATE TABLE f0 (i INT) WITH (auto_optimize = 2)")
	mustExec(t, db, "INSERT INTO f0 VALUES (0)")
	if err := os.Mkdir(filepath.Join(dir, "t"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "f0.parquet"), filepath.Join(dir, "t", "f0.parquet")); err != nil {
		t.Fatal(err)
	}
	most := 0
	for i := 1; i <= 6; i++ {
		mustExec(t, db, "INSERT INTO t VALUES (?)", i)
		most = max(most, len(parquetNames(t, filepath.Join(dir, "t"))))
	}
	// An Appender's Close compacts as an INSERT does.
	for i := 7; i <= 9; i++ {
		err := withAppender(t, db, "t", func(a *Appender) error {
			if err := a.AppendRow(int64(i)); err != nil {
				return err
			}
			return a.Close()
		})
		if err != nil {
			t.Fatal(err)
		}
		most = max(most, len(parquetNames(t, filepath.Join(dir, "t"))))
	}
	if most > 3 {
		t.Errorf("%d files at most; want at most 3 (compacted past 2 small ones)", most)
	}
	got := storedOrder(t, db, "t")
	if len(got) != 10 {
		t.Fatalf("rows %v", got)
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("rows %v, want 0..9 in order", got)
		}
	}
}

// storedOrder is the column i of the table, in the order it is stored.
func storedOrder(t *testing.T, db *sql.DB, name string) []int {
	t.Helper()
	return queryInts(t, db, "SELECT i FROM "+name)
}

// parquetNames lists the Parquet files a folder table reads.
func parquetNames(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, name := range dirNames(t, dir) {
		if strings.HasSuffix(name, ".parquet") && !strings.HasPrefix(name, ".") {
			out = append(out, name)
		}
	}
	return out
}

// TestAutoOptimizeOption: the option takes a count; anything else is an
// error naming it.
func TestAutoOptimizeOption(t *testing.T) {
	db := openDSN(t, t.TempDir())
	for _, bad := range []string{"'-1'", "'many'", "1.5"} {
		_, err := db.Exec("CREATE TABLE x (i INT) WITH (auto_optimize = " + bad + ")")
		if err == nil || !strings.Contains(err.Error(), "auto_optimize") {
			t.Errorf("auto_optimize = %s: %v", bad, err)
		}
	}
	mustExec(t, db, "CREATE TABLE x (i INT) WITH (auto_optimize = 0)")
}
