package driver

import (
	"database/sql"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
)

// returningKinds are the kinds of table INSERT, UPDATE and DELETE ...
// RETURNING write: how to make the table r (columns id BIGINT, v
// VARCHAR, and for the hive table its partition column p) and the text
// of one row of it.
var returningKinds = []struct {
	name, create string
	row          func(id int, v string) string
}{
	{"file", "CREATE TABLE r (id BIGINT, v VARCHAR)", plainRow},
	{"folder", "CREATE TABLE 'r/a.parquet' (id BIGINT, v VARCHAR)", plainRow},
	{"hive", "CREATE TABLE 'r/p=x/a.parquet' (id BIGINT, v VARCHAR)", func(id int, v string) string { return fmt.Sprintf("(%d, '%s', 'y')", id, v) }},
	{"delta", "CREATE TABLE r (id BIGINT, v VARCHAR) USING delta", plainRow},
	{"temp", "CREATE TEMP TABLE r (id BIGINT, v VARCHAR)", plainRow},
}

func plainRow(id int, v string) string { return fmt.Sprintf("(%d, '%s')", id, v) }

// returningSteps run on r holding rows 1 a, 2 b: each statement with the
// rows it returns (as dumpQuery writes them).
func returningSteps(row func(int, string) string) [][2]string {
	return [][2]string{
		{"INSERT INTO r VALUES " + row(3, "c") + ", " + row(4, "d") + " RETURNING id, v", "3 c\n4 d\n"},
		{"UPDATE r SET v = v || '!' WHERE id >= 3 RETURNING id * 10, v", "30 c!\n40 d!\n"},
		{"DELETE FROM r WHERE id = 4 RETURNING v, id", "d! 4\n"},
		{"DELETE FROM r WHERE id = 99 RETURNING v", ""},
		{"SELECT id, v FROM r ORDER BY id", "1 a\n2 b\n3 c!\n"},
	}
}

// openKind opens a database whose table r, made by create, holds rows
// 1 a and 2 b.
func openKind(t *testing.T, create string, row func(int, string) string) (*sql.DB, string) {
	db, dir := openTest(t, "")
	db.SetMaxOpenConns(1) // a temp table lives in its connection
	mustExec(t, db, create)
	mustExec(t, db, "INSERT INTO r VALUES "+row(1, "a")+", "+row(2, "b"))
	return db, dir
}

// TestReturningTableKinds: RETURNING through db.Query gives the rows
// written or deleted, through db.Exec their count, for every kind of
// table carquet writes.
func TestReturningTableKinds(t *testing.T) {
	for _, k := range returningKinds {
		t.Run(k.name, func(t *testing.T) {
			db, _ := openKind(t, k.create, k.row)
			checkSteps(t, db, returningSteps(k.row))
			// Through Exec: RowsAffected counts the rows returned.
			for _, c := range []struct {
				q string
				n int64
			}{
				{"INSERT INTO r VALUES " + k.row(5, "e") + " RETURNING *", 1},
				{"UPDATE r SET v = 'z' WHERE id < 3 RETURNING id", 2},
				{"DELETE FROM r WHERE v = 'z' RETURNING *", 2},
			} {
				if n, _ := mustExec(t, db, c.q).RowsAffected(); n != c.n {
					t.Errorf("%s: %d rows affected, want %d", c.q, n, c.n)
				}
			}
			if got := dumpQuery(db, "SELECT id, v FROM r ORDER BY id"); got != "3 c!\n5 e\n" {
				t.Errorf("after the Execs: %q", got)
			}
			// A RETURNING that fails once the rows are written (v is no
			// integer) takes the statement back with it, as in DuckDB.
			for _, q := range []string{
				"UPDATE r SET v = 'zz' RETURNING v::INTEGER",
				"INSERT INTO r VALUES " + k.row(6, "f") + " RETURNING v::INTEGER",
				"DELETE FROM r RETURNING v::INTEGER",
			} {
				if _, err := db.Exec(q); err == nil {
					t.Errorf("%s ran", q)
				}
			}
			if got := dumpQuery(db, "SELECT id, v FROM r ORDER BY id"); got != "3 c!\n5 e\n" {
				t.Errorf("after the failed RETURNINGs: %q", got)
			}
		})
	}
}

// TestReturningHiveStar: RETURNING * of a hive table gives its partition
// column too, and an UPDATE that moves rows to another partition returns
// them as written there.
func TestReturningHiveStar(t *testing.T) {
	db, _ := openTest(t, "")
	mustExec(t, db, "CREATE TABLE 'h/p=x/a.parquet' (id BIGINT, v VARCHAR)")
	checkSteps(t, db, [][2]string{
		{"INSERT INTO h VALUES (1, 'a', 'x'), (2, 'b', 'y') RETURNING *", "1 a x\n2 b y\n"},
		{"UPDATE h SET p = 'z' WHERE id = 2 RETURNING p, id", "z 2\n"},
		{"SELECT id, p FROM h ORDER BY id", "1 x\n2 z\n"},
	})
}

