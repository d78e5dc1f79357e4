package driver

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/carquet-go/carquet/sqlplan"
)

// txSetup makes, in dir, the one-file table a, the folder table f (two
// files) and the table k with a primary key.
func txSetup(t *testing.T, dir string) {
	t.Helper()
	db := openTxDB(t, dir)
	defer db.Close()
	mustExec(t, db, "CREATE TABLE a (id BIGINT, v VARCHAR)")
	mustExec(t, db, "INSERT INTO a VALUES (1, 'one'), (2, 'two'), (3, 'three'), (4, 'four')")
	mustExec(t, db, "CREATE TABLE k (id BIGINT PRIMARY KEY, v VARCHAR)")
	mustExec(t, db, "INSERT INTO k VALUES (1, 'k1'), (2, 'k2')")
	mustExec(t, db, "CREATE TABLE f0 (id BIGINT, v VARCHAR)")
	mustExec(t, db, "INSERT INTO f0 VALUES (10, 'ten')")
	if err := os.Mkdir(filepath.Join(dir, "f"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "f0.parquet"), filepath.Join(dir, "f", "f0.parquet")); err != nil {
		t.Fatal(err)
	}
	mustExec(t, db, "INSERT INTO f VALUES (11, 'eleven')")
}

func openTxDB(t *testing.T, dir string) *sql.DB {
	t.Helper()
	db, err := sql.Open("carquet", dir)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// rowQuerier is a *sql.DB or a *sql.Tx.
type rowQuerier interface {
	Query(string, ...any) (*sql.Rows, error)
}

// dumpQuery runs query and returns its rows as text, or its error's.
func dumpQuery(q rowQuerier, query string) string {
	rows, err := q.Query(query)
	if err != nil {
		return "error: " + err.Error()
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var b strings.Builder
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return "error: " + err.Error()
		}
		fmt.Fprintln(&b, vals...)
	}
	if err := rows.Err(); err != nil {
		return "error: " + err.Error()
	}
	return b.String()
}

// dumpQueries is dumpQuery of each query.
func dumpQueries(q rowQuerier, queries []string) string {
	var b strings.Builder
	for _, query := range queries {
		fmt.Fprintf(&b, "%s:\n%s", query, dumpQuery(q, query))
	}
	return b.String()
}

