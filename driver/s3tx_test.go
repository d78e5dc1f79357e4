package driver_test

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/carquet-go/carquet/internal/fakes3"
	"github.com/carquet-go/carquet/sqlplan"
)

// s3TxStatements change every kind of table of s3Fixture's bucket in one
// transaction: the one-object table sales rewritten (DELETE, UPDATE,
// MERGE), rows inserted into the folder table events, a new table, the
// hive table dropped.
var s3TxStatements = []string{
	`DELETE FROM sales WHERE id < 1000`,
	`UPDATE sales SET cat = 'upd' WHERE id BETWEEN 5000 AND 5009`,
	`MERGE INTO sales USING (SELECT 2000 AS id, 'merged' AS cat) src ON sales.id = src.id WHEN MATCHED THEN UPDATE SET cat = src.cat`,
	`INSERT INTO events VALUES (9500, 1, 'tx')`,
	`CREATE TABLE fresh AS SELECT id, cat FROM sales WHERE cat = 'upd'`,
	`DROP TABLE hive`,
}

// s3TxState is what a connection reads of the tables s3TxStatements
// change.
func s3TxState(t *testing.T, q interface {
	QueryRow(string, ...any) *sql.Row
}) string {
	t.Helper()
	var n, upd, merged, events int64
	if err := q.QueryRow(`SELECT COUNT(*), COUNT(*) FILTER (WHERE cat = 'upd'), COUNT(*) FILTER (WHERE cat = 'merged') FROM sales`).Scan(&n, &upd, &merged); err != nil {
		t.Fatal(err)
	}
	if err := q.QueryRow(`SELECT COUNT(*) FROM events`).Scan(&events); err != nil {
		t.Fatal(err)
	}
	var fresh, hive string
	var k int64
	if err := q.QueryRow(`SELECT COUNT(*) FROM fresh`).Scan(&k); err != nil {
		fresh = "none"
	} else {
		fresh = fmt.Sprint(k)
	}
	if err := q.QueryRow(`SELECT COUNT(*) FROM hive`).Scan(&k); err != nil {
		hive = "none"
	} else {
		hive = fmt.Sprint(k)
	}
	return fmt.Sprintf("sales %d upd %d merged %d; events %d; fresh %s; hive %s", n, upd, merged, events, fresh, hive)
}

const (
	s3TxBefore = "sales 100000 upd 0 merged 0; events 8000; fresh none; hive 200"
	s3TxAfter  = "sales 99000 upd 10 merged 1; events 8001; fresh 10; hive none"
)