// TestReturningDeltaPartition: a DELETE of whole partitions of a Delta
// table, which otherwise reads no rows, returns the rows it deleted.
func TestReturningDeltaPartition(t *testing.T) {
	db, _ := openTest(t, "")
	mustExec(t, db, "CREATE TABLE d (id BIGINT, p VARCHAR) USING delta PARTITIONED BY (p)")
	mustExec(t, db, "INSERT INTO d VALUES (1, 'x'), (2, 'y'), (3, 'x')")
	checkSteps(t, db, [][2]string{{"DELETE FROM d WHERE p = 'x' RETURNING id, p", "1 x\n3 x\n"}})
	if n, _ := mustExec(t, db, "DELETE FROM d WHERE p = 'y' RETURNING *").RowsAffected(); n != 1 {
		t.Errorf("DELETE through Exec: %d rows affected", n)
	}
	checkSteps(t, db, [][2]string{{"SELECT count(*) FROM d", "0\n"}})
}

// TestReturningTx: in a transaction, RETURNING gives the rows as the
// transaction writes them, the transaction sees its own changes, and
// ROLLBACK leaves the table (and the folder's files) as they were.
func TestReturningTx(t *testing.T) {
	for _, k := range returningKinds {
		t.Run(k.name, func(t *testing.T) {
			db, dir := openKind(t, k.create, k.row)
			before := tableBytes(t, dir)
			tx, err := db.Begin()
			if err != nil {
				t.Fatal(err)
			}
			checkSteps(t, tx, returningSteps(k.row))
			if err := tx.Rollback(); err != nil {
				t.Fatal(err)
			}
			sameTables(t, "after ROLLBACK", before, tableBytes(t, dir))
			if got := dumpQuery(db, "SELECT id, v FROM r ORDER BY id"); got != "1 a\n2 b\n" {
				t.Errorf("after ROLLBACK: %q", got)
			}
		})
	}
}

// checkSteps runs each statement of steps and compares the rows it
// returns with the text that follows it.
func checkSteps(t *testing.T, q rowQuerier, steps [][2]string) {
	t.Helper()
	for _, st := range steps {
		if got := dumpQuery(q, st[0]); got != st[1] {
			t.Fatalf("%s:\n got %q\nwant %q", st[0], got, st[1])
		}
	}
}

// TestReturningTxCommit: the rows a transaction's RETURNING gave are
// those its COMMIT publishes.
func TestReturningTxCommit(t *testing.T) {
	db, _ := openTest(t, "")
	mustExec(t, db, "CREATE TABLE r (id BIGINT PRIMARY KEY, v VARCHAR DEFAULT 'dflt')")
	mustExec(t, db, "INSERT INTO r VALUES (1, 'a')")
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	checkSteps(t, tx, [][2]string{
		{"INSERT INTO r (id) VALUES (2) RETURNING *", "2 dflt\n"},
		{"INSERT INTO r VALUES (1, 'x'), (3, 'y') ON CONFLICT DO UPDATE SET v = excluded.v RETURNING *", "1 x\n3 y\n"},
		{"DELETE FROM r WHERE id = 2 RETURNING id", "2\n"},
	})
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := dumpQuery(db, "SELECT id, v FROM r ORDER BY id"); got != "1 x\n3 y\n" {
		t.Errorf("after COMMIT: %q", got)
	}
}

// TestReturningConcurrent: UPDATEs with RETURNING from several
// connections at once all run (a COMMIT that conflicts runs the
// statement again), each returning its own new value, as plain UPDATEs
// would, one after the other.
func TestReturningConcurrent(t *testing.T) {
	db, _ := openTest(t, "")
	mustExec(t, db, "CREATE TABLE r (id BIGINT, n BIGINT)")
	mustExec(t, db, "INSERT INTO r VALUES (1, 0)")
	const writers, each = 3, 10
	var mu sync.Mutex
	var got []int
	var wg sync.WaitGroup
	for range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				var n int
				if err := db.QueryRow("UPDATE r SET n = n + 1 RETURNING n").Scan(&n); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				got = append(got, n)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	sort.Ints(got)
	for i, n := range got {
		if n != i+1 {
			t.Fatalf("values returned: %v, want 1..%d each once", got, writers*each)
		}
	}
	if got := dumpQuery(db, "SELECT n FROM r"); got != fmt.Sprintf("%d\n", writers*each) {
		t.Errorf("after the UPDATEs: %q", got)
	}
}