// tableBytes reads every file below dir but the staging folders, by
// relative path.
func tableBytes(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".carquet_tx" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameTables(t *testing.T, what string, want, got map[string][]byte) {
	t.Helper()
	for p, b := range want {
		if g, ok := got[p]; !ok {
			t.Errorf("%s: %s is gone", what, p)
		} else if !bytes.Equal(g, b) {
			t.Errorf("%s: %s changed", what, p)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s: %s appeared", what, p)
		}
	}
}

// stagingLeft lists what is left in the staging folders.
func stagingLeft(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(dir, ".carquet_tx"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

var txQueries = []string{
	"SELECT * FROM a ORDER BY id",
	"SELECT * FROM f ORDER BY id",
	"SELECT * FROM k ORDER BY id",
	"SELECT * FROM b ORDER BY 1",
	"SELECT * FROM a2 ORDER BY 1",
	"SELECT * FROM c ORDER BY 1",
}

// TestTxStatements runs each kind of statement inside a transaction:
// the transaction sees its own writes, another connection does not,
// ROLLBACK leaves every file byte for byte as it was, and COMMIT leaves
// the tables as the same statements run outside a transaction do.
func TestTxStatements(t *testing.T) {
	cases := []struct {
		name  string
		stmts []string
	}{
		{"delete", []string{"DELETE FROM a WHERE id % 2 = 0"}},
		{"update", []string{"UPDATE a SET v = v || '!' WHERE id < 3"}},
		{"insert then delete", []string{"INSERT INTO a VALUES (100, 'x'), (101, 'y')", "DELETE FROM a WHERE id = 1 OR id = 101"}},
		{"delete then insert", []string{"DELETE FROM a WHERE id > 1", "INSERT INTO a VALUES (7, 'seven')", "UPDATE a SET v = 'upd' WHERE id = 7"}},
		{"create as", []string{"CREATE TABLE b AS SELECT id * 10 AS x, v FROM a WHERE id > 2"}},
		{"create and insert", []string{"CREATE TABLE c (x BIGINT, y VARCHAR)", "INSERT INTO c VALUES (1, 'p'), (2, 'q')", "DELETE FROM c WHERE x = 1"}},
		{"create or replace", []string{"CREATE OR REPLACE TABLE a AS SELECT id FROM a WHERE id < 3"}},
		{"drop", []string{"DROP TABLE a"}},
		{"drop folder", []string{"DROP TABLE f"}},
		{"drop and create", []string{"DROP TABLE a", "CREATE TABLE a (id BIGINT, w DOUBLE)", "INSERT INTO a VALUES (5, 0.5)"}},
		{"create and drop", []string{"CREATE TABLE c (x BIGINT)", "DROP TABLE c"}},
		{"alter add", []string{"INSERT INTO a VALUES (9, 'nine')", "ALTER TABLE a ADD COLUMN w INTEGER DEFAULT 7"}},
		{"alter drop column", []string{"ALTER TABLE a DROP COLUMN v"}},
		{"alter rename", []string{"ALTER TABLE a RENAME TO a2"}},
		{"on conflict", []string{"INSERT INTO k VALUES (2, 'new'), (3, 'k3') ON CONFLICT (id) DO UPDATE SET v = excluded.v"}},
		{"folder insert", []string{"INSERT INTO f VALUES (12, 'twelve')"}},
		{"several tables", []string{"UPDATE a SET v = 'x' WHERE id = 4", "INSERT INTO f VALUES (13, 'thirteen')", "CREATE TABLE b AS SELECT COUNT(*) AS n FROM f", "DELETE FROM k WHERE id = 1"}},
		{"views", []string{"CREATE VIEW vb AS SELECT id FROM a WHERE id > 2", "CREATE TABLE b AS SELECT * FROM vb", "DROP VIEW vb", "CREATE VIEW c AS SELECT v AS x FROM a WHERE id = 1"}},
		{"inserts into several", []string{"INSERT INTO a VALUES (20, 'a')", "INSERT INTO f VALUES (20, 'f')", "INSERT INTO k VALUES (20, 'k')"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The reference: the statements outside a transaction.
			ref := t.TempDir()
			txSetup(t, ref)
			rdb := openTxDB(t, ref)
			for _, s := range tc.stmts {
				mustExec(t, rdb, s)
			}
			want := dumpQueries(rdb, txQueries)
			rdb.Close()

			dir := t.TempDir()
			txSetup(t, dir)
			db := openTxDB(t, dir)
			defer db.Close()
			before := tableBytes(t, dir)
			seen := dumpQueries(db, txQueries)
			for _, end := range []string{"rollback", "commit"} {
				tx, err := db.Begin()
				if err != nil {
					t.Fatal(err)
				}
				for _, s := range tc.stmts {
					if _, err := tx.Exec(s); err != nil {
						t.Fatalf("%s: %v", s, err)
					}
				}
				if got := dumpQueries(tx, txQueries); got != want {
					t.Errorf("inside the transaction:\n%s\nwant (as outside one):\n%s", got, want)
				}
				if got := dumpQueries(db, txQueries); got != seen {
					t.Errorf("another connection sees the transaction's writes:\n%s\nwant:\n%s", got, seen)
				}
				sameTables(t, "before "+end, before, tableBytes(t, dir))
				if end == "rollback" {
					if err := tx.Rollback(); err != nil {
						t.Fatal(err)
					}
					sameTables(t, "after ROLLBACK", before, tableBytes(t, dir))
					if got := dumpQueries(db, txQueries); got != seen {
						t.Errorf("after ROLLBACK:\n%s\nwant:\n%s", got, seen)
					}
					continue
				}
				if err := tx.Commit(); err != nil {
					t.Fatal(err)
				}
				if got := dumpQueries(db, txQueries); got != want {
					t.Errorf("after COMMIT:\n%s\nwant (as outside a transaction):\n%s", got, want)
				}
				fresh := openTxDB(t, dir)
				if got := dumpQueries(fresh, txQueries); got != want {
					t.Errorf("after COMMIT, a new engine:\n%s\nwant:\n%s", got, want)
				}
				fresh.Close()
			}
			if left := stagingLeft(t, dir); len(left) > 0 {
				t.Errorf("staging folders left: %v", left)
			}
		})
	}
}

// TestTxSnapshotKept: a table the transaction read stays as it read it while
// another connection changes it; a table it did not read yet is read as
// committed when it first reads it.
func TestTxSnapshotKept(t *testing.T) {
	dir := t.TempDir()
	txSetup(t, dir)
	db := openTxDB(t, dir)
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	first := dumpQuery(tx, "SELECT * FROM a ORDER BY id")
	mustExec(t, db, "INSERT INTO a VALUES (50, 'other')")
	mustExec(t, db, "UPDATE a SET v = 'changed' WHERE id = 1")
	mustExec(t, db, "INSERT INTO k VALUES (50, 'other')")
	if got := dumpQuery(tx, "SELECT * FROM a ORDER BY id"); got != first {
		t.Errorf("the transaction's snapshot of a moved:\n%s\nwant:\n%s", got, first)
	}
	if got := dumpQuery(tx, "SELECT id FROM k WHERE id = 50"); got != "50\n" {
		t.Errorf("k, first read after the other connection's INSERT: %q", got)
	}
}

// TestTxConflict: a transaction that changed a table another connection
// changed meanwhile fails at COMMIT with ErrConflict and writes nothing;
// one that only inserted does not conflict.
func TestTxConflict(t *testing.T) {
	dir := t.TempDir()
	txSetup(t, dir)
	db := openTxDB(t, dir)
	defer db.Close()
	other := openTxDB(t, dir) // another engine: as another process
	defer other.Close()

	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	mustTxExec(t, tx, "DELETE FROM a WHERE id = 1")
	mustTxExec(t, tx, "INSERT INTO f VALUES (30, 'thirty')")
	mustTxExec(t, tx, "CREATE TABLE b (x BIGINT)")
	mustExec(t, other, "INSERT INTO a VALUES (60, 'sixty')")
	before := tableBytes(t, dir)
	err = tx.Commit()
	if !errors.Is(err, sqlplan.ErrConflict) {
		t.Fatalf("COMMIT after another connection's INSERT into a table the transaction deleted from: %v, want a conflict", err)
	}
	if !strings.Contains(err.Error(), `"a"`) {
		t.Errorf("the conflict does not name the table: %v", err)
	}
	sameTables(t, "after the failed COMMIT", before, tableBytes(t, dir))

	// A table both create: the second COMMIT conflicts.
	tx, _ = db.Begin()
	mustTxExec(t, tx, "CREATE TABLE c (x BIGINT)")
	mustExec(t, other, "CREATE TABLE c (y VARCHAR)")
	mustTxExec(t, tx, "INSERT INTO a VALUES (1, 'x')") // a second table: the journaled COMMIT
	if err := tx.Commit(); !errors.Is(err, sqlplan.ErrConflict) {
		t.Fatalf("COMMIT of a CREATE TABLE another connection made first: %v, want a conflict", err)
	}
	if got := dumpQuery(db, "SELECT * FROM c"); got != "" {
		t.Errorf("c: %q", got)
	}
	if got := dumpQuery(db, "DESCRIBE c"); !strings.Contains(got, "y") {
		t.Errorf("the other connection's table c was replaced: %q", got)
	}

	// INSERTs only: no conflict, both rows land.
	tx, _ = db.Begin()
	mustTxExec(t, tx, "INSERT INTO a VALUES (70, 'tx')")
	mustTxExec(t, tx, "INSERT INTO f VALUES (70, 'tx')")
	mustExec(t, other, "INSERT INTO a VALUES (71, 'other')")
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := dumpQuery(db, "SELECT id FROM a WHERE id >= 70 ORDER BY id"); got != "70\n71\n" {
		t.Errorf("a after two inserting connections: %q", got)
	}
	if left := stagingLeft(t, dir); len(left) > 0 {
		t.Errorf("staging folders left: %v", left)
	}
}

// TestTxSQLStatements: BEGIN, COMMIT and ROLLBACK given as SQL on one
// connection.
func TestTxSQLStatements(t *testing.T) {
	dir := t.TempDir()
	txSetup(t, dir)
	db := openTxDB(t, dir)
	defer db.Close()
	db.SetMaxOpenConns(1)
	mustExec(t, db, "BEGIN TRANSACTION")
	mustExec(t, db, "DELETE FROM a")
	if got := dumpQuery(db, "SELECT COUNT(*) FROM a"); got != "0\n" {
		t.Errorf("inside: %q", got)
	}
	mustExec(t, db, "ROLLBACK")
	if got := dumpQuery(db, "SELECT COUNT(*) FROM a"); got != "4\n" {
		t.Errorf("after ROLLBACK: %q", got)
	}
	mustExec(t, db, "BEGIN")
	mustExec(t, db, "DELETE FROM a WHERE id = 1")
	mustExec(t, db, "COMMIT")
	if got := dumpQuery(db, "SELECT COUNT(*) FROM a"); got != "3\n" {
		t.Errorf("after COMMIT: %q", got)
	}
	if _, err := db.Exec("COMMIT"); err == nil || !strings.Contains(err.Error(), "no transaction") {
		t.Errorf("COMMIT without a transaction: %v", err)
	}
}

func mustTxExec(t *testing.T, tx *sql.Tx, q string) {
	t.Helper()
	if _, err := tx.Exec(q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// txCrashEnv makes the writer child run txCrashChild.
const txCrashEnv = "CARQUET_CRASH_TX"

// txCrashChild runs, until killed, transaction i = first, first+1, ...:
// INSERT i into the file table t and the folder table f, DELETE the rows
// of i-3 from t and f, INSERT i into the hive table h (partition p = i%3),
// UPDATE its row i-1 to the next partition and DELETE its row i-3, the
// same INSERT and DELETE on the Delta table d, UPDATE
// the one row of g to i, CREATE TABLE c_i and DROP TABLE c_(i-1) — each
// transaction all or nothing.
func txCrashChild(t *testing.T, db *sql.DB, first int) {
	for i := first; ; i++ {
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{
			fmt.Sprintf("INSERT INTO t (s, k, n, pad) VALUES (%d, 0, 1, 'x')", i),
			fmt.Sprintf("INSERT INTO f (s, k, n, pad) VALUES (%d, 0, 1, 'x')", i),
			fmt.Sprintf("DELETE FROM t WHERE s = %d", i-3),
			fmt.Sprintf("DELETE FROM f WHERE s = %d", i-3),
			fmt.Sprintf("INSERT INTO h VALUES (%d, %d)", i, i%3),
			fmt.Sprintf("UPDATE h SET p = (p + 1) %% 3 WHERE s = %d", i-1),
			fmt.Sprintf("DELETE FROM h WHERE s = %d", i-3),
			fmt.Sprintf("INSERT INTO d VALUES (%d)", i),
			fmt.Sprintf("DELETE FROM d WHERE s = %d", i-3),
			fmt.Sprintf("UPDATE g SET c = %d", i),
			fmt.Sprintf("CREATE TABLE c_%d AS SELECT %d AS i", i, i),
			fmt.Sprintf("DROP TABLE IF EXISTS c_%d", i-1),
		} {
			if _, err := tx.Exec(q); err != nil {
				t.Fatalf("transaction %d: %s: %v", i, q, err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatalf("transaction %d: COMMIT: %v", i, err)
		}
	}
}

// TestTxCrash SIGKILLs processes running transactions over seven tables
// (a file table, a folder table, a hive-partitioned one and a Delta one
// that take INSERTs and DML, an updated one, one created and one
// dropped) at random moments, during COMMIT among others: after each
// kill, a new engine sees every table at the same transaction, the last
// one committed, whole. CARQUET_CRASH_KILLS sets the number of kills
// (default 40):
//
//	CARQUET_CRASH_KILLS=200 go test -run TestTxCrash -v -timeout 30m ./driver/
func TestTxCrash(t *testing.T) {
	want := crashKills(t, 40)
	dir := t.TempDir()
	createCrashTables(t, dir)
	db := openTxDB(t, dir)
	mustExec(t, db, "CREATE TABLE g (c BIGINT)")
	mustExec(t, db, "INSERT INTO g VALUES (0)")
	mustExec(t, db, "CREATE TABLE 'h/p=0/a.parquet' (s BIGINT)")
	mustExec(t, db, "CREATE TABLE d (s BIGINT) USING delta")
	db.Close()
	rng := rand.New(rand.NewPCG(3, 4))
	// The default run stops after 20 s on a slow machine; a run asked for
	// by CARQUET_CRASH_KILLS makes all its kills.
	deadline := time.Now().Add(max(20*time.Second, time.Duration(want)*time.Second))
	kills, last, published, staged := 0, 0, 0, 0
	for kills < want && time.Now().Before(deadline) {
		c := startSQLChildEnv(t, fmt.Sprintf("%s,0,t:%d", dir, last+1), txCrashEnv+"=1")
		// Up to 0.7 s: on a loaded machine the child's start takes most
		// of it, and each transaction stages several tables.
		if killAfter(t, c, time.Duration(20+rng.IntN(700))*time.Millisecond) {
			kills++
		}
		// What the kill left: a commit record (killed while publishing)
		// or a staging folder without one.
		records, _ := filepath.Glob(filepath.Join(dir, ".carquet_tx", "*", "commit"))
		folders, _ := filepath.Glob(filepath.Join(dir, ".carquet_tx", "*"))
		published += len(records)
		staged += len(folders) - len(records)
		got := txCrashState(t, dir)
		if got < last {
			t.Fatalf("transaction %d was committed, now the tables are at %d", last, got)
		}
		last = got
	}
	t.Logf("%d kills; %d transactions committed; %d kills left a commit record to complete, %d a staging folder to remove", kills, last, published, staged)
	if last < 5 {
		t.Errorf("only %d transactions committed: the children did not get far", last)
	}
}

// txCrashState checks, through a new engine, that the tables are all at
// one transaction, and returns it.
func txCrashState(t *testing.T, dir string) int {
	t.Helper()
	db := openTxDB(t, dir)
	defer db.Close()
	g := strings.TrimSpace(dumpQuery(db, "SELECT c FROM g"))
	i, err := strconv.Atoi(g)
	if err != nil {
		t.Fatalf("g: %q", g)
	}
	var want strings.Builder
	for s := max(1, i-2); s <= i; s++ {
		fmt.Fprintf(&want, "%d\n", s)
	}
	if got := dumpQuery(db, "SELECT s FROM t ORDER BY s"); got != want.String() {
		t.Fatalf("g is at transaction %d, t holds:\n%s", i, got)
	}
	for _, tb := range []string{"f", "d"} {
		if got := dumpQuery(db, "SELECT s FROM "+tb+" ORDER BY s"); got != want.String() {
			t.Fatalf("g is at transaction %d, %s holds:\n%s", i, tb, got)
		}
	}
	want.Reset()
	for s := max(1, i-2); s <= i; s++ {
		p := s % 3
		if s < i {
			p = (p + 1) % 3 // moved by transaction s+1
		}
		fmt.Fprintf(&want, "%d %d\n", s, p)
	}
	if got := dumpQuery(db, "SELECT s, p FROM h ORDER BY s"); got != want.String() {
		t.Fatalf("g is at transaction %d, h holds:\n%s", i, got)
	}
	var tables []string
	rows := dumpQuery(db, "SHOW TABLES")
	for _, name := range strings.Fields(rows) {
		if strings.HasPrefix(name, "c_") {
			tables = append(tables, name)
		}
	}
	if i > 0 && (len(tables) != 1 || tables[0] != fmt.Sprintf("c_%d", i)) {
		t.Fatalf("g is at transaction %d, the c_ tables are %v", i, tables)
	}
	if left := stagingLeft(t, dir); len(left) > 0 {
		t.Fatalf("staging folders left after recovery: %v", left)
	}
	return i
}

// TestTxCopy: COPY ... TO inside a transaction writes its file at COMMIT
// (the transaction reads it before), and ROLLBACK leaves no file.
func TestTxCopy(t *testing.T) {
	db, dir := openTest(t, "")
	db.SetMaxOpenConns(1)
	mustExec(t, db, "CREATE TABLE t AS SELECT range AS x FROM range(5)")
	count := func(q string) int {
		t.Helper()
		var n int
		if err := db.QueryRow(q).Scan(&n); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return n
	}
	mustExec(t, db, "BEGIN")
	mustExec(t, db, "COPY (SELECT x FROM t WHERE x < 2) TO 'out.parquet'")
	if n := count("SELECT count(*) FROM 'out.parquet'"); n != 2 {
		t.Errorf("inside the transaction: %d rows, want 2", n)
	}
	mustExec(t, db, "ROLLBACK")
	if _, err := os.Stat(filepath.Join(dir, "out.parquet")); !os.IsNotExist(err) {
		t.Fatalf("after ROLLBACK the file is there: %v", err)
	}
	mustExec(t, db, "BEGIN")
	mustExec(t, db, "COPY (SELECT x FROM t WHERE x < 3) TO 'out.parquet'")
	mustExec(t, db, "COPY t TO 'sub/all.parquet'")
	mustExec(t, db, "COMMIT")
	if n := count("SELECT count(*) FROM 'out.parquet'"); n != 3 {
		t.Errorf("after COMMIT: %d rows, want 3", n)
	}
	if n := count("SELECT count(*) FROM 'sub/all.parquet'"); n != 5 {
		t.Errorf("after COMMIT, sub/all.parquet: %d rows, want 5", n)
	}
}
