package driver

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The tests of this file attack the database folder the way a hostile
// statement would: every path form that could reach outside the DSN's
// folder, and DROP of what is not a table. Each statement must fail and
// leave every file, inside the folder and outside it, as it was.

// safetyLayout makes parent/db (the database: table t, a folder table
// of Parquet files, a folder of documents with one Parquet file in it, a
// text file named .parquet, links out) and parent/outside (a Parquet
// file, a text file, a folder of text files), and returns parent and db.
func safetyLayout(t *testing.T) (parent, db string) {
	t.Helper()
	parent = t.TempDir()
	db = filepath.Join(parent, "db")
	out := filepath.Join(parent, "outside")
	for _, d := range []string{db, out, filepath.Join(out, "docs")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Parquet files made by the driver in a scratch folder, then moved.
	scratch := filepath.Join(parent, "scratch")
	os.Mkdir(scratch, 0o755)
	s, err := sql.Open("carquet", scratch)
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, s, "CREATE TABLE t AS SELECT range AS a FROM range(10)")
	s.Close()
	pq, err := os.ReadFile(filepath.Join(scratch, "t.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(scratch)
	write := func(p string, b []byte) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(db, "t.parquet"), pq)
	write(filepath.Join(db, "parts", "p1.parquet"), pq)
	write(filepath.Join(db, "mixed", "a.parquet"), pq)
	write(filepath.Join(db, "mixed", "notes.txt"), []byte("keep me"))
	write(filepath.Join(db, "notes.parquet"), []byte("password=hunter2\nPAR9"))
	write(filepath.Join(out, "victim.parquet"), pq)
	write(filepath.Join(out, "secret.txt"), []byte("top secret hunter2"))
	write(filepath.Join(out, "docs", "a.txt"), []byte("a"))
	write(filepath.Join(out, "docs", "b.parquet"), pq)
	// Links from the database out.
	links := map[string]string{
		"outlink.parquet":  filepath.Join(out, "victim.parquet"),
		"linkdir":          out,
		"dangling.parquet": filepath.Join(out, "new.parquet"),
		"secretlink":       filepath.Join(out, "secret.txt"),
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(db, name)); err != nil {
			t.Fatal(err)
		}
	}
	// A folder table with a link to a file outside, and a Delta table
	// whose log adds a file outside.
	write(filepath.Join(db, "hive", "k=1", "x.parquet"), pq)
	if err := os.Symlink(filepath.Join(out, "victim.parquet"), filepath.Join(db, "hive", "k=2.parquet")); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(db, "dt", "_delta_log", "00000000000000000000.json"), []byte(deltaLogTo(filepath.Join(out, "victim.parquet"), len(pq))))
	write(filepath.Join(db, "dt2", "_delta_log", "00000000000000000000.json"), []byte(deltaLogTo("../../outside/victim.parquet", len(pq))))
	return parent, db
}

// deltaLogTo is a Delta commit of one add action for path.
func deltaLogTo(path string, size int) string {
	schema := `{\"type\":\"struct\",\"fields\":[{\"name\":\"a\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}}]}`
	return `{"protocol":{"minReaderVersion":1,"minWriterVersion":2}}` + "\n" +
		`{"metaData":{"id":"x","format":{"provider":"parquet","options":{}},"schemaString":"` + schema + `","partitionColumns":[],"configuration":{}}}` + "\n" +
		fmt.Sprintf(`{"add":{"path":%q,"partitionValues":{},"size":%d,"modificationTime":0,"dataChange":true}}`, path, size) + "\n"
}

// treeState records every file and folder below dir: kind, mode, size
// and a hash of the content (link targets for links).
func treeState(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		st, err := os.Lstat(p)
		if err != nil {
			return err
		}
		desc := fmt.Sprintf("%v %d", st.Mode(), st.Size())
		switch {
		case st.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			desc += " -> " + target
		case st.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			desc += " " + hex.EncodeToString(sum[:8])
		}
		out[p] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameTree(t *testing.T, before, after map[string]string, what string) {
	t.Helper()
	for p, d := range before {
		if a, ok := after[p]; !ok {
			t.Errorf("%s: %s was removed", what, p)
		} else if a != d {
			t.Errorf("%s: %s changed: %s -> %s", what, p, d, a)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s: %s was created", what, p)
		}
	}
}

// run runs a statement as a query (SELECT, DESCRIBE) or an exec and
// returns its error, reading every row of a query.
func runStmt(db *sql.DB, q string) error {
	up := strings.ToUpper(strings.TrimSpace(q))
	if strings.HasPrefix(up, "SELECT") || strings.HasPrefix(up, "DESCRIBE") || strings.HasPrefix(up, "SHOW") {
		rows, err := db.Query(q)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
		}
		return rows.Err()
	}
	_, err := db.Exec(q)
	return err
}