// TestReturningErrors: a RETURNING that does not bind, or that DuckDB
// refuses, fails before anything is written, through Query and Exec.
func TestReturningErrors(t *testing.T) {
	db, dir := openTest(t, "")
	mustExec(t, db, "CREATE TABLE r (id BIGINT, v VARCHAR)")
	mustExec(t, db, "INSERT INTO r VALUES (1, 'a')")
	before := tableBytes(t, dir)
	for _, c := range []struct{ q, want string }{
		{"INSERT INTO r VALUES (2, 'b') RETURNING nope", "nope"},
		{"UPDATE r SET v = 'x' RETURNING sum(id)", "aggregate"},
		{"DELETE FROM r RETURNING (SELECT 1)", "subqueries"},
		{"DELETE FROM r RETURNING rank() OVER ()", "window"},
		{"INSERT INTO r VALUES (2, 'b') RETURNING", "RETURNING needs"},
	} {
		for _, run := range []func(string) error{
			func(q string) error { _, err := db.Exec(q); return err },
			func(q string) error {
				rows, err := db.Query(q)
				if err == nil {
					rows.Close()
				}
				return err
			},
		} {
			err := run(c.q)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: error %v, want one saying %q", c.q, err, c.want)
			}
		}
	}
	sameTables(t, "after the refused statements", before, tableBytes(t, dir))
}

// TestReturningPrepared: a prepared INSERT ... RETURNING with
// parameters, run several times, returns each run's rows.
func TestReturningPrepared(t *testing.T) {
	db, _ := openTest(t, "")
	mustExec(t, db, "CREATE TABLE r (id BIGINT, v VARCHAR)")
	st, err := db.Prepare("INSERT INTO r VALUES (?, ?) RETURNING id + 1, upper(v)")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i, v := range []string{"a", "b"} {
		var n int64
		var s string
		if err := st.QueryRow(i, v).Scan(&n, &s); err != nil {
			t.Fatal(err)
		}
		if n != int64(i+1) || s != strings.ToUpper(v) {
			t.Errorf("run %d: %d %s", i, n, s)
		}
	}
	var count int
	if err := db.QueryRow("SELECT count(*) FROM r").Scan(&count); err != nil || count != 2 {
		t.Errorf("rows written: %d (%v)", count, err)
	}
}

var _ rowQuerier = (*sql.Tx)(nil)

// BenchmarkReturning: what RETURNING adds to an UPDATE of 5,000 rows of
// a 1,000,000-row one-file table and to an INSERT of 10,000 rows (plain:
// the same statement without RETURNING), each iteration on a fresh
// table; and unnest inside an expression against the same work done by
// a select-list unnest under a derived table.
func BenchmarkReturning(b *testing.B) {
	for _, c := range []struct{ name, stmt string }{
		{"update-plain", "UPDATE %s SET v = 'new', n = n + 1 WHERE id %% 200 = 0"},
		{"update-returning", "UPDATE %s SET v = 'new', n = n + 1 WHERE id %% 200 = 0 RETURNING id, v"},
		{"insert-plain", "INSERT INTO %s SELECT range, 'x', range FROM range(10000)"},
		{"insert-returning", "INSERT INTO %s SELECT range, 'x', range FROM range(10000) RETURNING *"},
	} {
		b.Run(c.name, func(b *testing.B) {
			db, _ := openTest(b, "")
			k := 0
			for b.Loop() {
				b.StopTimer()
				k++
				tbl := fmt.Sprintf("t%d", k)
				mustExec(b, db, "CREATE TABLE "+tbl+" (id BIGINT, v VARCHAR, n BIGINT)")
				mustExec(b, db, "INSERT INTO "+tbl+" SELECT range, 'old', range FROM range(1000000)")
				b.StartTimer()
				mustExec(b, db, fmt.Sprintf(c.stmt, tbl))
			}
		})
	}
	db, _ := openTest(b, "")
	mustExec(b, db, "CREATE TABLE l AS SELECT range AS x, [range, range + 1, range + 2] AS l FROM range(300000)")
	for _, c := range []struct{ name, q string }{
		{"unnest-expr", "SELECT sum(v) FROM (SELECT x + unnest(l) * 2 AS v FROM l)"},
		{"unnest-item", "SELECT sum(x + v * 2) FROM (SELECT x, unnest(l) AS v FROM l)"},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if got := dumpQuery(db, c.q); got != "405000450000\n" {
					b.Fatalf("%s: %s", c.q, got)
				}
			}
		})
	}
}