func runAll(t *testing.T, tx *sql.Tx, stmts []string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := tx.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// TestS3TxOwnWrites: a transaction over a bucket rewrites, inserts,
// creates and drops; it reads its own writes, another database on the
// bucket reads the tables as they were and the bucket holds the same
// objects until COMMIT, which publishes all of it.
func TestS3TxOwnWrites(t *testing.T) {
	_, srv, _ := s3Fixture(t)
	db := openS3(t, srv, "s3://lake/db/", "")
	other := openS3(t, srv, "s3://lake/db/", "")
	keys := srv.Keys(t, "lake", "db/")
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	runAll(t, tx, s3TxStatements)
	if got := s3TxState(t, tx); got != s3TxAfter {
		t.Errorf("in the transaction: %s, want %s", got, s3TxAfter)
	}
	if got := s3TxState(t, other); got != s3TxBefore {
		t.Errorf("another database before COMMIT: %s", got)
	}
	if now := srv.Keys(t, "lake", "db/"); fmt.Sprint(now) != fmt.Sprint(keys) {
		t.Errorf("the bucket changed before COMMIT: %v, was %v", now, keys)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := s3TxState(t, other); got != s3TxAfter {
		t.Errorf("another database after COMMIT: %s, want %s", got, s3TxAfter)
	}
	if hive := srv.Keys(t, "lake", "db/hive/"); len(hive) != 0 {
		t.Errorf("the dropped table's objects: %v", hive)
	}
	if fresh := srv.Keys(t, "lake", "db/fresh/"); len(fresh) != 1 {
		t.Errorf("the new table's objects: %v", fresh)
	}
	// One-object DELETE and UPDATE stay refused outside transactions.
	if _, err := db.Exec(`DELETE FROM sales WHERE id = 5`); err == nil || !strings.Contains(err.Error(), "immutable") {
		t.Errorf("DELETE outside a transaction: %v", err)
	}
	// Inside one, rewriting a folder table (several objects) or a Delta
	// table of the bucket is refused, and the transaction goes on.
	tx, err = db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	for q, want := range map[string]string{
		`DELETE FROM events WHERE id = 1`: "immutable",
		`UPDATE dl SET amount = 0`:        "inside a transaction",
	} {
		if _, err := tx.Exec(q); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s in a transaction: %v, want %q", q, err, want)
		}
	}
	if _, err := tx.Exec(`DELETE FROM sales WHERE id = 1000`); err != nil {
		t.Fatalf("after the refusals: %v", err)
	}
}

// TestS3TxRollback: ROLLBACK leaves every object as it was.
func TestS3TxRollback(t *testing.T) {
	_, srv, _ := s3Fixture(t)
	db := openS3(t, srv, "s3://lake/db/", "")
	keys := srv.Keys(t, "lake", "db/")
	srv.Reset()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	runAll(t, tx, s3TxStatements)
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if puts, others := srv.Puts.Load(), srv.Others.Load(); puts != 0 || others != 0 {
		t.Errorf("the transaction wrote to the bucket: %d PUTs, %d other requests: %v", puts, others, srv.Log())
	}
	if now := srv.Keys(t, "lake", "db/"); fmt.Sprint(now) != fmt.Sprint(keys) {
		t.Errorf("after ROLLBACK: %v, was %v", now, keys)
	}
	if got := s3TxState(t, db); got != s3TxBefore {
		t.Errorf("after ROLLBACK: %s", got)
	}
}

// TestS3TxConflict: a table another writer changed since the transaction
// read it fails the COMMIT with ErrConflict, and nothing is published:
// a one-object table rewritten by another transaction, a dropped folder
// table that took an INSERT.
func TestS3TxConflict(t *testing.T) {
	_, srv, _ := s3Fixture(t)
	db := openS3(t, srv, "s3://lake/db/", "")
	other := openS3(t, srv, "s3://lake/db/", "")
	for _, c := range []struct{ mine, theirs string }{
		{`DELETE FROM sales WHERE id < 10`, `UPDATE sales SET cat = 'theirs' WHERE id = 7`},
		{`DROP TABLE events`, `INSERT INTO events VALUES (9600, 1, 'theirs')`},
	} {
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		runAll(t, tx, []string{c.mine, `CREATE TABLE conflicted AS SELECT 1 AS a`})
		rival, err := other.Begin()
		if err != nil {
			t.Fatal(err)
		}
		runAll(t, rival, []string{c.theirs})
		if err := rival.Commit(); err != nil {
			t.Fatalf("%s: %v", c.theirs, err)
		}
		keys := srv.Keys(t, "lake", "db/")
		if err := tx.Commit(); !errors.Is(err, sqlplan.ErrConflict) || !strings.Contains(err.Error(), "nothing was committed") {
			t.Fatalf("%s after %s: %v, want ErrConflict", c.mine, c.theirs, err)
		}
		if now := srv.Keys(t, "lake", "db/"); fmt.Sprint(now) != fmt.Sprint(keys) {
			t.Errorf("a conflicting COMMIT changed the bucket: %v, was %v", now, keys)
		}
	}
	var n int64
	if err := db.QueryRow(`SELECT COUNT(*) FROM sales WHERE cat = 'theirs'`).Scan(&n); err != nil || n != 1 {
		t.Errorf("the rival's UPDATE: %d %v", n, err)
	}
	if err := db.QueryRow(`SELECT COUNT(*) FROM events`).Scan(&n); err != nil || n != 8001 {
		t.Errorf("events after the conflict: %d %v", n, err)
	}
}

// TestS3TxPartialCommit: the store refuses the second table's upload:
// COMMIT fails naming the table published before (an object store has
// no atomic write of several objects), and that table is published
// whole, the other as it was. A refusal of the first changes nothing.
func TestS3TxPartialCommit(t *testing.T) {
	_, srv, _ := s3Fixture(t)
	db := openS3(t, srv, "s3://lake/db/", "max_attempts=1")
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	// Published in this order: sales (its object replaced, conditionally),
	// then the new object of events.
	stmts := []string{`INSERT INTO events VALUES (9700, 1, 'partial')`, `DELETE FROM sales WHERE id < 500`}
	runAll(t, tx, stmts)
	srv.Inject(fakes3.Fault{Method: "PUT", PathContains: "db/events/part-", Status: 503})
	err = tx.Commit()
	srv.Reset()
	if err == nil || !strings.Contains(err.Error(), `tables ["sales"] were committed`) {
		t.Fatalf("COMMIT with the second upload refused: %v", err)
	}
	count := func(q string) int64 {
		var n int64
		if err := db.QueryRow(q).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(`SELECT COUNT(*) FROM events WHERE id = 9700`); n != 0 {
		t.Errorf("events: %d rows of the transaction", n)
	}
	if n := count(`SELECT COUNT(*) FROM sales`); n != 99500 {
		t.Errorf("sales: %d rows", n)
	}
	// The first refused: nothing is published.
	keys := srv.Keys(t, "lake", "db/")
	if tx, err = db.Begin(); err != nil {
		t.Fatal(err)
	}
	runAll(t, tx, stmts)
	srv.Inject(fakes3.Fault{Method: "PUT", PathContains: "db/sales.parquet", Status: 503})
	err = tx.Commit()
	srv.Reset()
	if err == nil || !strings.Contains(err.Error(), "nothing was committed") {
		t.Fatalf("COMMIT with the first upload refused: %v", err)
	}
	if now := srv.Keys(t, "lake", "db/"); fmt.Sprint(now) != fmt.Sprint(keys) {
		t.Errorf("a COMMIT refused at its first upload changed the bucket: %v, was %v", now, keys)
	}
	if n := count(`SELECT COUNT(*) FROM sales`); n != 99500 {
		t.Errorf("sales: %d rows", n)
	}
}

// TestS3TxRace: two databases on the bucket commit, at once and again
// and again, transactions that each rewrite the one-object table: in
// every round exactly one wins and the other fails with ErrConflict,
// found by its conditional PUT (If-Match: both listed the table before
// either wrote), and the winner's rewrite is kept.
func TestS3TxRace(t *testing.T) {
	_, srv, _ := s3Fixture(t)
	dbs := []*sql.DB{openS3(t, srv, "s3://lake/db/", ""), openS3(t, srv, "s3://lake/db/", "")}
	const rounds = 6
	for r := 0; r < rounds; r++ {
		txs := make([]*sql.Tx, 2)
		for k, db := range dbs {
			tx, err := db.Begin()
			if err != nil {
				t.Fatal(err)
			}
			runAll(t, tx, []string{fmt.Sprintf(`DELETE FROM sales WHERE id = %d`, 10*r+k)})
			txs[k] = tx
		}
		// The first upload waits: the other COMMIT lists the table
		// meanwhile and writes first, so the waiting one's conditional
		// PUT finds the object changed since its own listing.
		srv.Inject(fakes3.Fault{Method: "PUT", PathContains: "db/sales.parquet", Delay: 300 * time.Millisecond, Count: 1})
		errs := make(chan error, 2)
		for _, tx := range txs {
			go func() { errs <- tx.Commit() }()
		}
		won := 0
		for range 2 {
			err := <-errs
			switch {
			case err == nil:
				won++
			case !errors.Is(err, sqlplan.ErrConflict):
				t.Fatalf("round %d: %v", r, err)
			}
		}
		if won != 1 {
			t.Fatalf("round %d: %d transactions won", r, won)
		}
	}
	var n int64
	if err := dbs[0].QueryRow(`SELECT COUNT(*) FROM sales WHERE id < 100`).Scan(&n); err != nil || n != 100-rounds {
		t.Fatalf("after %d rounds: %d rows of the first 100, %v", rounds, n, err)
	}
}

// TestS3TxInsertOneObject: INSERT into a one-object table, refused
// outside a transaction, is taken inside one: the transaction reads its
// rows, and COMMIT replaces the object (conditionally) with the table as
// it is then followed by them — alone, or with rows of a folder table.
func TestS3TxInsertOneObject(t *testing.T) {
	_, srv, _ := s3Fixture(t)
	db := openS3(t, srv, "s3://lake/db/", "")
	other := openS3(t, srv, "s3://lake/db/", "")
	count := func(q interface {
		QueryRow(string, ...any) *sql.Row
	}, query string) int64 {
		t.Helper()
		var n int64
		if err := q.QueryRow(query).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for round, stmts := range [][]string{
		{`INSERT INTO sales VALUES (200000, 1, 1.5, 'ins')`, `INSERT INTO sales SELECT 200001 + i, 2, 2.5, 'ins' FROM range(4) t(i)`},
		{`INSERT INTO sales VALUES (300000, 1, 1.5, 'ins')`, `INSERT INTO events VALUES (9800, 1, 'ins')`},
	} {
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		runAll(t, tx, stmts)
		want := int64(5 + round)
		if n := count(tx, `SELECT COUNT(*) FROM sales WHERE cat = 'ins'`); n != want {
			t.Errorf("round %d in the transaction: %d rows", round, n)
		}
		if n := count(other, `SELECT COUNT(*) FROM sales WHERE cat = 'ins'`); n != int64(5*round) { // the earlier rounds' rows
			t.Errorf("round %d, another database before COMMIT: %d rows", round, n)
		}
		if err := tx.Commit(); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if n := count(other, `SELECT COUNT(*) FROM sales WHERE cat = 'ins'`); n != want {
			t.Errorf("round %d, another database after COMMIT: %d rows", round, n)
		}
	}
	if n := count(other, `SELECT COUNT(*) FROM sales`); n != 100006 {
		t.Errorf("sales: %d rows", n)
	}
	if n := count(other, `SELECT COUNT(*) FROM events WHERE id = 9800`); n != 1 {
		t.Errorf("events: %d rows", n)
	}
	if keys := srv.Keys(t, "lake", "db/sales"); len(keys) != 1 || keys[0] != "db/sales.parquet" {
		t.Errorf("sales' objects: %v", keys)
	}
}