func hostileStatements(parent string) (writes, reads []string) {
	out := filepath.Join(parent, "outside")
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	writes = []string{
		"DROP TABLE " + q(filepath.Join(out, "secret.txt")),
		"DROP TABLE '../outside/secret.txt'",
		"DROP TABLE IF EXISTS '../outside/secret.txt'",
		"DROP TABLE IF EXISTS '../outside'",
		"DROP TABLE IF EXISTS '../outside/docs'",
		"DROP TABLE " + q(out),
		"DROP TABLE '.'",
		"DROP TABLE IF EXISTS '.'",
		"DROP TABLE '..'",
		"DROP TABLE IF EXISTS '..'",
		"DROP TABLE IF EXISTS './'",
		"DROP TABLE " + q(parent),
		"DROP TABLE '../outside/victim.parquet'",
		"DROP TABLE " + q(filepath.Join(out, "victim.parquet")),
		"DROP TABLE outlink",
		"DROP TABLE 'outlink.parquet'",
		"DROP TABLE linkdir",
		"DROP TABLE 'linkdir/victim.parquet'",
		"DROP TABLE secretlink",
		"DROP TABLE mixed",           // a folder holding a text file
		"DROP TABLE IF EXISTS mixed", // the same
		"DROP TABLE 'notes.parquet'", // not a Parquet file
		"DROP TABLE hive",            // a folder holding a link out
		"DROP TABLE dt",              // a Delta table
		"DROP TABLE 'sub/../../outside/victim.parquet'",
		"DROP TABLE 'a\x00b.parquet'",
		"COPY t TO '../x.parquet'",
		"COPY t TO '../outside/new.parquet'",
		"COPY t TO " + q(filepath.Join(out, "new.parquet")),
		"COPY t TO 'linkdir/new.parquet'",
		"COPY t TO 'dangling.parquet'",
		"COPY (SELECT 1 AS a) TO '../outside/victim.parquet'",
		"CREATE TABLE " + q(filepath.Join(out, "new.parquet")) + " (a INTEGER)",
		"CREATE TABLE '../outside/new.parquet' (a INTEGER)",
		"CREATE TABLE '../outside/new.parquet' AS SELECT 1 AS a",
		"CREATE OR REPLACE TABLE '../outside/victim.parquet' AS SELECT 1 AS a",
		"CREATE OR REPLACE TABLE outlink AS SELECT 1 AS a",
		"CREATE TABLE dangling (a INTEGER)",
		"CREATE TABLE 'dangling.parquet' (a INTEGER)",
		"CREATE TABLE 'linkdir/new.parquet' (a INTEGER)",
		"CREATE TABLE 'new\x00.parquet' (a INTEGER)",
		"DELETE FROM '../outside/victim.parquet' WHERE true",
		"DELETE FROM " + q(filepath.Join(out, "victim.parquet")),
		"DELETE FROM outlink",
		"DELETE FROM 'linkdir/victim.parquet'",
		"UPDATE '../outside/victim.parquet' SET a = 0",
		"UPDATE outlink SET a = 0",
		"TRUNCATE '../outside/victim.parquet'",
		"TRUNCATE TABLE outlink",
		"INSERT INTO '../outside/victim.parquet' VALUES (1)",
		"INSERT INTO outlink VALUES (1)",
		"INSERT INTO 'linkdir/victim.parquet' VALUES (1)",
		"INSERT INTO " + q(filepath.Join(out, "victim.parquet")) + " VALUES (1)",
		"ALTER TABLE '../outside/victim.parquet' ADD COLUMN z INTEGER",
		"ALTER TABLE outlink ADD COLUMN z INTEGER",
		"ALTER TABLE t RENAME TO '../outside/moved'",
	}
	reads = []string{
		"SELECT * FROM '../outside/victim.parquet'",
		"SELECT * FROM " + q(filepath.Join(out, "victim.parquet")),
		"SELECT * FROM read_parquet('../outside/victim.parquet')",
		"SELECT * FROM read_parquet(" + q(filepath.Join(out, "victim.parquet")) + ")",
		"SELECT * FROM parquet_scan('../outside/victim.parquet')",
		"SELECT * FROM '../outside/*.parquet'",
		"SELECT * FROM '../*/victim.parquet'",
		"SELECT * FROM '../outside/docs'",
		"SELECT * FROM " + q(filepath.Join(out, "docs", "*.parquet")),
		"SELECT * FROM 'linkdir/victim.parquet'",
		"SELECT * FROM 'linkdir/*.parquet'",
		"SELECT * FROM '*/victim.parquet'",
		"SELECT * FROM 'sub/../../outside/victim.parquet'",
		"SELECT * FROM outlink",
		"SELECT * FROM 'outlink.parquet'",
		"SELECT * FROM hive",
		"SELECT * FROM dt",
		"SELECT * FROM dt2",
		"SELECT * FROM '../outside/secret.txt'",
		"SELECT * FROM secretlink",
		"SELECT * FROM 'a\x00b.parquet'",
		"DESCRIBE '../outside/victim.parquet'",
		"INSERT INTO t SELECT a FROM '../outside/victim.parquet'",
		"CREATE TABLE copied AS SELECT * FROM '../outside/victim.parquet'",
	}
	return writes, reads
}

func TestHostilePathsRefused(t *testing.T) {
	for _, dsn := range []string{"abs", "rel", "external_access=read"} {
		t.Run(dsn, func(t *testing.T) {
			parent, dbDir := safetyLayout(t)
			target := dbDir
			switch dsn {
			case "rel":
				wd, _ := os.Getwd()
				rel, err := filepath.Rel(wd, dbDir)
				if err != nil {
					t.Skip("no relative path to the temporary folder")
				}
				target = rel
			case "external_access=read":
				target += "?external_access=read"
			}
			db, err := sql.Open("carquet", target)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			before := treeState(t, parent)
			writes, reads := hostileStatements(parent)
			stmts := writes
			if dsn != "external_access=read" {
				stmts = append(stmts, reads...)
			}
			for _, q := range stmts {
				err := runStmt(db, q)
				if os.Getenv("SHOW_ERRS") != "" {
					t.Logf("%q: %v", q, err)
				}
				if err == nil {
					t.Errorf("%q: ran, want refused", q)
				} else if strings.Contains(err.Error(), "hunter2") {
					t.Errorf("%q: the error shows a file's bytes: %v", q, err)
				}
			}
			sameTree(t, before, treeState(t, parent), "after the hostile statements")
			// The database still works, and its table is whole.
			var n int
			if err := db.QueryRow("SELECT count(*) FROM t").Scan(&n); err != nil || n != 10 {
				t.Errorf("count(*) of t: %d, %v; want 10", n, err)
			}
		})
	}
}

// With external_access=read, reads outside the folder work; writes there
// are still refused (TestHostilePathsRefused).
func TestExternalRead(t *testing.T) {
	parent, dbDir := safetyLayout(t)
	db, err := sql.Open("carquet", dbDir+"?external_access=read")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		"SELECT count(*) FROM '../outside/victim.parquet'",
		"SELECT count(*) FROM " + "'" + filepath.Join(parent, "outside", "victim.parquet") + "'",
		"SELECT count(*) FROM outlink",
		"SELECT count(*) FROM 'linkdir/*.parquet'",
	} {
		var n int
		if err := db.QueryRow(q).Scan(&n); err != nil || n != 10 {
			t.Errorf("%s: %d, %v; want 10", q, n, err)
		}
	}
}

// Reading a file that is not Parquet names the file but shows none of
// its bytes, nor its size.
func TestNotParquetErrorHidesBytes(t *testing.T) {
	_, dbDir := safetyLayout(t)
	db, err := sql.Open("carquet", dbDir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = runStmt(db, "SELECT * FROM 'notes.parquet'")
	if err == nil {
		t.Fatal("a text file read as Parquet")
	}
	msg := err.Error()
	for _, leak := range []string{"hunter2", "PAR9", "AR9", "21 bytes", " 21"} {
		if strings.Contains(msg, leak) {
			t.Errorf("the error shows %q of the file: %s", leak, msg)
		}
	}
	if !strings.Contains(msg, "notes.parquet") {
		t.Errorf("the error does not name the file: %s", msg)
	}
}

// What is inside the folder stays usable: quoted paths, globs and
// sub-folders below it, and DROP of real tables.
func TestPathsInsideRoot(t *testing.T) {
	_, dbDir := safetyLayout(t)
	db, err := sql.Open("carquet", dbDir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		"SELECT count(*) FROM 't.parquet'",
		"SELECT count(*) FROM " + "'" + filepath.Join(dbDir, "t.parquet") + "'",
		"SELECT count(*) FROM './t.parquet'",
		"SELECT count(*) FROM 'parts/../t.parquet'",
		"SELECT count(*) FROM 'parts/*.parquet'",
		"SELECT count(*) FROM read_parquet('parts/p1.parquet')",
		"SELECT count(*) FROM parts",
	} {
		var n int
		if err := db.QueryRow(q).Scan(&n); err != nil || n != 10 {
			t.Errorf("%s: %d, %v; want 10", q, n, err)
		}
	}
	mustExec(t, db, "COPY t TO 'sub/copy.parquet'")
	mustExec(t, db, "DROP TABLE 'sub/copy.parquet'")
	mustExec(t, db, "DROP TABLE parts")
	if _, err := os.Stat(filepath.Join(dbDir, "parts")); !os.IsNotExist(err) {
		t.Errorf("DROP TABLE parts left the folder: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dbDir, "mixed", "notes.txt")); err != nil {
		t.Errorf("mixed/notes.txt: %v", err)
	}
}
